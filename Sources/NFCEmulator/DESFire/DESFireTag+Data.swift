import CryptoSupport
import NFCChips

/// The data commands: ReadData / WriteData, the value commands, the record commands and
/// the transaction. Backup data, value and record files change a working copy; only
/// CommitTransaction makes it permanent, and reads see the committed content.
extension DESFireTag {
    /// File number ‖ offset (3) ‖ length or count (3) of ReadData, WriteData, WriteRecord and
    /// ReadRecords.
    static let rangeHeaderLength = 7

    /// Offset and length of a range header.
    static func range(_ header: [UInt8]) -> (offset: Int, length: Int) {
        (DESFireFile.number(header[1..<4]), DESFireFile.number(header[4..<7]))
    }

    /// File `number` of the selected application as committed.
    func committedFile(_ number: UInt8) throws(DESFireRefusal) -> DESFireFile {
        try requireApplication()
        guard let index = current.file(number) else { throw DESFireRefusal(.fileNotFound) }
        return current.files[index]
    }

    /// File `number` as the current transaction sees it.
    func workingFile(_ number: UInt8) throws(DESFireRefusal) -> DESFireFile {
        let file = try committedFile(number)
        return transaction[number] ?? file
    }

    /// How many bytes a WriteData or WriteRecord needs after its code, when its first frame
    /// names a file the reader may write: the header and the data as the mode carries it.
    func expectedLength(_ code: UInt8, _ parameters: [UInt8]) -> Int? {
        let commands = Self.desfire.commands
        guard code == commands[.writeData].code || code == commands[.writeRecord].code,
            parameters.count >= Self.rangeHeaderLength, let index = selectedIndex,
            let fileIndex = applications[index].file(parameters[0])
        else { return nil }
        let file = applications[index].files[fileIndex]
        guard let mode = try? access([file.write, file.readWrite], file: file) else { return nil }
        let length = Self.range(Array(parameters.prefix(Self.rangeHeaderLength))).length
        let lengths = Self.desfire.secureMessaging
        func blocks(_ count: Int, _ size: Int) -> Int { (count + size - 1) / size * size }
        let wire: Int
        switch (session?.scheme, mode) {
        case (nil, _), (_, .plain): wire = length
        case (.legacy, .mac): wire = length + lengths.legacyMACLength
        case (_, .mac): wire = length + lengths.cmacLength
        case (.legacy, .full):
            wire = blocks(length + DESFireCardCrypto.crc16([]).count, session?.cipher.blockSize ?? 1)
        case (.ev1, .full):
            wire = blocks(length + DESFireCardCrypto.crc32([]).count, session?.cipher.blockSize ?? 1)
        case (.ev2, .full): wire = blocks(length + 1, PICCCrypto.zeroIV.count) + lengths.cmacLength
        }
        return Self.rangeHeaderLength + wire
    }

    // MARK: Data files

    mutating func readData(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        guard parameters.count >= Self.rangeHeaderLength else { throw DESFireRefusal(.lengthError) }
        let file = try committedFile(parameters[0])
        guard case .data(let bytes) = file.content else { throw DESFireRefusal(.parameterError) }
        let mode = try access([file.read, file.readWrite], file: file)
        let opened = try open(
            code, parameters, header: Self.rangeHeaderLength, mode: companionMode(mode), fileData: true)
        guard opened.data.isEmpty else { throw DESFireRefusal(.lengthError) }
        let (offset, length) = Self.range(opened.header)
        guard offset < bytes.count, offset + length <= bytes.count else { throw DESFireRefusal(.boundaryError) }
        let count = length == 0 ? bytes.count - offset : length
        return try reply(Array(bytes[offset..<(offset + count)]), mode: mode, fileData: true)
    }

    mutating func writeData(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        guard parameters.count >= Self.rangeHeaderLength else { throw DESFireRefusal(.lengthError) }
        var file = try workingFile(parameters[0])
        guard case .data(var bytes) = file.content else { throw DESFireRefusal(.parameterError) }
        let mode = try access([file.write, file.readWrite], file: file)
        let (offset, length) = Self.range(Array(parameters.prefix(Self.rangeHeaderLength)))
        let opened = try open(
            code, parameters, header: Self.rangeHeaderLength, mode: mode, fileData: true, plainLength: { _ in length })
        guard length > 0, opened.data.count == length else { throw DESFireRefusal(.lengthError) }
        guard offset + length <= bytes.count else { throw DESFireRefusal(.boundaryError) }
        bytes.replaceSubrange(offset..<(offset + length), with: opened.data)
        file.content = .data(bytes)
        store(file)
        return try reply(mode: companionMode(mode), fileData: true)
    }

    /// Keeps `file`: at once for a standard data file, in the transaction otherwise.
    mutating func store(_ file: DESFireFile) {
        if file.isTransactional {
            transaction[file.number] = file
        } else if let index = current.file(file.number) {
            current.files[index] = file
        }
    }

    // MARK: Value files

    mutating func getValue(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        guard let number = parameters.first else { throw DESFireRefusal(.lengthError) }
        let file = try committedFile(number)
        guard case .value(let value) = file.content else { throw DESFireRefusal(.parameterError) }
        var conditions = [file.read, file.write, file.readWrite]
        if value.options & Self.desfire.fileTypes.freeGetValue != 0 {
            conditions.append(Self.desfire.accessRights.free)
        }
        let mode = try access(conditions, file: file)
        _ = try open(code, parameters, header: 1, mode: companionMode(mode), fileData: true)
        return try reply(DESFireFile.le(value.value), mode: mode, fileData: true)
    }

    /// Credit (read-and-write key), Debit (any of read, write, read-and-write) and
    /// LimitedCredit (write or read-and-write, at most the debits of the last transaction).
    mutating func changeValue(_ name: DESFireCommandName, _ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal)
        -> Reply
    {
        guard let number = parameters.first else { throw DESFireRefusal(.lengthError) }
        var file = try workingFile(number)
        guard case .value(var value) = file.content else { throw DESFireRefusal(.parameterError) }
        let conditions: [UInt8] =
            switch name {
            case .credit: [file.readWrite]
            case .debit: [file.read, file.write, file.readWrite]
            default: [file.write, file.readWrite]
            }
        let mode = try access(conditions, file: file)
        let amountLength = MemoryLayout<Int32>.size
        let data = try open(code, parameters, header: 1, mode: mode, fileData: true, plainLength: { _ in amountLength })
            .data
        guard data.count == amountLength else { throw DESFireRefusal(.lengthError) }
        let amount = Int64(DESFireFile.signed(data[...]))
        guard amount >= 0 else { throw DESFireRefusal(.parameterError) }
        var result = Int64(value.value)
        switch name {
        case .credit: result += amount
        case .debit:
            result -= amount
            file.debited += amount
        default:
            guard value.options & Self.desfire.fileTypes.limitedCreditEnabled != 0, !file.usedLimitedCredit else {
                throw DESFireRefusal(.permissionDenied)
            }
            guard amount <= Int64(value.limitedCredit) else { throw DESFireRefusal(.boundaryError) }
            result += amount
            file.usedLimitedCredit = true
        }
        guard result >= Int64(value.lower), result <= Int64(value.upper) else { throw DESFireRefusal(.boundaryError) }
        value.value = Int32(result)
        file.content = .value(value)
        store(file)
        return try reply(mode: companionMode(mode), fileData: true)
    }

    // MARK: Record files

    mutating func writeRecord(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        guard parameters.count >= Self.rangeHeaderLength else { throw DESFireRefusal(.lengthError) }
        var file = try workingFile(parameters[0])
        guard case .records(var records) = file.content else { throw DESFireRefusal(.parameterError) }
        let mode = try access([file.write, file.readWrite], file: file)
        let (offset, length) = Self.range(Array(parameters.prefix(Self.rangeHeaderLength)))
        let opened = try open(
            code, parameters, header: Self.rangeHeaderLength, mode: mode, fileData: true, plainLength: { _ in length })
        guard length > 0, opened.data.count == length else { throw DESFireRefusal(.lengthError) }
        // A file cleared in this transaction takes no record before the commit.
        guard !file.cleared else { throw DESFireRefusal(.permissionDenied) }
        guard offset + length <= file.size else { throw DESFireRefusal(.boundaryError) }
        // The first WriteRecord of a transaction opens a new record; the next ones change it.
        if !file.recordOpen {
            if records.count >= file.recordCapacity {
                guard file.type == Self.desfire.fileTypes.cyclicRecord else { throw DESFireRefusal(.boundaryError) }
                records.removeFirst()
            }
            records.append([UInt8](repeating: 0, count: file.size))
            file.recordOpen = true
        }
        records[records.count - 1].replaceSubrange(offset..<(offset + length), with: opened.data)
        file.content = .records(records)
        store(file)
        return try reply(mode: companionMode(mode), fileData: true)
    }

    mutating func readRecords(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        guard parameters.count >= Self.rangeHeaderLength else { throw DESFireRefusal(.lengthError) }
        let file = try committedFile(parameters[0])
        guard case .records(let records) = file.content else { throw DESFireRefusal(.parameterError) }
        let mode = try access([file.read, file.readWrite], file: file)
        let opened = try open(
            code, parameters, header: Self.rangeHeaderLength, mode: companionMode(mode), fileData: true)
        guard opened.data.isEmpty else { throw DESFireRefusal(.lengthError) }
        // Offset 0 is the newest record; the records go out oldest first.
        let (offset, count) = Self.range(opened.header)
        guard offset < records.count, offset + count <= records.count else { throw DESFireRefusal(.boundaryError) }
        let taken = count == 0 ? records.count - offset : count
        let end = records.count - offset
        return try reply(records[(end - taken)..<end].flatMap { $0 }, mode: mode, fileData: true)
    }

    mutating func clearRecordFile(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        guard let number = parameters.first else { throw DESFireRefusal(.lengthError) }
        var file = try workingFile(number)
        guard case .records = file.content else { throw DESFireRefusal(.parameterError) }
        _ = try access([file.readWrite], file: file)
        _ = try open(code, parameters, header: 1)
        file.content = .records([])
        file.cleared = true
        file.recordOpen = false
        store(file)
        return try reply()
    }

    // MARK: Transaction

    mutating func commitTransaction(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        _ = try open(code, parameters, header: 0)
        for (number, staged) in transaction {
            guard let index = current.file(number) else { continue }
            var file = staged
            if case .value(var value) = file.content {
                // LimitedCredit may give back the debits of this transaction, and only once.
                if file.usedLimitedCredit {
                    value.limitedCredit = 0
                } else if file.debited > 0 {
                    value.limitedCredit = Int32(clamping: file.debited)
                }
                file.content = .value(value)
            }
            file.closeTransaction()
            current.files[index] = file
        }
        transaction = [:]
        return try reply()
    }

    mutating func abortTransaction(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        _ = try open(code, parameters, header: 0)
        transaction = [:]
        return try reply()
    }
}

import NFCChips

/// ISO/IEC 7816-4 on top of the native commands, for NFC Forum Type 4 readers: SELECT by DF
/// name (the PICC's D2760000850100 or an application's name) and by ISO file ID (an
/// application or a file of the selected one), READ BINARY and UPDATE BINARY on a data file
/// with free access — plain only.
extension DESFireTag {
    mutating func iso(_ bytes: [UInt8]) -> [UInt8] {
        let type4 = ChipTables.type4
        guard let apdu = ReceivedAPDU(bytes) else { return Self.word(.wrongLength) }
        let select = type4.commands[.selectApplication].header
        switch apdu.header[1] {
        case select[1]:
            switch apdu.header[2] {
            case select[2]: return selectByName(apdu.data)
            case type4.commands[.selectFile].header[2]: return selectByFileID(apdu.data)
            default: return Self.word(.incorrectP1P2)
            }
        case type4.commands[.readBinary].header[1]: return readBinary(apdu)
        case type4.commands[.updateBinary].header[1]: return updateBinary(apdu)
        default: return Self.word(.insNotSupported)
        }
    }

    /// The status word called `name`.
    static func word(_ name: Type4StatusWordName) -> [UInt8] { ChipTables.type4.statusWords[name].bytes }

    /// `6B00`: the offset lies outside the file.
    static var wrongOffset: [UInt8] {
        let code = ChipTables.iso7816.statusWords[.wrongP1P2].code
        return [UInt8(code >> 8), UInt8(code & 0xFF)]
    }

    private mutating func selectByName(_ name: [UInt8]) -> [UInt8] {
        if name == Self.desfire.ndef.piccDFName {
            select(nil)
            return Self.word(.success)
        }
        guard let application = applications.first(where: { $0.dfName == name }) else {
            return Self.word(.fileNotFound)
        }
        select(application.aid)
        return Self.word(.success)
    }

    private mutating func selectByFileID(_ data: [UInt8]) -> [UInt8] {
        guard data.count == MemoryLayout<UInt16>.size else { return Self.word(.wrongLength) }
        let id = UInt16(data[0]) << 8 | UInt16(data[1])
        if let application = applications.first(where: { $0.isoFileID == id }) {
            select(application.aid)
            return Self.word(.success)
        }
        guard selectedIndex != nil, let file = current.files.first(where: { $0.isoID == id }) else {
            return Self.word(.fileNotFound)
        }
        isoFile = file.number
        return Self.word(.success)
    }

    /// The selected data file and the offset in P1 P2, or the status word of a refusal.
    private func binaryTarget(_ apdu: ReceivedAPDU, _ conditions: (DESFireFile) -> [UInt8]) -> Result<
        (DESFireFile, Int), ISOStatus
    > {
        guard selectedIndex != nil, let isoFile, let index = current.file(isoFile) else {
            return .failure(ISOStatus(Self.word(.fileNotFound)))
        }
        let file = current.files[index]
        guard case .data = file.content else { return .failure(ISOStatus(Self.word(.fileNotFound))) }
        guard conditions(file).contains(Self.desfire.accessRights.free) else {
            return .failure(ISOStatus(Self.word(.securityStatusNotSatisfied)))
        }
        return .success((file, Int(apdu.header[2]) << 8 | Int(apdu.header[3])))
    }

    private mutating func readBinary(_ apdu: ReceivedAPDU) -> [UInt8] {
        switch binaryTarget(apdu, { [$0.read, $0.readWrite] }) {
        case .failure(let status): return status.word
        case let .success((file, offset)):
            guard case .data(let bytes) = file.content, offset < bytes.count else {
                return Self.wrongOffset
            }
            let count = min(apdu.expectedLength ?? ChipTables.iso7816.shortMaximumNe, bytes.count - offset)
            return Array(bytes[offset..<(offset + count)]) + Self.word(.success)
        }
    }

    private mutating func updateBinary(_ apdu: ReceivedAPDU) -> [UInt8] {
        switch binaryTarget(apdu, { [$0.write, $0.readWrite] }) {
        case .failure(let status): return status.word
        case let .success((file, offset)):
            guard !apdu.data.isEmpty else { return Self.word(.wrongLength) }
            guard case .data(var bytes) = file.content, offset + apdu.data.count <= bytes.count,
                let index = current.file(file.number)
            else { return Self.wrongOffset }
            bytes.replaceSubrange(offset..<(offset + apdu.data.count), with: apdu.data)
            // ISO writes are not transactional: a backup file takes them at once.
            current.files[index].content = .data(bytes)
            return Self.word(.success)
        }
    }
}

/// An ISO status word a refused ISO command answers.
struct ISOStatus: Error {
    var word: [UInt8]
    init(_ word: [UInt8]) { self.word = word }
}

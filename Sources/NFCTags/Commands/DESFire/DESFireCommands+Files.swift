import NFCChips
import NTAG424Crypto

extension DESFireCommands {
    /// GetFileIDs of the selected application.
    package func fileIDs() async throws(TagCommandError) -> [UInt8] {
        try await run(.getFileIDs)
    }

    /// GetISOFileIDs of the selected application.
    package func isoFileIDs() async throws(TagCommandError) -> [UInt16] {
        let answer = try await run(.getISOFileIDs)
        return stride(from: 0, to: answer.count - answer.count % 2, by: 2).map {
            UInt16(answer[$0]) | UInt16(answer[$0 + 1]) << 8
        }
    }

    /// GetFileSettings of file `number` (kept until the next selection).
    package func fileSettings(_ number: UInt8) async throws(TagCommandError) -> DESFireFileSettings {
        let settings = try DESFireFileSettings(answer: try await run(.getFileSettings, header: [number]))
        fileSettingsCache[number] = settings
        return settings
    }

    /// ChangeFileSettings: enciphered in a session, plain when the change right is free.
    package func changeFileSettings(_ number: UInt8, mode: DESFireCommMode, accessRights: UInt16)
        async throws(TagCommandError)
    {
        let current = try await cachedSettings(number)
        let free = current.rights.change == Self.table.accessRights.free
        _ = try await run(
            .changeFileSettings, header: [number],
            data: [mode.settingsByte] + DESFireAccessRights(value: accessRights).bytes,
            commandMode: session == nil || free ? .plain : .full)
        fileSettingsCache[number] = nil
    }

    /// Creates file `number` of `settings.kind` (sizes from it; current records ignored),
    /// with an ISO file ID in an application that has them.
    package func createFile(_ number: UInt8, settings: DESFireFileSettings, isoFileID: UInt16? = nil)
        async throws(TagCommandError)
    {
        let iso = isoFileID.map { DESFireFileSettings.le(Int($0), count: 2) } ?? []
        let common = [settings.communicationMode.settingsByte] + settings.rights.bytes
        func le(_ value: Int, _ count: Int) -> [UInt8] { DESFireFileSettings.le(value, count: count) }
        func le32(_ value: Int32) -> [UInt8] { le(Int(UInt32(bitPattern: value)), 4) }
        let head: [UInt8] = [number] + iso + common
        switch settings.kind {
        case let .data(size, backup):
            _ = try await run(backup ? .createBackupDataFile : .createStdDataFile, header: head + le(size, 3))
        case let .value(lower, upper, value, limited):
            var limits: [UInt8] = le32(lower) + le32(upper)
            limits += le32(value) + [limited ? 1 : 0]
            _ = try await run(.createValueFile, header: [number] + common + limits)
        case let .records(size, max, _, cyclic):
            _ = try await run(
                cyclic ? .createCyclicRecordFile : .createLinearRecordFile, header: head + le(size, 3) + le(max, 3))
        }
        fileSettingsCache[number] = nil
    }

    /// DeleteFile.
    package func deleteFile(_ number: UInt8) async throws(TagCommandError) {
        _ = try await run(.deleteFile, header: [number])
        fileSettingsCache[number] = nil
    }

    /// ReadData: `length` bytes of data file `number` from `offset` (0: to the end), in the
    /// mode the file and the session call for.
    package func readData(file number: UInt8, offset: Int = 0, length: Int = 0) async throws(TagCommandError)
        -> [UInt8]
    {
        let mode = try await mode(for: number, rights: { [$0.read, $0.readWrite] })
        let header = [number] + DESFireFileSettings.le(offset, count: 3) + DESFireFileSettings.le(length, count: 3)
        return try await run(
            .readData, header: header, commandMode: mode, answerMode: mode, fileData: true,
            expectedLength: length == 0 ? nil : length)
    }

    /// WriteData: `data` into data file `number` from `offset`.
    package func writeData(file number: UInt8, offset: Int = 0, data: [UInt8]) async throws(TagCommandError) {
        let mode = try await mode(for: number, rights: { [$0.write, $0.readWrite] })
        let header =
            [number] + DESFireFileSettings.le(offset, count: 3) + DESFireFileSettings.le(data.count, count: 3)
        _ = try await run(.writeData, header: header, data: data, commandMode: mode, fileData: true)
    }

    /// GetValue of value file `number`.
    package func value(file number: UInt8) async throws(TagCommandError) -> Int32 {
        let mode = try await mode(for: number, rights: { [$0.read, $0.write, $0.readWrite] })
        let answer = try await run(
            .getValue, header: [number], commandMode: mode, answerMode: mode, fileData: true, expectedLength: 4)
        guard answer.count == 4 else {
            throw .ntag424(.invalidAnswer(command: "GetValue", detail: "\(answer.count) bytes"))
        }
        return DESFireFileSettings.signed(answer[...])
    }

    /// Credit, Debit or LimitedCredit of `amount` on value file `number` (pending until
    /// CommitTransaction).
    package func changeValue(_ command: DESFireCommandName, file number: UInt8, amount: Int32)
        async throws(TagCommandError)
    {
        let mode = try await mode(for: number, rights: { [$0.read, $0.write, $0.readWrite] })
        let data = DESFireFileSettings.le(Int(UInt32(bitPattern: amount)), count: 4)
        _ = try await run(command, header: [number], data: data, commandMode: mode, fileData: true)
    }

    /// WriteRecord: `data` into the current record of file `number` from `offset`.
    package func writeRecord(file number: UInt8, offset: Int = 0, data: [UInt8]) async throws(TagCommandError) {
        let mode = try await mode(for: number, rights: { [$0.write, $0.readWrite] })
        let header =
            [number] + DESFireFileSettings.le(offset, count: 3) + DESFireFileSettings.le(data.count, count: 3)
        _ = try await run(.writeRecord, header: header, data: data, commandMode: mode, fileData: true)
    }

    /// ReadRecords: `count` records (0: all) of file `number` counted back from the
    /// `newest`-th newest, oldest first as the card sends them.
    package func readRecords(file number: UInt8, newest: Int = 0, count: Int = 0) async throws(TagCommandError)
        -> [[UInt8]]
    {
        let settings = try await cachedSettings(number)
        let mode = try await mode(for: number, rights: { [$0.read, $0.readWrite] })
        let header = [number] + DESFireFileSettings.le(newest, count: 3) + DESFireFileSettings.le(count, count: 3)
        let size: Int
        switch settings.kind {
        case .records(let recordSize, _, _, _): size = recordSize
        default: throw .invalidArgument("file \(number) is not a record file")
        }
        let data = try await run(.readRecords, header: header, commandMode: mode, answerMode: mode, fileData: true)
        guard size > 0, data.count.isMultiple(of: size) else {
            throw .ntag424(.invalidAnswer(command: "ReadRecords", detail: "\(data.count) bytes, records of \(size)"))
        }
        return stride(from: 0, to: data.count, by: size).map { Array(data[$0..<$0 + size]) }
    }

    /// ClearRecordFile (pending until CommitTransaction).
    package func clearRecordFile(_ number: UInt8) async throws(TagCommandError) {
        _ = try await run(.clearRecordFile, header: [number])
    }

    /// CommitTransaction: backup, value and record changes become permanent.
    package func commitTransaction() async throws(TagCommandError) {
        _ = try await run(.commitTransaction)
    }

    /// AbortTransaction: pending changes are dropped.
    package func abortTransaction() async throws(TagCommandError) {
        _ = try await run(.abortTransaction)
    }

    // MARK: Modes

    func cachedSettings(_ number: UInt8) async throws(TagCommandError) -> DESFireFileSettings {
        if let known = fileSettingsCache[number] { return known }
        return try await fileSettings(number)
    }

    /// The file's communication mode when the session's key is one of the file's `rights`
    /// for the operation, plain otherwise (free access, or the card refuses) — as libfreefare
    /// decides it.
    func mode(for number: UInt8, rights: (DESFireAccessRights) -> [UInt8]) async throws(TagCommandError)
        -> DESFireCommMode
    {
        guard let current = session else { return .plain }
        let settings = try await cachedSettings(number)
        return rights(settings.rights).contains(current.keyNumber) ? settings.communicationMode : .plain
    }
}

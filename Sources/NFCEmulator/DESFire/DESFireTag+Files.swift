import NFCChips

/// The file-management commands of an application: create the five file types, delete,
/// list (file numbers, ISO file IDs), GetFileSettings and ChangeFileSettings.
extension DESFireTag {
    mutating func createFile(_ name: DESFireCommandName, _ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal)
        -> Reply
    {
        try requireApplication()
        try requireMasterKey(unless: Self.desfire.keySettings.freeCreateDelete)
        let data = try open(code, parameters, header: 0).data
        let types = Self.desfire.fileTypes
        // File number ‖ [ISO file ID] ‖ communication ‖ access rights (2) ‖ the type's part:
        // size (3); lower, upper, value (4 each) and options; record size and count (3 each).
        let (type, length): (UInt8, Int) =
            switch name {
            case .createBackupDataFile: (types.backupData, 7)
            case .createValueFile: (types.value, 17)
            case .createLinearRecordFile: (types.linearRecord, 10)
            case .createCyclicRecordFile: (types.cyclicRecord, 10)
            default: (types.standardData, 7)
            }
        let fileIDLength = MemoryLayout<UInt16>.size
        let hasFileID = type != types.value && data.count == length + fileIDLength
        guard data.count == length || hasFileID else { throw DESFireRefusal(.lengthError) }
        let number = data[0]
        var cursor = 1
        var fileID: UInt16?
        if hasFileID {
            fileID = UInt16(DESFireFile.number(data[1..<(1 + fileIDLength)]))
            cursor += fileIDLength
        }
        let field = { (count: Int) -> ArraySlice<UInt8> in
            defer { cursor += count }
            return data[cursor..<(cursor + count)]
        }
        let communication = field(1).first ?? 0
        let rights = UInt16(DESFireFile.number(field(2)))
        guard Int(number) < Self.desfire.allocation.maxFiles else { throw DESFireRefusal(.parameterError) }
        guard current.file(number) == nil, fileID == nil || !current.files.contains(where: { $0.isoID == fileID })
        else { throw DESFireRefusal(.duplicateError) }
        var file = DESFireFile(
            type: type, number: number, isoID: fileID, communicationMode: communication, accessRights: rights,
            size: 0, maxRecords: 0, content: .data([]))
        switch type {
        case types.value:
            let lower = DESFireFile.signed(field(4))
            let upper = DESFireFile.signed(field(4))
            let value = DESFireFile.signed(field(4))
            guard lower <= value, value <= upper else { throw DESFireRefusal(.boundaryError) }
            let options = field(1).first ?? 0
            file.content = .value(.init(lower: lower, upper: upper, value: value, limitedCredit: 0, options: options))
        case types.linearRecord, types.cyclicRecord:
            file.size = DESFireFile.number(field(3))
            file.maxRecords = DESFireFile.number(field(3))
            guard file.size > 0, file.recordCapacity > 0 else { throw DESFireRefusal(.parameterError) }
            file.content = .records([])
        default:
            file.size = DESFireFile.number(field(3))
            guard file.size > 0 else { throw DESFireRefusal(.parameterError) }
            file.content = .data([UInt8](repeating: 0, count: file.size))
        }
        guard file.allocation <= freeMemory else { throw DESFireRefusal(.outOfEepromError) }
        current.files.append(file)
        return try reply()
    }

    mutating func deleteFile(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        try requireApplication()
        try requireMasterKey(unless: Self.desfire.keySettings.freeCreateDelete)
        let number = try open(code, parameters, header: 1).header[0]
        guard let index = current.file(number) else { throw DESFireRefusal(.fileNotFound) }
        current.files.remove(at: index)
        transaction[number] = nil
        return try reply()
    }

    mutating func getFileIDs(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        try requireApplication()
        try requireMasterKey(unless: Self.desfire.keySettings.freeDirectoryListing)
        _ = try open(code, parameters, header: 0)
        return try reply(current.files.map(\.number))
    }

    mutating func getISOFileIDs(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        try requireApplication()
        try requireMasterKey(unless: Self.desfire.keySettings.freeDirectoryListing)
        _ = try open(code, parameters, header: 0)
        let identifiers = current.files.compactMap(\.isoID)
        return try reply(identifiers.flatMap { DESFireFile.le(Int($0), MemoryLayout<UInt16>.size) })
    }

    mutating func getFileSettings(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        try requireApplication()
        try requireMasterKey(unless: Self.desfire.keySettings.freeDirectoryListing)
        let number = try open(code, parameters, header: 1).header[0]
        guard let index = current.file(number) else { throw DESFireRefusal(.fileNotFound) }
        return try reply(current.files[index].settings)
    }

    mutating func changeFileSettings(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        try requireApplication()
        guard let number = parameters.first, let index = current.file(number) else {
            throw DESFireRefusal(.fileNotFound)
        }
        let change = current.files[index].change
        let rights = Self.desfire.accessRights
        let mode: PICCCommunicationMode
        switch change {
        case rights.free: mode = .plain
        case rights.deny: throw DESFireRefusal(.permissionDenied)
        default:
            guard session?.keyNumber == change else { throw DESFireRefusal(.authenticationError) }
            mode = .full
        }
        // Communication ‖ access rights (2).
        let length = 3
        let data = try open(code, parameters, header: 1, mode: mode, plainLength: { _ in length }).data
        guard data.count == length else { throw DESFireRefusal(.lengthError) }
        let rightsValue = UInt16(DESFireFile.number(data[1...]))
        current.files[index].communicationMode = data[0]
        current.files[index].accessRights = rightsValue
        transaction[number]?.communicationMode = data[0]
        transaction[number]?.accessRights = rightsValue
        return try reply()
    }
}

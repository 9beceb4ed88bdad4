import NFCChips

/// The PICC-level commands: GetVersion, FreeMem, GetCardUID, SetConfiguration, Read_Sig,
/// FormatPICC and the applications (create, delete, list, select).
extension DESFireTag {
    // MARK: Card

    mutating func getVersion(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        let opened = try open(code, parameters, header: 0)
        guard opened.data.isEmpty else { throw DESFireRefusal(.lengthError) }
        let version = spec.getVersion
        // With the random UID on, GetVersion does not give the UID away (GetCardUID does).
        let shownUID = usesRandomUID ? [UInt8](repeating: 0, count: uid.count) : uid
        let production = shownUID + spec.productionSample.dropFirst(uid.count)
        var answer = try reply(version.hardware + version.software + production)
        answer.frames = [version.hardware.count, version.software.count]
        return answer
    }

    mutating func freeMem(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        _ = try open(code, parameters, header: 0)
        return try reply(DESFireFile.le(freeMemory, 3))
    }

    mutating func getCardUID(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        guard session != nil else { throw DESFireRefusal(.authenticationError) }
        _ = try open(code, parameters, header: 0)
        return try reply(uid, mode: .full)
    }

    mutating func setConfiguration(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        try requirePICC()
        guard hasMasterKey else { throw DESFireRefusal(.authenticationError) }
        let options = Self.desfire.configuration
        let keyLength = DESFireKey.Kind.threeKeyTripleDES.length
        let length: ([UInt8]) -> Int? = { plain in
            switch parameters.first {
            case options.piccOption: 1
            case options.defaultKeyOption: keyLength + 1
            case options.atsOption: plain.first.map(Int.init)
            default: nil
            }
        }
        let opened = try open(code, parameters, header: 1, mode: .full, plainLength: length)
        let data = opened.data
        switch opened.header[0] {
        case options.piccOption:
            formatDisabled = data[0] & options.disableFormat != 0
            if data[0] & options.randomUID != 0 { usesRandomUID = true }
        case options.defaultKeyOption:
            defaultKey = DESFireDefaultKey(bytes: Array(data.prefix(keyLength)), version: data[keyLength])
        case options.atsOption:
            guard data.count > 1 else { throw DESFireRefusal(.parameterError) }
            ats = data
        default:
            throw DESFireRefusal(.parameterError)
        }
        return try reply()
    }

    mutating func readSignature(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        guard spec.readSig else { throw DESFireRefusal(.illegalCommandCode) }
        let opened = try open(code, parameters, header: 1)
        guard opened.data.isEmpty else { throw DESFireRefusal(.lengthError) }
        return try reply(signature, mode: session == nil ? .plain : .full, status: .signature)
    }

    mutating func formatPICC(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        try requirePICC()
        guard hasMasterKey else { throw DESFireRefusal(.authenticationError) }
        guard !formatDisabled else { throw DESFireRefusal(.permissionDenied) }
        _ = try open(code, parameters, header: 0)
        applications = []
        transaction = [:]
        return try reply()
    }

    // MARK: Applications

    mutating func createApplication(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        try requirePICC()
        let settings = Self.desfire.keySettings
        try requireMasterKey(unless: settings.freeCreateDelete)
        let data = try open(code, parameters, header: 0).data
        let aidLength = picc.aid.count
        let fileIDLength = MemoryLayout<UInt16>.size
        let plain = aidLength + 2
        guard data.count == plain || data.count >= plain + fileIDLength else { throw DESFireRefusal(.lengthError) }
        let aid = Array(data.prefix(aidLength))
        let keyByte = data[aidLength + 1]
        let keyCount = Int(keyByte & settings.keyCountMask)
        guard aid != picc.aid, (1...settings.maxKeys).contains(keyCount), let kind = DESFireKey.Kind(flags: keyByte)
        else { throw DESFireRefusal(.parameterError) }
        let fileID = data.count > plain ? UInt16(DESFireFile.number(data[plain..<(plain + fileIDLength)])) : nil
        let name = data.count > plain + fileIDLength ? Array(data.dropFirst(plain + fileIDLength)) : nil
        guard !applications.contains(where: { $0.aid == aid }),
            fileID == nil || !applications.contains(where: { $0.isoFileID == fileID }),
            name == nil || !applications.contains(where: { $0.dfName == name })
        else { throw DESFireRefusal(.duplicateError) }
        guard applications.count < Self.desfire.allocation.maxApplications else {
            throw DESFireRefusal(.countError)
        }
        guard freeMemory >= Self.desfire.allocation.applicationOverhead else {
            throw DESFireRefusal(.outOfEepromError)
        }
        let key = newKey(kind)
        applications.append(
            DESFireApplication(
                aid: aid, keySettings: data[aidLength], keyKind: kind, keys: Array(repeating: key, count: keyCount),
                usesISOFileIDs: keyByte & settings.isoFileIDs != 0, isoFileID: fileID, dfName: name))
        return try reply()
    }

    /// The key a new application of `kind` starts with: the default key SetConfiguration
    /// stored (cut to the kind's length), or all zeros.
    func newKey(_ kind: DESFireKey.Kind) -> DESFireKey {
        guard let defaultKey else { return .zero(kind) }
        let bytes = Array(defaultKey.bytes.prefix(kind.length))
        return DESFireKey(kind: kind, bytes: bytes, version: defaultKey.version)
    }

    mutating func deleteApplication(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        let aid = Array(parameters.prefix(picc.aid.count))
        guard let index = applications.firstIndex(where: { $0.aid == aid }) else {
            throw DESFireRefusal(.applicationNotFound)
        }
        // The PICC master key, or the application's own master key with it selected.
        guard hasMasterKey, selectedAID == nil || selectedAID == aid else {
            throw DESFireRefusal(.authenticationError)
        }
        _ = try open(code, parameters, header: picc.aid.count)
        let answer = try reply()
        let wasSelected = selectedAID == aid
        applications.remove(at: index)
        if wasSelected { select(nil) }
        return answer
    }

    mutating func getApplicationIDs(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        try requirePICC()
        try requireMasterKey(unless: Self.desfire.keySettings.freeDirectoryListing)
        _ = try open(code, parameters, header: 0)
        var answer = try reply(applications.flatMap(\.aid))
        answer.unit = picc.aid.count
        return answer
    }

    mutating func getDFNames(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        try requirePICC()
        try requireMasterKey(unless: Self.desfire.keySettings.freeDirectoryListing)
        _ = try open(code, parameters, header: 0)
        // One frame per application with a DF name: AID ‖ ISO file ID ‖ name.
        let entries = applications.compactMap { application in
            application.dfName.map { application.aid + DESFireFile.le(Int(application.isoFileID ?? 0), 2) + $0 }
        }
        var answer = try reply(entries.flatMap { $0 })
        answer.frames = entries.dropLast().map(\.count)
        return answer
    }

    mutating func selectApplication(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        guard parameters.count == picc.aid.count else { throw DESFireRefusal(.lengthError) }
        if parameters == picc.aid {
            select(nil)
        } else {
            guard applications.contains(where: { $0.aid == parameters }) else {
                throw DESFireRefusal(.applicationNotFound)
            }
            select(parameters)
        }
        return Reply(data: [], status: .operationOk)
    }
}

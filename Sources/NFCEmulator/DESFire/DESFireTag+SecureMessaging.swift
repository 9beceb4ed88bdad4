import NFCChips

/// How commands and answers pass through the session's secure messaging, and who may run a
/// command (access rights, master keys).
extension DESFireTag {
    /// The header and data of a command sent in `mode` — plain outside a session. In an EV2
    /// session a command that carries no file data travels MACed (`fileData` false).
    /// `plainLength` gives an enciphered field's data length from its deciphered bytes.
    mutating func open(
        _ code: UInt8, _ parameters: [UInt8], header: Int, mode: PICCCommunicationMode = .plain,
        fileData: Bool = false, plainLength: ([UInt8]) -> Int? = { $0.count }
    ) throws(DESFireRefusal) -> (header: [UInt8], data: [UInt8]) {
        guard var current = session else {
            guard parameters.count >= header else { throw DESFireRefusal(.lengthError) }
            return (Array(parameters.prefix(header)), Array(parameters.dropFirst(header)))
        }
        let opened = try current.open(
            code: code, field: parameters, headerLength: header, mode: ev2Mode(mode, fileData: fileData),
            plainLength: plainLength)
        session = current
        return opened
    }

    /// A successful answer with `data` in `mode`, sealed by the session (plain outside one).
    mutating func reply(
        _ data: [UInt8] = [], mode: PICCCommunicationMode = .plain, fileData: Bool = false,
        status: DESFireStatusName = .operationOk
    ) throws(DESFireRefusal) -> Reply {
        guard var current = session else { return Reply(data: data, status: status) }
        guard let sealed = current.seal(data, status: Self.code(status), mode: ev2Mode(mode, fileData: fileData))
        else { throw DESFireRefusal(.commandAborted) }
        session = current
        return Reply(data: sealed, status: status)
    }

    /// The mode in an EV2 session: commands without file data are MACed there.
    func ev2Mode(_ mode: PICCCommunicationMode, fileData: Bool) -> PICCCommunicationMode {
        guard session?.scheme == .ev2, !fileData, mode == .plain else { return mode }
        return .mac
    }

    /// The mode of the half of a file command that carries no file data (a read's command, a
    /// write's answer): MACed in an EV2 session when the file is MACed or enciphered, plain
    /// (an EV1 session still CMACs it) otherwise.
    func companionMode(_ mode: PICCCommunicationMode) -> PICCCommunicationMode {
        guard session?.scheme == .ev2 else { return .plain }
        return mode == .full ? .mac : mode
    }

    /// The communication mode a file's settings byte names.
    static func mode(_ settings: UInt8) -> PICCCommunicationMode {
        let modes = desfire.communicationModes
        switch settings & modes.full {
        case modes.full: return .full
        case modes.mac: return .mac
        default: return .plain
        }
    }

    /// The mode a file command runs in when it needs one of `conditions` (access nibbles):
    /// the file's own mode when the session's key is among them, plain when one is free.
    /// Refuses with PERMISSION_DENIED when all deny, AUTHENTICATION_ERROR when a key is missing.
    func access(_ conditions: [UInt8], file: DESFireFile) throws(DESFireRefusal) -> PICCCommunicationMode {
        let rights = Self.desfire.accessRights
        if let session, conditions.contains(session.keyNumber) { return Self.mode(file.communicationMode) }
        if conditions.contains(rights.free) { return .plain }
        if conditions.allSatisfy({ $0 == rights.deny }) { throw DESFireRefusal(.permissionDenied) }
        throw DESFireRefusal(.authenticationError)
    }

    /// Whether the reader authenticated with the selected level's master key (key 0).
    var hasMasterKey: Bool { session?.keyNumber == 0 }

    /// Refuses unless key setting `bit` is set or the master key is authenticated.
    func requireMasterKey(unless bit: UInt8) throws(DESFireRefusal) {
        guard current.allows(bit) || hasMasterKey else { throw DESFireRefusal(.authenticationError) }
    }

    /// Refuses at the PICC level (commands of an application).
    func requireApplication() throws(DESFireRefusal) {
        guard selectedIndex != nil else { throw DESFireRefusal(.permissionDenied) }
    }

    /// Refuses inside an application (commands of the PICC level).
    func requirePICC() throws(DESFireRefusal) {
        guard selectedAID == nil else { throw DESFireRefusal(.permissionDenied) }
    }
}

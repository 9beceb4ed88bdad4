import NFCChips

/// An emulated MIFARE DESFire EV1, EV2 or EV3: ISO-DEP, the native command set in both
/// framings (wrapped in ISO 7816-4 as `90 INS 00 00 Lc data 00` → data ‖ `91 status`, or
/// native, status byte first), applications with DES / 2K3DES / 3K3DES / AES keys, the five
/// file types with transactions, legacy, EV1 and (EV2, EV3) EV2 secure messaging, and ISO
/// SELECT / READ BINARY / UPDATE BINARY for Type 4 readers.
///
/// Every fact comes from `ChipTables.desfire` and the chip's table; what the public facts
/// leave open is listed in the DESFire section of the emulator's assumptions.
///
/// ```swift
/// var tag = try DESFireTag(chip: .desfireEV1, uid: [0x04, 0xE0, 0x5A, 0x11, 0x22, 0x33, 0x44])
/// tag.receive([0x02, 0x90, 0x60, 0x00, 0x00, 0x00])   // GetVersion: 02 04 01 01 01 00 18 05 91 AF
/// ```
public struct DESFireTag: EmulatedTag {
    /// The chip the tag models.
    public let chip: Chip
    /// The UID the tag was made with (the one GetCardUID returns).
    public let uid: [UInt8]
    /// UID, ATQA, SAK and ATS for the current activation.
    public private(set) var identity: TagIdentity

    let spec: DESFireChipSpec
    /// Read_Sig's answer.
    let signature: [UInt8]

    // Persistent state.
    /// The PICC level: the card master key and its settings.
    var picc: DESFireApplication
    var applications: [DESFireApplication] = []
    /// SetConfiguration option 00: FormatPICC refused, random UID.
    var formatDisabled = false
    var usesRandomUID = false
    /// SetConfiguration option 01: the key new applications start with (24 bytes) and its version.
    var defaultKey: DESFireDefaultKey?
    /// The ATS (SetConfiguration option 02 changes it from the next activation).
    var ats: [UInt8]

    // Volatile state.
    var link = ISODEPLink()
    /// The selected application; `nil` is the PICC level.
    var selectedAID: [UInt8]?
    var session: DESFireSession?
    /// What an `AF` frame continues.
    var pending: Pending?
    /// Working copies of the files the current transaction changed, by file number.
    var transaction: [UInt8: DESFireFile] = [:]
    /// The file ISO READ BINARY and UPDATE BINARY address.
    var isoFile: UInt8?
    /// Challenges, transaction identifiers, random UIDs.
    var random: SplitMix64
    /// The next RndB and EV2 transaction identifier, instead of random ones (tests of
    /// published vectors).
    var nextChallenge: [UInt8]?
    var nextTransactionIdentifier: [UInt8]?

    /// What an `AF` frame continues.
    enum Pending: Sendable {
        /// Answer frames not sent yet, then the final status.
        case answer(frames: [[UInt8]], status: UInt8)
        /// A command longer than one frame: its code, the parameters so far, how many it needs.
        case command(code: UInt8, parameters: [UInt8], expected: Int)
        /// The reader's token of an authentication.
        case authentication(DESFireCardAuthentication, previous: DESFireSession?)
    }

    /// The DESFire tables.
    static var desfire: DESFireSpec { ChipTables.desfire }

    /// A factory-fresh card of `chip` (`.desfireEV1`, `.desfireEV2`, `.desfireEV3`): the PICC
    /// master key DES all-zero of version 0, key settings 0F, no applications, and a Read_Sig
    /// answer made by ``EmulatorSigningKey`` (secp224r1) unless `signature` is given.
    public init(chip: Chip, uid: [UInt8], signature: [UInt8]? = nil, seed: UInt64 = 0x4446_4556)
        throws(EmulatorSetupError)
    {
        let chipSpec = ChipTables.spec(for: chip)
        guard let spec = chipSpec.desfire else { throw .unknownTagName(chip.rawValue) }
        guard uid.count == chipSpec.activation.uidLength else {
            throw .uidLength(tag: chip.rawValue, expected: chipSpec.activation.uidLength, got: uid.count)
        }
        self.chip = chip
        self.uid = uid
        self.spec = spec
        self.signature = signature ?? EmulatorSigningKey.signNTAG424(uid: uid)
        self.ats = chipSpec.activation.ats ?? []
        self.picc = Self.factoryPICC
        self.identity = TagIdentity(
            uid: uid, atqa: chipSpec.activation.atqa, sak: chipSpec.activation.sak, ats: chipSpec.activation.ats)
        self.random = SplitMix64(seed: seed ^ uid.reduce(0) { $0 << 8 | UInt64($1) })
    }

    /// The PICC level of a factory-fresh card.
    static var factoryPICC: DESFireApplication {
        DESFireApplication(
            aid: [UInt8](repeating: 0, count: desfire.ndef.aid.count), keySettings: desfire.keySettings.factoryPICC,
            keyKind: .tripleDES, keys: [.zero(.tripleDES)])
    }

    /// Free user memory in bytes (FreeMem's answer).
    public var freeMemory: Int { spec.storageSize - applications.reduce(0) { $0 + $1.allocation } }

    /// The AIDs of the applications, each as sent (least significant byte first).
    public var applicationIDs: [[UInt8]] { applications.map(\.aid) }

    /// Answers one frame (CRC_A stripped) while ACTIVE.
    public mutating func receive(_ frame: [UInt8]) -> TagAnswer {
        switch link.receive(frame, ats: identity.ats) {
        case .answer(let answer): return answer
        case .apdu(let apdu): return link.send(respond(to: apdu))
        }
    }

    /// The RF field went off: as ``leaveActiveState()``; the next activation shows a new
    /// random UID (when it is on) and the ATS SetConfiguration stored.
    public mutating func fieldReset() {
        leaveActiveState()
        let activation = ChipTables.spec(for: chip).activation
        var id = uid
        var atqa = activation.atqa
        if usesRandomUID {
            let iso = ChipTables.iso14443a
            let single = iso.atqaUIDSizes.min { $0.uidLength < $1.uidLength }
            let length = single?.uidLength ?? uid.count
            id = [Self.desfire.configuration.randomUIDFirstByte]
            while id.count < length { id.append(UInt8(truncatingIfNeeded: random.next())) }
            atqa = atqa & ~iso.atqaUIDSizeMask | (single?.bits ?? 0)
        }
        identity = TagIdentity(uid: id, atqa: atqa, sak: activation.sak, ats: ats)
    }

    /// The tag left ACTIVE: authentication, selection, half-done commands and the pending
    /// transaction are gone; committed memory stays.
    public mutating func leaveActiveState() {
        link.reset()
        selectedAID = nil
        session = nil
        pending = nil
        transaction = [:]
        isoFile = nil
    }

    // MARK: Framing

    /// Answers one C-APDU: a wrapped native command, an ISO 7816-4 command, or a native frame.
    mutating func respond(to bytes: [UInt8]) -> [UInt8] {
        let framing = Self.desfire.framing
        guard let first = bytes.first else { return [Self.code(.lengthError)] }
        if first == framing.isoCLA {
            guard let apdu = ReceivedAPDU(bytes), apdu.header[2] == 0, apdu.header[3] == 0 else {
                return [framing.isoStatusSW1, Self.code(.lengthError)]
            }
            let (status, data) = native([apdu.header[1]] + apdu.data)
            return data + [framing.isoStatusSW1, status]
        }
        if first == ChipTables.type4.commands[.selectApplication].header[0],
            bytes.count >= ChipTables.iso7816.headerLength
        {
            pending = nil
            return iso(bytes)
        }
        let (status, data) = native(bytes)
        return [status] + data
    }

    /// One native frame (command code first): the status and the data of the answer frame.
    mutating func native(_ frame: [UInt8]) -> (status: UInt8, data: [UInt8]) {
        let code = frame[0]
        let parameters = Array(frame.dropFirst())
        guard code == Self.desfire.commands[.additionalFrame].code else {
            // A new command while a chain waits for AF: the card drops both.
            if pending != nil { return refuse(.commandAborted) }
            return execute(code, parameters)
        }
        let waiting = pending
        pending = nil
        switch waiting {
        case let .answer(frames, status): return send(frames, status: status)
        case let .command(code, gathered, expected):
            let all = gathered + parameters
            guard all.count >= expected else {
                pending = .command(code: code, parameters: all, expected: expected)
                return (Self.code(.additionalFrame), [])
            }
            return run(code, all)
        case let .authentication(authentication, previous):
            return finishAuthentication(authentication, previous: previous, token: parameters)
        case nil:
            return refuse(.illegalCommandCode)
        }
    }

    /// Runs a command, or waits for more frames when it is longer than the first one.
    mutating func execute(_ code: UInt8, _ parameters: [UInt8]) -> (status: UInt8, data: [UInt8]) {
        if let expected = expectedLength(code, parameters), parameters.count < expected {
            pending = .command(code: code, parameters: parameters, expected: expected)
            return (Self.code(.additionalFrame), [])
        }
        return run(code, parameters)
    }

    /// Runs a whole command.
    mutating func run(_ code: UInt8, _ parameters: [UInt8]) -> (status: UInt8, data: [UInt8]) {
        do throws(DESFireRefusal) {
            let reply = try dispatch(code, parameters)
            var frames: [[UInt8]] = []
            var rest = reply.data[...]
            for size in reply.frames {
                frames.append(Array(rest.prefix(size)))
                rest = rest.dropFirst(size)
            }
            let limit = Self.desfire.framing.maxAnswerFrameData / reply.unit * reply.unit
            repeat {
                frames.append(Array(rest.prefix(limit)))
                rest = rest.dropFirst(limit)
            } while !rest.isEmpty
            return send(frames, status: Self.code(reply.status))
        } catch {
            return refuse(error.status)
        }
    }

    /// The first of `frames`, with AF when more follow.
    mutating func send(_ frames: [[UInt8]], status: UInt8) -> (status: UInt8, data: [UInt8]) {
        guard frames.count > 1 else { return (status, frames.first ?? []) }
        pending = .answer(frames: Array(frames.dropFirst()), status: status)
        return (Self.code(.additionalFrame), frames[0])
    }

    /// A refusal: the status alone; the authentication, the pending chain and the pending
    /// transaction end (libfreefare's tests, run on real cards, rely on the last).
    mutating func refuse(_ status: DESFireStatusName) -> (status: UInt8, data: [UInt8]) {
        pending = nil
        session = nil
        transaction = [:]
        return (Self.code(status), [])
    }

    /// The status byte called `name`.
    static func code(_ name: DESFireStatusName) -> UInt8 { desfire.statuses[name].code }

    // MARK: Dispatch

    /// A command's answer before framing: the (sealed) data, its status and how it is cut.
    struct Reply {
        var data: [UInt8]
        var status: DESFireStatusName
        /// Sizes of the first frames when the command fixes them (GetVersion, GetDFNames).
        var frames: [Int] = []
        /// The remaining frames carry whole multiples of this (3 for AIDs).
        var unit = 1
    }

    /// The command's answer, or the refusal it throws.
    mutating func dispatch(_ code: UInt8, _ parameters: [UInt8]) throws(DESFireRefusal) -> Reply {
        guard let name = Self.desfire.command(code: code) else { throw DESFireRefusal(.illegalCommandCode) }
        switch name {
        case .getVersion: return try getVersion(code, parameters)
        case .freeMem: return try freeMem(code, parameters)
        case .getCardUID: return try getCardUID(code, parameters)
        case .setConfiguration: return try setConfiguration(code, parameters)
        case .readSig: return try readSignature(code, parameters)
        case .formatPICC: return try formatPICC(code, parameters)
        case .createApplication: return try createApplication(code, parameters)
        case .deleteApplication: return try deleteApplication(code, parameters)
        case .getApplicationIDs: return try getApplicationIDs(code, parameters)
        case .getDFNames: return try getDFNames(code, parameters)
        case .selectApplication: return try selectApplication(code, parameters)
        case .authenticateLegacy, .authenticateISO, .authenticateAES, .authenticateEV2First,
            .authenticateEV2NonFirst:
            return try startAuthentication(name, parameters)
        case .getKeySettings: return try getKeySettings(code, parameters)
        case .changeKeySettings: return try changeKeySettings(code, parameters)
        case .getKeyVersion: return try getKeyVersion(code, parameters)
        case .changeKey: return try changeKey(code, parameters)
        case .createStdDataFile, .createBackupDataFile, .createValueFile, .createLinearRecordFile,
            .createCyclicRecordFile:
            return try createFile(name, code, parameters)
        case .deleteFile: return try deleteFile(code, parameters)
        case .getFileIDs: return try getFileIDs(code, parameters)
        case .getISOFileIDs: return try getISOFileIDs(code, parameters)
        case .getFileSettings: return try getFileSettings(code, parameters)
        case .changeFileSettings: return try changeFileSettings(code, parameters)
        case .readData: return try readData(code, parameters)
        case .writeData: return try writeData(code, parameters)
        case .getValue: return try getValue(code, parameters)
        case .credit, .debit, .limitedCredit: return try changeValue(name, code, parameters)
        case .writeRecord: return try writeRecord(code, parameters)
        case .readRecords: return try readRecords(code, parameters)
        case .clearRecordFile: return try clearRecordFile(code, parameters)
        case .commitTransaction: return try commitTransaction(code, parameters)
        case .abortTransaction: return try abortTransaction(code, parameters)
        case .additionalFrame: throw DESFireRefusal(.illegalCommandCode)
        }
    }

    // MARK: Selection

    /// The index of the selected application (`nil` at the PICC level).
    var selectedIndex: Int? { selectedAID.flatMap { aid in applications.firstIndex { $0.aid == aid } } }

    /// The selected application, or the PICC level.
    var current: DESFireApplication {
        get { selectedIndex.map { applications[$0] } ?? picc }
        set {
            if let index = selectedIndex { applications[index] = newValue } else { picc = newValue }
        }
    }

    /// Selects `aid` (`nil`: the PICC level): the authentication and the pending transaction end.
    mutating func select(_ aid: [UInt8]?) {
        selectedAID = aid
        session = nil
        transaction = [:]
        isoFile = nil
    }
}

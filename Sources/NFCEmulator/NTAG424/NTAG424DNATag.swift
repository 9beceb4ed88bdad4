import NFCChips
import NTAG424Crypto

/// An emulated NXP NTAG 424 DNA (NT4H2421G0): ISO-DEP, the NDEF application with its CC,
/// NDEF and proprietary files, the native command set with EV2 secure messaging, and
/// Secure Dynamic Messaging mirrored fresh on each read of the NDEF file.
///
/// What the data sheet leaves open is written down, with an id, in the DocC article
/// "What the emulator assumes" (`N424-…`).
///
/// ```swift
/// var tag = NTAG424DNATag(uid: [0x04, 0xE0, 0x5A, 0x11, 0x22, 0x33, 0x44])
/// tag.receive([0x02, 0x90, 0x60, 0x00, 0x00, 0x00])   // GetVersion: 02 04 04 02 30 00 11 05 91 AF
/// ```
public struct NTAG424DNATag: EmulatedTag {
    /// One file of the application.
    public struct File: Equatable, Sendable {
        /// The native file number (1, 2, 3).
        public var number: UInt8
        /// The ISO file ID (E103, E104, E105).
        public var isoID: UInt16
        /// The bytes.
        public var content: [UInt8]
        /// Access and SDM settings.
        public var settings: EmulatedNTAG424FileSettings
    }

    /// The UID the tag was made with (the one GetCardUID returns).
    public let uid: [UInt8]
    /// The files, by number.
    public internal(set) var files: [File]
    /// Keys 0…4.
    public internal(set) var keys: [AES128Key]
    /// The key versions.
    public internal(set) var keyVersions: [UInt8]
    /// SDMReadCtr per file number.
    public internal(set) var readCounters: [UInt8: UInt32] = [:]
    /// Whether SetConfiguration turned on the random ID (from the next activation).
    public internal(set) var usesRandomID = false
    /// Read_Sig's answer.
    public let signature: [UInt8]
    /// UID, ATQA, SAK and ATS for the current activation.
    public private(set) var identity: TagIdentity

    var link = ISODEPLink()
    /// Whether the NDEF application is selected (ISO select by name or file ID E110).
    var applicationSelected = false
    /// The file ISOReadBinary / ISOUpdateBinary address.
    var selectedFile: UInt8?
    /// The authentication, when one succeeded.
    var session: PICCSession?
    /// The key of ``session``.
    var authenticatedKey: UInt8?
    /// A command waiting for its next frame (`91AF` was answered).
    var pending: Pending?
    /// The SDM content of each file for the current read session (one per selection or
    /// activation, N424-2): a phone reading NLEN and then the message sees one URL.
    var dynamicContent: [UInt8: [UInt8]] = [:]
    /// Random bytes: challenges, TI, PICC data padding, random IDs.
    var random: SplitMix64

    /// What a second frame continues.
    enum Pending: Sendable {
        case getVersion(part: Int)
        case authenticate(PICCAuthentication, keyNumber: UInt8)
    }

    /// A factory-fresh tag: all-zero keys of version 00, the factory file settings, an empty
    /// NDEF file, and a Read_Sig answer made by ``EmulatorSigningKey`` unless `signature` is given.
    public init(uid: [UInt8], signature: [UInt8]? = nil, seed: UInt64 = 0x424D_4E41) {
        self.uid = uid
        self.files = NTAG424Facts.files.map {
            File(number: $0.number, isoID: $0.isoID, content: $0.paddedContent, settings: $0.emulatedSettings)
        }
        self.keys = Array(repeating: AES128Key.zero, count: NTAG424Facts.keyCount)
        self.keyVersions = Array(repeating: 0, count: NTAG424Facts.keyCount)
        self.signature = signature ?? EmulatorSigningKey.signNTAG424(uid: uid)
        self.identity = TagIdentity(uid: uid, atqa: NTAG424Facts.atqa, sak: NTAG424Facts.sak, ats: NTAG424Facts.ats)
        self.random = SplitMix64(seed: seed ^ uid.reduce(0) { $0 << 8 | UInt64($1) })
    }

    /// The NDEF file's message (NLEN bytes after NLEN), as stored (without SDM mirrors).
    public var ndefMessage: [UInt8] {
        guard let file = files.first(where: { $0.number == 2 }), file.content.count >= 2 else { return [] }
        let length = Int(file.content[0]) << 8 | Int(file.content[1])
        return Array(file.content[2..<min(file.content.count, 2 + length)])
    }

    /// Answers one frame (CRC_A stripped) while ACTIVE.
    public mutating func receive(_ frame: [UInt8]) -> TagAnswer {
        switch link.receive(frame, ats: identity.ats) {
        case .answer(let answer): return answer
        case .apdu(let apdu): return link.send(respond(to: apdu))
        }
    }

    /// The RF field went off: authentication, selection and the SDM read session end; a
    /// tag with the random ID on draws a new one.
    public mutating func fieldReset() {
        leaveActiveState()
        if usesRandomID {
            var id = [NTAG424Facts.randomIDFirstByte]
            for _ in 0..<3 { id.append(UInt8(truncatingIfNeeded: random.next())) }
            identity = TagIdentity(
                uid: id, atqa: NTAG424Facts.randomIDATQA, sak: NTAG424Facts.sak, ats: NTAG424Facts.ats)
        }
    }

    /// The tag left ACTIVE: as ``fieldReset()`` without a new random ID.
    public mutating func leaveActiveState() {
        link.reset()
        applicationSelected = false
        selectedFile = nil
        session = nil
        authenticatedKey = nil
        pending = nil
        dynamicContent = [:]
    }

    /// Sets key `number` directly, bypassing every rule (test set-up).
    public mutating func setKey(_ number: Int, to key: AES128Key, version: UInt8) {
        keys[number] = key
        keyVersions[number] = version
    }

    /// Replaces the NDEF message directly (test set-up).
    public mutating func setNDEFMessage(_ message: [UInt8]) {
        guard let index = files.firstIndex(where: { $0.number == 2 }) else { return }
        let length = min(message.count, files[index].content.count - 2)
        files[index].content.replaceSubrange(
            0..<(2 + length), with: [UInt8(length >> 8), UInt8(length & 0xFF)] + message.prefix(length))
    }

    // MARK: APDUs

    /// Answers one C-APDU.
    mutating func respond(to bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 4 else { return NTAG424Facts.isoWrongLength }
        switch bytes[0] {
        case NTAG424Facts.nativeCLA: return native(bytes)
        case NTAG424Facts.isoCLA:
            pending = nil
            return iso(bytes)
        default: return NTAG424Facts.isoCLANotSupported
        }
    }

    /// A `91xx` answer.
    func status(_ status: NTAG424Facts.Status, _ data: [UInt8] = []) -> [UInt8] {
        data + [NTAG424Facts.nativeSW1, status.rawValue]
    }

    func file(_ number: UInt8) -> Int? { files.firstIndex { $0.number == number } }
}

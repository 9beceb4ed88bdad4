import NFCChips

/// How a tag identifies itself during ISO/IEC 14443-3A activation.
///
/// ```swift
/// let identity = TagIdentity(uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66], atqa: 0x0044, sak: 0x00)
/// ```
public struct TagIdentity: Equatable, Sendable {
    /// The UID (4, 7 or 10 bytes) in transmission order.
    public var uid: [UInt8]
    /// ATQA (SENS_RES) as a 16-bit value; on air it goes least significant byte first.
    public var atqa: UInt16
    /// The final SAK (SEL_RES).
    public var sak: UInt8
    /// The ATS with its length byte TL first, for ISO-DEP tags; `nil` otherwise.
    public var ats: [UInt8]?
    /// For a FeliCa card, what answers Polling; such a card takes no part in type A
    /// activation (its ``uid`` is its IDm).
    public var felica: FeliCaIdentity?
    /// For an ISO/IEC 14443 Type B card, what answers REQB and ATTRIB; such a card takes no
    /// part in type A activation (its ``uid`` is its PUPI).
    public var typeB: TypeBIdentity?
    /// For an NFC Forum Type 1 tag (Topaz), its header ROM and UID; such a tag answers
    /// REQA but takes no anticollision (its ``uid`` is its JEWELID, UID0-3).
    public var type1: Type1Identity?
    /// An ST25TB or SRx card: no REQA or REQB, only ST's Initiate.
    public var st25tb: ST25TBIdentity?

    /// An identity with the given values.
    public init(uid: [UInt8], atqa: UInt16, sak: UInt8, ats: [UInt8]? = nil) {
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.ats = ats
    }

    /// A FeliCa card's identity: IDm as its UID, no ATQA or SAK.
    public init(felica: FeliCaIdentity) {
        self.init(uid: felica.idm, atqa: 0, sak: 0)
        self.felica = felica
    }

    /// A type B card's identity: PUPI as its UID, no ATQA or SAK.
    public init(typeB: TypeBIdentity) {
        self.init(uid: ChipTables.iso14443b.pupi(atqb: typeB.atqb), atqa: 0, sak: 0)
        self.typeB = typeB
    }

    /// A Type 1 tag's identity: its JEWELID as UID, the table's SENS_RES as ATQA.
    public init(type1: Type1Identity) {
        let sensRes = ChipTables.type1.sensRes
        self.init(
            uid: Array(type1.uid.prefix(ChipTables.type1.jewelIDLength)),
            atqa: UInt16(sensRes[0]) << 8 | UInt16(sensRes[1]), sak: 0)
        self.type1 = type1
    }

    /// Whether the card answers ISO/IEC 14443-3A activation (REQA, WUPA).
    /// An ST25TB card: its UID, as Get_UID sends it.
    public init(st25tb: ST25TBIdentity) {
        self.init(uid: st25tb.uid, atqa: 0, sak: 0)
        self.st25tb = st25tb
    }

    var answersTypeA: Bool { felica == nil && typeB == nil && type1 == nil && st25tb == nil }
}

/// What an ISO/IEC 14443 Type B card answers to REQB (its ATQB: PUPI, application data,
/// protocol info) and to ATTRIB.
public struct TypeBIdentity: Equatable, Sendable {
    /// The 12-byte ATQB.
    public var atqb: [UInt8]
    /// The answer to ATTRIB before the CID (its high nibble, MBLI).
    public var attribResponse: [UInt8]

    /// An identity with the given values.
    public init(atqb: [UInt8], attribResponse: [UInt8]) {
        self.atqb = atqb
        self.attribResponse = attribResponse
    }
}

/// What a FeliCa card answers to Polling (JIS X 6319-4): IDm, PMm and its system codes.
public struct FeliCaIdentity: Equatable, Sendable {
    /// The manufacture ID (8 bytes).
    public var idm: [UInt8]
    /// The manufacture parameter (8 bytes; byte 1 is the IC code).
    public var pmm: [UInt8]
    /// The system codes, the primary one first (a Lite-S: 88B4, and 12FC with NDEF on).
    public var systemCodes: [UInt16]
    /// The bit rates it answers at, in kbit/s.
    public var bitRates: [Int]
    /// Whether each system code is a system of its own, with its own IDm (a FeliCa
    /// Standard: the system's number in the high nibble of IDm's first byte), rather than
    /// another code for the one system (a Lite-S's 12FC).
    public var separateSystems = false

    /// An identity with the given values.
    public init(idm: [UInt8], pmm: [UInt8], systemCodes: [UInt16], bitRates: [Int] = [212, 424]) {
        self.idm = idm
        self.pmm = pmm
        self.systemCodes = systemCodes
        self.bitRates = bitRates
    }

    /// The IDm the card answers with for the system `code` answers.
    public func idm(forSystem code: UInt16) -> [UInt8] {
        guard separateSystems, let number = systemCodes.firstIndex(of: code), !idm.isEmpty else { return idm }
        var idm = idm
        idm[0] = idm[0] & 0x0F | UInt8(number & 0x0F) << 4
        return idm
    }

    /// The system code that answers a Polling for `requested` (`FF` in a byte matches any
    /// value there), or nil.
    public func systemCode(answering requested: UInt16) -> UInt16? {
        systemCodes.first { code in
            let high = requested >> 8 == 0xFF || requested >> 8 == code >> 8
            let low = requested & 0xFF == 0xFF || requested & 0xFF == code & 0xFF
            return high && low
        }
    }
}

/// A tag model that can sit in the emulated reader's ``Field``.
///
/// The ``Field`` and the PN532 carry out ISO/IEC 14443-3A activation (REQA, WUPA,
/// anticollision, SELECT, HLTA) from ``identity``; the model sees only the frames sent
/// once it is ACTIVE, without CRC_A, and answers each with a ``TagAnswer``.
///
/// ```swift
/// struct EchoTag: EmulatedTag {
///     var identity = TagIdentity(uid: [1, 2, 3, 4], atqa: 0x0004, sak: 0x08)
///     mutating func receive(_ frame: [UInt8]) -> TagAnswer { .bytes(frame) }
///     mutating func fieldReset() {}
///     mutating func leaveActiveState() {}
/// }
/// ```
public protocol EmulatedTag: Sendable {
    /// UID, ATQA, SAK and ATS used for activation.
    var identity: TagIdentity { get }
    /// Answers one frame (CRC_A already checked and stripped) sent while the tag is ACTIVE.
    mutating func receive(_ frame: [UInt8]) -> TagAnswer
    /// The RF field went off: volatile state (authentication, per-field counters) is lost.
    mutating func fieldReset()
    /// The tag left ACTIVE (HLTA, a NAK, an unexpected frame, a new selection of another
    /// tag): authentication and half-done commands are forgotten; memory is kept.
    mutating func leaveActiveState()
    /// MIFARE Classic authentication as a PN532 carries it out for InDataExchange
    /// `60/61 block key uid`: the chip runs the three-pass Crypto1 exchange on air and
    /// reports only success or failure. Returns whether the tag accepted the key; a tag
    /// that is not a MIFARE Classic never does (the default).
    mutating func authenticate(_ request: ClassicAuthentication) -> Bool
    /// The EEPROM cycle `frame` starts if the tag carries it out now: a page or block write
    /// the tag accepts (a Type 2 WRITE or the second COMPATIBILITY_WRITE frame, the data
    /// frame of a Classic WRITE). `nil` for any other frame, and for tags that model no
    /// EEPROM cycle (the default).
    func eepromWrite(for frame: [UInt8]) -> EEPROMWrite?
    /// The cycle of `write` stopped part way: its page or block now holds `bytes`, and the
    /// command is over without an answer. Does nothing by default.
    mutating func interruptWrite(_ write: EEPROMWrite, leaving bytes: [UInt8])
}

extension EmulatedTag {
    /// Not a MIFARE Classic: the Crypto1 exchange fails.
    public mutating func authenticate(_ request: ClassicAuthentication) -> Bool { false }

    /// No EEPROM cycle is modelled.
    public func eepromWrite(for frame: [UInt8]) -> EEPROMWrite? { nil }

    /// No EEPROM cycle is modelled.
    public mutating func interruptWrite(_ write: EEPROMWrite, leaving bytes: [UInt8]) {}
}

/// What the reader supplies for a MIFARE Classic authentication (InDataExchange
/// `60/61 block key6 uid4`).
///
/// ```swift
/// let request = ClassicAuthentication(keyType: .a, block: 4, key: [UInt8](repeating: 0xFF, count: 6),
///                                     uid: [0x11, 0x22, 0x33, 0x44])
/// ```
public struct ClassicAuthentication: Equatable, Sendable {
    /// Key A (`60`) or key B (`61`).
    public var keyType: ClassicKeyType
    /// A block of the sector to open.
    public var block: Int
    /// The 6-byte key.
    public var key: [UInt8]
    /// The last 4 bytes of the UID, which seed Crypto1.
    public var uid: [UInt8]

    /// A request with the given values.
    public init(keyType: ClassicKeyType, block: Int, key: [UInt8], uid: [UInt8]) {
        self.keyType = keyType
        self.block = block
        self.key = key
        self.uid = uid
    }
}

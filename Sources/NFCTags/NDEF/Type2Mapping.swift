import NFCChips

/// The NFC Forum Type 2 Tag mapping rules the driver follows — CC fields, TLV types and
/// length encoding, the static lock layout — gathered from `ChipTables.type2`.
struct Type2Mapping: Sendable, Equatable {
    /// CC0 of an NDEF-formatted tag (`E1`).
    var magic: UInt8
    /// The mapping major version readers accept (1).
    var supportedMajorVersion: UInt8
    /// CC2 counts the data area in units of this many bytes (8).
    var dataAreaUnitBytes: Int
    /// The CC3 write-access nibble meaning "no write access" (`F`).
    var writeAccessNone: UInt8
    /// The byte where the data area (and the TLV area) starts (16 = page 4).
    var dataAreaStartByte: Int
    /// TLV type codes.
    var nullTLV: UInt8
    var lockControlTLV: UInt8
    var memoryControlTLV: UInt8
    var ndefTLV: UInt8
    var terminatorTLV: UInt8
    /// The value length of Lock and Memory Control TLVs (3): the Lock Control TLV's fixed length.
    var controlTLVLength: Int?
    /// The first byte of a 3-byte length field (`FF`).
    var threeByteLengthMarker: UInt8
    /// The largest length in the 1-byte form (254).
    var shortLengthMaximum: Int
    /// The largest length in the 3-byte form (65534).
    var longLengthMaximum: Int
    /// The static lock value that locks and freezes every page it covers.
    var staticLockAllValue: [UInt8]
    /// The CC layout (byte indices, access nibbles).
    var capabilityContainer: Type2CapabilityContainer
    /// The static lock bits (which bit locks which page).
    var staticLock: StaticLockLayout
    /// A CC for a data area of a given size (read / write).
    var formattedCapabilityContainer: @Sendable (Int) -> [UInt8]

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.magic == rhs.magic && lhs.dataAreaStartByte == rhs.dataAreaStartByte && lhs.ndefTLV == rhs.ndefTLV
    }

    /// The mapping as the tables give it.
    static let standard: Type2Mapping = {
        let spec = ChipTables.type2
        let cc = spec.capabilityContainer
        return Type2Mapping(
            magic: cc.magic, supportedMajorVersion: UInt8(cc.supportedMajorVersion),
            dataAreaUnitBytes: cc.dataAreaUnitBytes, writeAccessNone: cc.writeAccessNone,
            dataAreaStartByte: spec.dataAreaStartByte,
            nullTLV: spec.tlvs[.null].type, lockControlTLV: spec.tlvs[.lockControl].type,
            memoryControlTLV: spec.tlvs[.memoryControl].type, ndefTLV: spec.tlvs[.ndef].type,
            terminatorTLV: spec.tlvs[.terminator].type, controlTLVLength: spec.tlvs[.lockControl].fixedLength,
            threeByteLengthMarker: spec.tlvLength.threeByteMarker,
            shortLengthMaximum: spec.tlvLength.shortMaximum, longLengthMaximum: spec.tlvLength.longMaximum,
            staticLockAllValue: spec.staticLock.lockAllValue,
            capabilityContainer: cc, staticLock: spec.staticLock,
            formattedCapabilityContainer: { cc.formatted(dataAreaBytes: $0) }
        )
    }()

    /// Bytes of an NDEF TLV before its value: the type byte and a 1-byte (short form) or
    /// 3-byte length field.
    func tlvHeaderLength(shortForm: Bool) -> Int {
        1 + lengthField(shortForm ? shortLengthMaximum : longLengthMaximum).count
    }

    /// Encodes an NDEF TLV length field (1 byte up to 254, else `FF` + 2 bytes big-endian).
    func lengthField(_ length: Int) -> [UInt8] {
        if length <= shortLengthMaximum { return [UInt8(length)] }
        return [threeByteLengthMarker, UInt8(length >> 8), UInt8(length & 0xFF)]
    }
}

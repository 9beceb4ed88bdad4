/// The NFC Forum Type 2 Tag mapping: capability container, TLVs, ACK / NAK codes.
///
/// ```swift
/// let t2 = ChipTables.type2
/// t2.capabilityContainer.magic     // 0xE1
/// t2.tlvs[.ndef].type             // 0x03
/// t2.emptyNDEF                     // [03 00 FE]
/// t2.lockControlArea(value: [0xA0, 0x0C, 0x34]) // byte 160, 12 bits, 8 bytes per bit
/// ```
package struct Type2Spec: DatasheetValue {
    /// Where it comes from.
    package var source: DatasheetSource
    /// The CC layout and values.
    package var capabilityContainer: Type2CapabilityContainer
    /// The byte where the TLV area starts (16 = page 4).
    package var dataAreaStartByte: Int
    /// The TLV types.
    package var tlvs: NamedTable<TLVSpec>
    /// How TLV lengths are encoded.
    package var tlvLength: TLVLengthSpec
    /// The layout of Lock / Memory Control TLV values, in words.
    package var controlTLVLayout: String
    /// An empty NDEF TLV followed by a terminator (`03 00 FE`).
    @Hex package var emptyNDEF: [UInt8]
    /// Where dynamic lock bits are when no Lock Control TLV says so.
    package var defaultDynamicLock: DefaultDynamicLockRule
    /// ACK and NAK codes of the Type 2 / NXP family.
    package var acknowledgements: NamedTable<AcknowledgementSpec<Type2AcknowledgementName>>
    /// Where the ACK / NAK codes come from.
    package var acknowledgementSource: DatasheetSource
    /// The static lock bits (page 2, bytes 2–3), the same on NTAG21x and the Ultralight family.
    package var staticLock: StaticLockLayout

    /// The TLV type with type byte `type`.
    package func tlv(type: UInt8) -> TLVSpec? { tlvs.first { $0.type == type } }
    /// The ACK / NAK with 4-bit code `code`.
    package func acknowledgement(code: UInt8) -> AcknowledgementSpec<Type2AcknowledgementName>? {
        acknowledgements.first { $0.code == code }
    }

    /// Decodes a Lock or Memory Control TLV value (3 bytes): where the area is and how big.
    /// Returns `nil` when the value is not 3 bytes long.
    package func lockControlArea(value: [UInt8]) -> ControlTLVArea? {
        guard value.count == 3 else { return nil }
        let pageAddress = Int(value[0] >> 4)
        let byteOffset = Int(value[0] & 0x0F)
        let size = value[1] == 0 ? 256 : Int(value[1])
        let bytesPerLockBit = 1 << Int(value[2] >> 4)
        let bytesPerPage = 1 << Int(value[2] & 0x0F)
        return ControlTLVArea(
            byteAddress: pageAddress * bytesPerPage + byteOffset, size: size,
            bytesLockedPerBit: bytesPerLockBit, bytesPerPage: bytesPerPage)
    }
}

/// A decoded Lock / Memory Control TLV value.
package struct ControlTLVArea: Equatable, Sendable {
    /// The first byte of the area, counted from the start of memory.
    package var byteAddress: Int
    /// Lock bits (Lock Control) or reserved bytes (Memory Control).
    package var size: Int
    /// Bytes locked by one lock bit (Lock Control).
    package var bytesLockedPerBit: Int
    /// Bytes per page the TLV assumes.
    package var bytesPerPage: Int
}

/// The Type 2 capability container (page 3).
package struct Type2CapabilityContainer: Codable, Equatable, Sendable {
    /// CC0: `E1` = NDEF present.
    @Hex package var magic: UInt8
    /// Index of the magic byte.
    package var magicByte: Int
    /// Index of the version byte.
    package var versionByte: Int
    /// Index of the data-area-size byte.
    package var sizeByte: Int
    /// Index of the access byte.
    package var accessByte: Int
    /// The mapping version written by formatters (`10` = 1.0).
    @Hex package var version: UInt8
    /// The major version a reader accepts.
    package var supportedMajorVersion: Int
    /// CC2 counts the data area in units of this many bytes (8).
    package var dataAreaUnitBytes: Int
    /// Read nibble: free.
    @Hex package var readAccessGranted: UInt8
    /// Write nibble: free.
    @Hex package var writeAccessGranted: UInt8
    /// Write nibble: no write (read-only).
    @Hex package var writeAccessNone: UInt8
    /// Nibble `8`: proprietary (password) access, as nfcpy writes.
    @Hex package var proprietaryAccess: UInt8
    /// The access byte of a read-only tag (`0F`).
    @Hex package var readOnlyAccessByte: UInt8

    /// The mapping major version of `cc` (CC1 high nibble), or `nil` when `cc` is too short.
    package func majorVersion(of cc: [UInt8]) -> Int? {
        cc.indices.contains(versionByte) ? Int(cc[versionByte] >> 4) : nil
    }

    /// The read-access nibble of `cc` (CC3 high nibble), or `nil` when `cc` is too short.
    package func readAccess(of cc: [UInt8]) -> UInt8? {
        cc.indices.contains(accessByte) ? cc[accessByte] >> 4 : nil
    }

    /// The write-access nibble of `cc` (CC3 low nibble), or `nil` when `cc` is too short.
    package func writeAccess(of cc: [UInt8]) -> UInt8? {
        cc.indices.contains(accessByte) ? cc[accessByte] & 0x0F : nil
    }

    /// A CC for a data area of `dataAreaBytes`, read / write.
    package func formatted(dataAreaBytes: Int) -> [UInt8] {
        [
            magic, version, UInt8(clamping: dataAreaBytes / dataAreaUnitBytes),
            (readAccessGranted << 4) | writeAccessGranted,
        ]
    }
}

/// The names of Type 2 TLV types.
package enum TLVName: String, TableName {
    /// `00`: padding, no length.
    case null = "NULL"
    /// `01`: Lock Control.
    case lockControl = "LockControl"
    /// `02`: Memory Control.
    case memoryControl = "MemoryControl"
    /// `03`: NDEF message.
    case ndef = "NDEF"
    /// `FD`: proprietary.
    case proprietary = "Proprietary"
    /// `FE`: terminator, no length.
    case terminator = "Terminator"
}

/// One TLV type.
package struct TLVSpec: NamedEntry {
    /// Its name.
    package var name: TLVName
    /// The type byte.
    @Hex package var type: UInt8
    /// Whether it has a length field and which kind.
    package var lengthField: TLVLengthField
    /// The length a fixed-length TLV must have.
    package var fixedLength: Int?
    /// What it holds.
    package var meaning: String
}

/// Length-field kinds of TLVs.
package enum TLVLengthField: String, Codable, CaseIterable, Sendable {
    /// No length byte (NULL, Terminator).
    case none
    /// A length byte with a fixed value.
    case fixed
    /// One byte 0–254 or `FF` + 2 bytes big-endian.
    case variable
}

/// TLV length encoding.
package struct TLVLengthSpec: Codable, Equatable, Sendable {
    /// The byte announcing a 3-byte length (`FF`).
    @Hex package var threeByteMarker: UInt8
    /// Longest length in one byte (254).
    package var shortMaximum: Int
    /// Longest length in three bytes (65534).
    package var longMaximum: Int

    /// The length field for `length`, or `nil` past ``longMaximum``.
    package func encode(_ length: Int) -> [UInt8]? {
        guard length >= 0, length <= longMaximum else { return nil }
        if length <= shortMaximum { return [UInt8(length)] }
        return [threeByteMarker, UInt8(length >> 8), UInt8(length & 0xFF)]
    }
}

/// The default dynamic-lock rule of the Type 2 mapping.
package struct DefaultDynamicLockRule: Codable, Equatable, Sendable {
    /// The rule applies when CC2 is above this value.
    @Hex package var appliesAboveSizeByte: UInt8
    /// Bytes locked by one default lock bit.
    package var bytesLockedPerBit: Int
    /// The rule in words.
    package var rule: String
    /// Why it is uncertain.
    package var caveat: DatasheetCaveat?
}

/// The ACK and NAK codes of the Type 2 / NXP family; the raw values are the names in
/// `datasheets/type2.json`.
package enum Type2AcknowledgementName: String, TableName {
    /// `A`: ACK, command done.
    case ack
    /// `0`: invalid argument (bad page address); emulators also use it for access denied.
    case invalidArgument
    /// `1`: parity or CRC error.
    case parityOrCRCError
    /// `4`: authentication counter overflow (AUTHLIM reached).
    case authenticationLimitReached
    /// `5`: EEPROM write error.
    case eepromWriteError
}

/// A 4-bit ACK or NAK code of a table whose codes `Name` names (Type 2 or MIFARE Classic).
package struct AcknowledgementSpec<Name: TableName>: NamedEntry {
    /// The 4-bit code.
    @Hex package var code: UInt8
    /// A camelCase name.
    package var name: Name
    /// What it means.
    package var meaning: String
    /// `true` for ACK.
    package var isACK: Bool
    /// Present when the code is less certain than the table.
    package var caveat: DatasheetCaveat?
}

/// The static lock bytes of the Type 2 family (NTAG21x §8.5.2, MF0ICU2 §7.5.2), counted as
/// one 16-bit value: lock byte 0 (page 2 byte 2) is bits 0–7, lock byte 1 bits 8–15.
///
/// ```swift
/// let layout = ChipTables.type2.staticLock
/// layout.lockBit(forPage: 3)          // 3 (L-CC)
/// layout.blockLockBit(forPage: 7)     // 1 (BL 9-4)
/// ```
package struct StaticLockLayout: Codable, Equatable, Sendable {
    /// The bit that locks ``firstLockedPage``; each following page has the next bit.
    package var firstPageLockBit: Int
    /// The first page a static lock bit covers (the CC page).
    @Hex package var firstLockedPage: Int
    /// The last page a static lock bit covers.
    @Hex package var lastLockedPage: Int
    /// The block-lock bits that freeze page-lock bits.
    package var blockLockBits: [StaticBlockLockBit]
    /// The two lock bytes that set every page-lock and block-lock bit (`FF FF`): the
    /// static half of making a tag read-only.
    @Hex package var lockAllValue: [UInt8]
    /// Where it comes from.
    package var source: DatasheetSource

    /// The bit (0–15) that makes `page` read-only, or `nil` outside the static range.
    package func lockBit(forPage page: Int) -> Int? {
        guard page >= firstLockedPage, page <= lastLockedPage else { return nil }
        return firstPageLockBit + page - firstLockedPage
    }

    /// The block-lock bit that freezes the lock bit of `page`, or `nil`.
    package func blockLockBit(forPage page: Int) -> Int? {
        blockLockBits.first { page >= $0.firstPage && page <= $0.lastPage }?.bit
    }
}

/// One block-lock bit of the static lock bytes.
package struct StaticBlockLockBit: Codable, Equatable, Sendable {
    /// The datasheet name, e.g. `BL 9-4`.
    package var name: String
    /// The bit (0–15) in the 16-bit static lock value.
    package var bit: Int
    /// The first page whose lock bit it freezes.
    @Hex package var firstPage: Int
    /// The last page whose lock bit it freezes.
    @Hex package var lastPage: Int
}

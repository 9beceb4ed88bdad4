/// MIFARE Classic family facts: block layouts, access conditions, keys, trailers, MAD.
///
/// ```swift
/// let classic = ChipTables.classic
/// classic.keys[.nfcKeyA].key                            // D3 F7 D3 F7 D3 F7
/// classic.trailer[.accessBits].offset                    // 6
/// classic.dataBlockCondition(for: .init(c1: true, c2: false, c3: false))?.write // .keyB
/// classic.mad.nfcAID                                     // [0x03, 0xE1]
/// ```
public struct ClassicSpec: Codable, Equatable, Sendable {
    /// Where it comes from.
    public var source: DatasheetSource
    /// Bytes per block.
    public var blockSize: Int
    /// Block 0 fields.
    public var manufacturerBlock: NamedTable<ByteRangeField<ClassicManufacturerFieldName>>
    /// Sector trailer fields.
    public var trailer: NamedTable<ByteRangeField<ClassicTrailerFieldName>>
    /// The access-bit byte layout in words (decoded by ``AccessConditions``).
    public var accessBitLayout: String
    /// Which blocks of a 16-block sector share an access-bit group.
    public var largeSectorAccessGroups: [ClassicAccessGroup]
    /// Data-block access conditions (MF1S50 Table 8).
    public var dataBlockConditions: [DataBlockCondition]
    /// Sector-trailer access conditions (MF1S50 Table 7).
    public var trailerConditions: [TrailerCondition]
    /// Default and well-known keys.
    public var keys: NamedTable<ClassicKey>
    /// The trailer as shipped: `FF×6 FF 07 80 69 FF×6`.
    @Hex public var factoryTrailer: [UInt8]
    /// The value-block layout in words.
    public var valueBlock: String
    /// Why the value-block signedness is uncertain.
    public var valueBlockCaveat: DatasheetCaveat?
    /// The value-block layout as offsets.
    public var valueBlockLayout: ClassicValueBlockLayout
    /// The 4-bit ACK / NAK codes of a Classic card.
    public var acknowledgements: NamedTable<AcknowledgementSpec<ClassicAcknowledgementName>>
    /// Trailer of a read/write NFC (NDEF) sector.
    public var nfcSectorTrailer: ClassicTrailerTemplate
    /// Trailer of a read-only NFC sector.
    public var nfcSectorReadOnlyTrailer: ClassicTrailerTemplate
    /// The NFC-sector GPB bit layout in words.
    public var nfcSectorGPBLayout: String
    /// Why the NFC-sector GPB layout is uncertain.
    public var nfcSectorGPBCaveat: DatasheetCaveat?
    /// The NFC-sector GPB bit fields as masks.
    public var nfcSectorGPBFields: NFCSectorGPBFields
    /// The MIFARE Application Directory.
    public var mad: MADSpec

    /// The data-block rights for `bits`.
    public func dataBlockCondition(for bits: AccessBits) -> DataBlockCondition? {
        dataBlockConditions.first { $0.bits == bits.code }
    }
    /// The trailer rights for `bits`.
    public func trailerCondition(for bits: AccessBits) -> TrailerCondition? {
        trailerConditions.first { $0.bits == bits.code }
    }
    /// The access-bit group (0–3) of block `index` inside a sector of `blocksInSector` blocks.
    public func accessGroup(blockIndex index: Int, blocksInSector: Int) -> Int? {
        if blocksInSector == 4 { return (0..<4).contains(index) ? index : nil }
        return largeSectorAccessGroups.first { index >= $0.firstBlock && index <= $0.lastBlock }?.group
    }
}

/// The fields of a MIFARE Classic block 0; the raw values are the names in
/// `datasheets/mifare-classic.json`.
public enum ClassicManufacturerFieldName: String, TableName {
    /// The 4-byte UID.
    case uid = "UID"
    /// The BCC of the UID.
    case bcc = "BCC"
    /// The SAK.
    case sak = "SAK"
    /// The ATQA.
    case atqa = "ATQA"
    /// The manufacturer data.
    case manufacturerData
}

/// The fields of a MIFARE Classic sector trailer; the raw values are the names in
/// `datasheets/mifare-classic.json`.
public enum ClassicTrailerFieldName: String, TableName {
    /// Key A (never readable).
    case keyA
    /// The three access-bit bytes.
    case accessBits
    /// The general-purpose byte (GPB).
    case generalPurposeByte
    /// Key B (readable under some access conditions).
    case keyB
}

/// The well-known MIFARE Classic keys; the raw values are the names in
/// `datasheets/mifare-classic.json`.
public enum ClassicKeyName: String, TableName {
    /// The transport key, key A and B of a blank card.
    case factoryDefault
    /// The public key A of MAD sectors.
    case madKeyA
    /// The public key A of NFC Forum (NDEF) sectors.
    case nfcKeyA
    /// A MAD key B in common use.
    case madKeyBExample
    /// A MAD key B seen in the field.
    case madKeyBExample2
}

/// The ACK and NAK codes of a MIFARE Classic card; the raw values are the names in
/// `datasheets/mifare-classic.json`.
public enum ClassicAcknowledgementName: String, TableName {
    /// `A`: ACK, command accepted.
    case ack
    /// `4`: operation not allowed (access conditions, bad address, not a value block).
    case notAllowed
    /// `5`: transmission or EEPROM error.
    case transmissionError
}

/// A named run of bytes inside a block; `Name` names the block's fields.
public struct ByteRangeField<Name: TableName>: NamedEntry {
    /// Its name.
    public var name: Name
    /// The first byte.
    public var offset: Int
    /// The number of bytes.
    public var length: Int

    /// The field's bytes in `block`, or `nil` when `block` is too short.
    public func bytes(in block: [UInt8]) -> [UInt8]? {
        guard offset >= 0, length >= 0, offset + length <= block.count else { return nil }
        return Array(block[offset..<(offset + length)])
    }
}

/// Blocks of a 16-block sector that share access bits.
public struct ClassicAccessGroup: Codable, Equatable, Sendable {
    /// The group (0–2 data, 3 trailer).
    public var group: Int
    /// The first block index inside the sector.
    public var firstBlock: Int
    /// The last block index inside the sector.
    public var lastBlock: Int
}

/// Which key may do something.
public enum ClassicKeyRight: String, Codable, CaseIterable, Sendable {
    /// Nobody.
    case never
    /// Key A only.
    case keyA = "A"
    /// Key B only.
    case keyB = "B"
    /// Key A or key B.
    case keyAOrB = "A|B"

    /// Whether authenticating with `key` grants the right.
    public func allows(_ key: ClassicKeyType) -> Bool {
        switch self {
        case .never: false
        case .keyA: key == .a
        case .keyB: key == .b
        case .keyAOrB: true
        }
    }
}

/// Key A or key B.
public enum ClassicKeyType: String, Codable, CaseIterable, Sendable {
    /// Key A (AUTH `60`).
    case a
    /// Key B (AUTH `61`).
    case b
}

/// Data-block rights for one C1C2C3 value.
public struct DataBlockCondition: Codable, Equatable, Sendable {
    /// `C1C2C3` as text, e.g. `100`.
    public var bits: String
    /// Who may read.
    public var read: ClassicKeyRight
    /// Who may write.
    public var write: ClassicKeyRight
    /// Who may increment.
    public var increment: ClassicKeyRight
    /// Who may decrement, transfer and restore.
    public var decrementTransferRestore: ClassicKeyRight
    /// What the setting is used for.
    public var use: String
}

/// Sector-trailer rights for one C1C2C3 value.
public struct TrailerCondition: Codable, Equatable, Sendable {
    /// `C1C2C3` as text.
    public var bits: String
    /// Who may read key A (nobody).
    public var keyARead: ClassicKeyRight
    /// Who may write key A.
    public var keyAWrite: ClassicKeyRight
    /// Who may read the access bits.
    public var accessBitsRead: ClassicKeyRight
    /// Who may write the access bits.
    public var accessBitsWrite: ClassicKeyRight
    /// Who may read key B.
    public var keyBRead: ClassicKeyRight
    /// Who may write key B.
    public var keyBWrite: ClassicKeyRight
    /// Key B is readable, so it cannot be used to authenticate.
    public var keyBReadable: Bool
}

/// A well-known key.
public struct ClassicKey: NamedEntry {
    /// Its name.
    public var name: ClassicKeyName
    /// The 6 key bytes.
    @Hex public var key: [UInt8]
    /// Where it is used.
    public var meaning: String
    /// Present when the key is less established.
    public var caveat: DatasheetCaveat?
}

/// A recommended sector trailer (key B left to the user).
public struct ClassicTrailerTemplate: Codable, Equatable, Sendable {
    /// Key A.
    @Hex public var keyA: [UInt8]
    /// The three access-bit bytes.
    @Hex public var accessBits: [UInt8]
    /// The general-purpose byte.
    @Hex public var generalPurposeByte: UInt8
    /// What it sets up.
    public var meaning: String
    /// Present when the template is less certain than the table.
    public var caveat: DatasheetCaveat?

    /// The 16-byte trailer block with `keyB`.
    public func block(keyB: [UInt8]) -> [UInt8] { keyA + accessBits + [generalPurposeByte] + keyB }
}

/// Where a Classic value block keeps its value and address, and their inverted copies.
///
/// ```swift
/// let layout = ChipTables.classic.valueBlockLayout
/// layout.valueOffsets           // [0, 8]  (little-endian, valueLength bytes each)
/// layout.invertedValueOffset    // 4
/// ```
public struct ClassicValueBlockLayout: Codable, Equatable, Sendable {
    /// Bytes of the value (4, little-endian, two's complement).
    public var valueLength: Int
    /// Offsets of the two plain copies of the value.
    public var valueOffsets: [Int]
    /// Offset of the inverted copy of the value.
    public var invertedValueOffset: Int
    /// Offsets of the plain copies of the address byte.
    public var addressOffsets: [Int]
    /// Offsets of the inverted copies of the address byte.
    public var invertedAddressOffsets: [Int]
}

/// The fields of an NFC sector's general-purpose byte (AN1304) as masks.
///
/// ```swift
/// let gpb = ChipTables.classic.nfcSectorGPBFields
/// 0x43 & gpb.writeAccessMask != 0   // true: writes not granted (read-only sector)
/// ```
public struct NFCSectorGPBFields: Codable, Equatable, Sendable {
    /// Bits 7–6: the mapping major version.
    @Hex public var majorVersionMask: UInt8
    /// Bits 5–4: the mapping minor version.
    @Hex public var minorVersionMask: UInt8
    /// Bits 3–2: read access, `00` = granted.
    @Hex public var readAccessMask: UInt8
    /// Bits 1–0: write access, `00` = granted.
    @Hex public var writeAccessMask: UInt8
}

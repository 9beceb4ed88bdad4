/// MIFARE Classic family facts: block layouts, access conditions, keys, trailers, MAD.
///
/// ```swift
/// let classic = ChipTables.classic
/// classic.keys[.nfcKeyA].key                            // D3 F7 D3 F7 D3 F7
/// classic.trailer[.accessBits].offset                    // 6
/// classic.dataBlockCondition(for: .init(c1: true, c2: false, c3: false))?.write // .keyB
/// classic.mad.nfcAID                                     // [0x03, 0xE1]
/// ```
package struct ClassicSpec: Codable, Equatable, Sendable {
    /// Where it comes from.
    package var source: DatasheetSource
    /// Bytes per block.
    package var blockSize: Int
    /// Block 0 fields.
    package var manufacturerBlock: NamedTable<ByteRangeField<ClassicManufacturerFieldName>>
    /// Sector trailer fields.
    package var trailer: NamedTable<ByteRangeField<ClassicTrailerFieldName>>
    /// The access-bit byte layout in words (decoded by ``AccessConditions``).
    package var accessBitLayout: String
    /// Which blocks of a 16-block sector share an access-bit group.
    package var largeSectorAccessGroups: [ClassicAccessGroup]
    /// Data-block access conditions (MF1S50 Table 8).
    package var dataBlockConditions: [DataBlockCondition]
    /// Sector-trailer access conditions (MF1S50 Table 7).
    package var trailerConditions: [TrailerCondition]
    /// Default and well-known keys.
    package var keys: NamedTable<ClassicKeySpec>
    /// The trailer as shipped: `FF×6 FF 07 80 69 FF×6`.
    @Hex package var factoryTrailer: [UInt8]
    /// The value-block layout in words.
    package var valueBlock: String
    /// Why the value-block signedness is uncertain.
    package var valueBlockCaveat: DatasheetCaveat?
    /// The value-block layout as offsets.
    package var valueBlockLayout: ClassicValueBlockLayout
    /// The 4-bit ACK / NAK codes of a Classic card.
    package var acknowledgements: NamedTable<AcknowledgementSpec<ClassicAcknowledgementName>>
    /// Trailer of a read/write NFC (NDEF) sector.
    package var nfcSectorTrailer: ClassicTrailerTemplate
    /// Trailer of a read-only NFC sector.
    package var nfcSectorReadOnlyTrailer: ClassicTrailerTemplate
    /// The NFC-sector GPB bit layout in words.
    package var nfcSectorGPBLayout: String
    /// Why the NFC-sector GPB layout is uncertain.
    package var nfcSectorGPBCaveat: DatasheetCaveat?
    /// The NFC-sector GPB bit fields as masks.
    package var nfcSectorGPBFields: NFCSectorGPBFields
    /// The MIFARE Application Directory.
    package var mad: MADSpec

    /// The data-block rights for `bits`.
    package func dataBlockCondition(for bits: AccessBits) -> DataBlockCondition? {
        dataBlockConditions.first { $0.bits == bits.code }
    }
    /// The trailer rights for `bits`.
    package func trailerCondition(for bits: AccessBits) -> TrailerCondition? {
        trailerConditions.first { $0.bits == bits.code }
    }
    /// The access-bit group (0–3) of block `index` inside a sector of `blocksInSector` blocks.
    package func accessGroup(blockIndex index: Int, blocksInSector: Int) -> Int? {
        if blocksInSector == 4 { return (0..<4).contains(index) ? index : nil }
        return largeSectorAccessGroups.first { index >= $0.firstBlock && index <= $0.lastBlock }?.group
    }
}

/// The fields of a MIFARE Classic block 0; the raw values are the names in
/// `datasheets/mifare-classic.json`.
package enum ClassicManufacturerFieldName: String, TableName {
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
package enum ClassicTrailerFieldName: String, TableName {
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
package enum ClassicKeyName: String, TableName {
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
package enum ClassicAcknowledgementName: String, TableName {
    /// `A`: ACK, command accepted.
    case ack
    /// `4`: operation not allowed (access conditions, bad address, not a value block).
    case notAllowed
    /// `5`: transmission or EEPROM error.
    case transmissionError
}

/// A named run of bytes inside a block; `Name` names the block's fields.
package struct ByteRangeField<Name: TableName>: NamedEntry {
    /// Its name.
    package var name: Name
    /// The first byte.
    package var offset: Int
    /// The number of bytes.
    package var length: Int

    /// The field's bytes in `block`, or `nil` when `block` is too short.
    package func bytes(in block: [UInt8]) -> [UInt8]? {
        guard offset >= 0, length >= 0, offset + length <= block.count else { return nil }
        return Array(block[offset..<(offset + length)])
    }
}

/// Blocks of a 16-block sector that share access bits.
package struct ClassicAccessGroup: Codable, Equatable, Sendable {
    /// The group (0–2 data, 3 trailer).
    package var group: Int
    /// The first block index inside the sector.
    package var firstBlock: Int
    /// The last block index inside the sector.
    package var lastBlock: Int
}

/// Which key may do something.
package enum ClassicKeyRight: String, Codable, CaseIterable, Sendable {
    /// Nobody.
    case never
    /// Key A only.
    case keyA = "A"
    /// Key B only.
    case keyB = "B"
    /// Key A or key B.
    case keyAOrB = "A|B"

    /// Whether authenticating with `key` grants the right.
    package func allows(_ key: ClassicKeyType) -> Bool {
        switch self {
        case .never: false
        case .keyA: key == .a
        case .keyB: key == .b
        case .keyAOrB: true
        }
    }
}

/// Key A or key B.
public enum ClassicKeyType: CaseIterable, Sendable {
    /// Key A (AUTH `60`).
    case a
    /// Key B (AUTH `61`).
    case b
}

/// Data-block rights for one C1C2C3 value.
package struct DataBlockCondition: Codable, Equatable, Sendable {
    /// `C1C2C3` as text, e.g. `100`.
    package var bits: String
    /// Who may read.
    package var read: ClassicKeyRight
    /// Who may write.
    package var write: ClassicKeyRight
    /// Who may increment.
    package var increment: ClassicKeyRight
    /// Who may decrement, transfer and restore.
    package var decrementTransferRestore: ClassicKeyRight
    /// What the setting is used for.
    package var use: String
}

/// Sector-trailer rights for one C1C2C3 value.
package struct TrailerCondition: Codable, Equatable, Sendable {
    /// `C1C2C3` as text.
    package var bits: String
    /// Who may read key A (nobody).
    package var keyARead: ClassicKeyRight
    /// Who may write key A.
    package var keyAWrite: ClassicKeyRight
    /// Who may read the access bits.
    package var accessBitsRead: ClassicKeyRight
    /// Who may write the access bits.
    package var accessBitsWrite: ClassicKeyRight
    /// Who may read key B.
    package var keyBRead: ClassicKeyRight
    /// Who may write key B.
    package var keyBWrite: ClassicKeyRight
    /// Key B is readable, so it cannot be used to authenticate.
    package var keyBReadable: Bool
}

/// A well-known key.
package struct ClassicKeySpec: NamedEntry {
    /// Its name.
    package var name: ClassicKeyName
    /// The 6 key bytes.
    @Hex package var key: [UInt8]
    /// Where it is used.
    package var meaning: String
    /// Present when the key is less established.
    package var caveat: DatasheetCaveat?
}

/// A recommended sector trailer (key B left to the user).
package struct ClassicTrailerTemplate: Codable, Equatable, Sendable {
    /// Key A.
    @Hex package var keyA: [UInt8]
    /// The three access-bit bytes.
    @Hex package var accessBits: [UInt8]
    /// The general-purpose byte.
    @Hex package var generalPurposeByte: UInt8
    /// What it sets up.
    package var meaning: String
    /// Present when the template is less certain than the table.
    package var caveat: DatasheetCaveat?

    /// The 16-byte trailer block with `keyB`.
    package func block(keyB: [UInt8]) -> [UInt8] { keyA + accessBits + [generalPurposeByte] + keyB }
}

/// Where a Classic value block keeps its value and address, and their inverted copies.
///
/// ```swift
/// let layout = ChipTables.classic.valueBlockLayout
/// layout.valueOffsets           // [0, 8]  (little-endian, valueLength bytes each)
/// layout.invertedValueOffset    // 4
/// ```
package struct ClassicValueBlockLayout: Codable, Equatable, Sendable {
    /// Bytes of the value (4, little-endian, two's complement).
    package var valueLength: Int
    /// Offsets of the two plain copies of the value.
    package var valueOffsets: [Int]
    /// Offset of the inverted copy of the value.
    package var invertedValueOffset: Int
    /// Offsets of the plain copies of the address byte.
    package var addressOffsets: [Int]
    /// Offsets of the inverted copies of the address byte.
    package var invertedAddressOffsets: [Int]
}

/// The fields of an NFC sector's general-purpose byte (AN1304) as masks.
///
/// ```swift
/// let gpb = ChipTables.classic.nfcSectorGPBFields
/// 0x43 & gpb.writeAccessMask != 0   // true: writes not granted (read-only sector)
/// ```
package struct NFCSectorGPBFields: Codable, Equatable, Sendable {
    /// Bits 7–6: the mapping major version.
    @Hex package var majorVersionMask: UInt8
    /// Bits 5–4: the mapping minor version.
    @Hex package var minorVersionMask: UInt8
    /// Bits 3–2: read access, `00` = granted.
    @Hex package var readAccessMask: UInt8
    /// Bits 1–0: write access, `00` = granted.
    @Hex package var writeAccessMask: UInt8
}

/// The MIFARE Application Directory (AN10787) and the NFC AID.
///
/// ```swift
/// let mad = ChipTables.classic.mad
/// mad.crc([0x01] + Array(repeating: [0x03, 0xE1], count: 15).flatMap { $0 }) // 0x14
/// mad.gpbMAD1   // 0xC1
/// ```
public struct MADSpec: Codable, Equatable, Sendable {
    /// Where it comes from.
    public var source: DatasheetSource
    /// MAD1 (sector 0, blocks 1–2).
    public var mad1: MADDirectory
    /// MAD2 (4K only: sector 16, blocks 64–66).
    public var mad2: MADDirectory
    /// Byte of the CRC in the directory.
    public var crcByte: Int
    /// Byte of the info byte in the directory.
    public var infoByte: Int
    /// Byte of the first AID in the directory.
    public var firstAIDByte: Int
    /// CRC-8 parameters (poly `1D`, init `C7`) and test vector.
    public var crc: CRCSpec
    /// Info-byte bits pointing to the card-publisher sector.
    @Hex public var infoBytePublisherMask: UInt8
    /// The NFC Forum AID `03E1` as stored (`03 E1`).
    @Hex public var nfcAID: [UInt8]
    /// Administrative AIDs (free, defect, reserved, …) as stored.
    public var administrativeAIDs: [MADAdministrativeAID]
    /// How AIDs are stored, in words.
    public var aidByteOrder: String
    /// GPB of sector 0 with MAD1 (`C1`).
    @Hex public var gpbMAD1: UInt8
    /// GPB of sector 0 with MAD2 (`C2`).
    @Hex public var gpbMAD2: UInt8
    /// GPB bits DA, MA, ADV.
    public var gpbBits: [MADGPBBit]
    /// The recommended MAD sector trailer.
    public var madSectorTrailer: ClassicTrailerTemplate

    /// The MAD CRC-8 over `bytes` (info byte + all AID bytes).
    public func crc(_ bytes: [UInt8]) -> UInt8 { crc.crc8(bytes) }

    /// The administrative AID called `name` (`free`, `defect`, …).
    public func administrativeAID(named name: String) -> [UInt8]? {
        administrativeAIDs.first { $0.name == name }?.aid
    }
}

/// One MAD directory.
public struct MADDirectory: Codable, Equatable, Sendable {
    /// The sector holding it.
    public var sector: Int
    /// The blocks holding it (absolute block numbers).
    @Hex public var blocks: [UInt8]
    /// AID slots.
    public var aidCount: Int
    /// The sector described by the first AID slot.
    public var firstCoveredSector: Int
}

/// An administrative AID.
public struct MADAdministrativeAID: Codable, Equatable, Sendable {
    /// The 2 bytes as stored.
    @Hex public var aid: [UInt8]
    /// Its name.
    public var name: String
}

/// A bit of the MAD general-purpose byte.
public struct MADGPBBit: Codable, Equatable, Sendable {
    /// `DA`, `MA` or `ADV`.
    public var name: String
    /// Its mask.
    @Hex public var mask: UInt8
    /// What it means.
    public var meaning: String
}

/// The MIFARE Application Directory (AN10787) and the NFC AID.
///
/// ```swift
/// let mad = ChipTables.classic.mad
/// mad.crc([0x01] + Array(repeating: [0x03, 0xE1], count: 15).flatMap { $0 }) // 0x14
/// mad.gpbMAD1   // 0xC1
/// mad.administrativeAIDs[.free].aid   // [0x00, 0x00]
/// ```
package struct MADSpec: Codable, Equatable, Sendable {
    /// Where it comes from.
    package var source: DatasheetSource
    /// MAD1 (sector 0, blocks 1–2).
    package var mad1: MADDirectory
    /// MAD2 (4K only: sector 16, blocks 64–66).
    package var mad2: MADDirectory
    /// Byte of the CRC in the directory.
    package var crcByte: Int
    /// Byte of the info byte in the directory.
    package var infoByte: Int
    /// Byte of the first AID in the directory.
    package var firstAIDByte: Int
    /// CRC-8 parameters (poly `1D`, init `C7`) and test vector.
    package var crc: CRCSpec
    /// Info-byte bits pointing to the card-publisher sector.
    @Hex package var infoBytePublisherMask: UInt8
    /// The NFC Forum AID `03E1` as stored (`03 E1`).
    @Hex package var nfcAID: [UInt8]
    /// Administrative AIDs (free, defect, reserved, …) as stored.
    package var administrativeAIDs: NamedTable<MADAdministrativeAID>
    /// How AIDs are stored, in words.
    package var aidByteOrder: String
    /// GPB of sector 0 with MAD1 (`C1`).
    @Hex package var gpbMAD1: UInt8
    /// GPB of sector 0 with MAD2 (`C2`).
    @Hex package var gpbMAD2: UInt8
    /// GPB bits DA, MA, ADV.
    package var gpbBits: NamedTable<MADGPBBit>
    /// The recommended MAD sector trailer.
    package var madSectorTrailer: ClassicTrailerTemplate
    /// The trailer of a read-only MAD sector (data `010` read-only, trailer `110` frozen);
    /// its GPB is the directory's own (``gpbMAD1`` / ``gpbMAD2``), left as found.
    package var madSectorReadOnlyTrailer: ClassicTrailerTemplate

    /// The MAD CRC-8 over `bytes` (info byte + all AID bytes).
    package func crc(_ bytes: [UInt8]) -> UInt8 { crc.crc8(bytes) }
}

/// One MAD directory.
package struct MADDirectory: Codable, Equatable, Sendable {
    /// The sector holding it.
    package var sector: Int
    /// The blocks holding it (absolute block numbers).
    @Hex package var blocks: [UInt8]
    /// AID slots.
    package var aidCount: Int
    /// The sector described by the first AID slot.
    package var firstCoveredSector: Int
    /// Info-byte values (after ``MADSpec/infoBytePublisherMask``) at or above this are
    /// invalid: they point past the directory's sectors.
    @Hex package var infoByteLimit: UInt8
    /// Info-byte values below ``infoByteLimit`` that are still invalid (MAD2: `10`, the
    /// MAD2 sector itself).
    @Hex package var invalidInfoBytes: [UInt8]
    /// The info byte a formatter writes (MAD1 `01` as NDEF-formatted cards carry; MAD2 `00`,
    /// no card-publisher sector).
    @Hex package var formatInfoByte: UInt8
    /// Present when the info-byte rules are less certain than the MAD source.
    package var caveat: DatasheetCaveat?

    /// Whether `info` (already masked) names a valid card-publisher sector or none.
    package func isValidInfoByte(_ info: UInt8) -> Bool {
        info < infoByteLimit && !invalidInfoBytes.contains(info)
    }
}

/// The administrative AIDs of the MAD; the raw values are the names in
/// `datasheets/mifare-classic.json`.
package enum MADAdministrativeAIDName: String, TableName {
    /// `00 00`: the sector is free.
    case free
    /// `01 00`: the sector is defect.
    case defect
    /// `02 00`: the sector is reserved.
    case reserved
    /// `03 00`: the sector holds additional directory information.
    case additionalDirectoryInfo
    /// `04 00`: the sector holds card-holder information.
    case cardHolderInfo
    /// `05 00`: not applicable (past the card's last sector).
    case notApplicable
}

/// An administrative AID.
package struct MADAdministrativeAID: NamedEntry {
    /// The 2 bytes as stored.
    @Hex package var aid: [UInt8]
    /// Its name.
    package var name: MADAdministrativeAIDName
}

/// The bits of the MAD general-purpose byte; the raw values are the names in
/// `datasheets/mifare-classic.json`.
package enum MADGPBBitName: String, TableName {
    /// `DA`: a MAD is present.
    case madAvailable = "DA"
    /// `MA`: multi-application card.
    case multiApplication = "MA"
    /// `ADV`: the MAD version (1 or 2).
    case madVersion = "ADV"
}

/// A bit of the MAD general-purpose byte.
package struct MADGPBBit: NamedEntry {
    /// `DA`, `MA` or `ADV`.
    package var name: MADGPBBitName
    /// Its mask.
    @Hex package var mask: UInt8
    /// What it means.
    package var meaning: String
}

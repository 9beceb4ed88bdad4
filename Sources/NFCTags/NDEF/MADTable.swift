import NFCChips

/// A decoded MIFARE Application Directory (AN10787): the application ID of each sector it
/// covers, from MAD1 (sector 0, blocks 1–2) and, on a 4K with MAD2, sector 16 (blocks
/// 64–66). Pure: decoding reads byte arrays and never traps on malformed ones.
///
/// Offsets in errors are tag byte addresses (block × 16 + byte).
///
/// ```swift
/// let version = try MADTable.version(gpb: 0xC1, address: 57, spec: mad)     // .mad1
/// let table = try MADTable(mad1: blocks1and2, mad2: nil, spec: mad, blockSize: 16)
/// let sectors = try table.nfcSectors(spec: mad)                             // [1, 2, …, 15]
/// ```
struct MADTable: Sendable, Equatable {
    /// Which directories the sector 0 GPB announces.
    enum Version: Sendable, Equatable {
        case mad1, mad2
    }

    /// The AID of each covered sector, as stored (2 bytes, little-endian).
    var applications: [Int: [UInt8]]
    /// The tag byte address of each sector's AID entry.
    var entryAddresses: [Int: Int]
    /// The MAD1 info byte (card-publisher sector), masked.
    var publisherSector: Int
    /// Whether MAD2 was decoded.
    var hasMAD2: Bool

    /// The MAD version the sector 0 GPB at `address` announces; `nil` when its DA bit is
    /// clear (no MAD: the card is not NDEF-formatted).
    static func version(gpb: UInt8, address: Int, spec: MADSpec) throws(NDEFTagError) -> Version? {
        let available = spec.gpbBits[.madAvailable].mask
        let versionMask = spec.gpbBits[.madVersion].mask
        guard gpb & available != 0 else { return nil }
        switch gpb & versionMask {
        case spec.gpbMAD1 & versionMask: return .mad1
        case spec.gpbMAD2 & versionMask: return .mad2
        default: throw .invalidApplicationDirectory(offset: address, reason: .missing)
        }
    }

    /// Decodes MAD1 (the 32 bytes of its blocks) and MAD2 (48 bytes) when given,
    /// checking each CRC-8 and info byte.
    init(mad1: [UInt8], mad2: [UInt8]?, spec: MADSpec, blockSize: Int) throws(NDEFTagError) {
        applications = [:]
        entryAddresses = [:]
        publisherSector = try Self.decode(
            mad1, directory: spec.mad1, spec: spec, blockSize: blockSize,
            into: &applications, addresses: &entryAddresses)
        hasMAD2 = mad2 != nil
        if let mad2 {
            _ = try Self.decode(
                mad2, directory: spec.mad2, spec: spec, blockSize: blockSize,
                into: &applications, addresses: &entryAddresses)
        }
    }

    /// The sectors assigned to the NFC Forum AID, in order; empty when there are none.
    ///
    /// - Throws: ``NDEFApplicationDirectoryProblem/nonContiguousNDEFSectors`` at the entry
    ///   of the first NFC sector that does not follow the previous one (on a 4K with MAD2,
    ///   the MAD2 sector between 15 and 17 does not break the run).
    func nfcSectors(spec: MADSpec) throws(NDEFTagError) -> [Int] {
        let sectors = applications.keys.sorted().filter { applications[$0] == spec.nfcAID }
        for (previous, sector) in zip(sectors, sectors.dropFirst()) {
            let skipsMAD2 = hasMAD2 && previous + 1 == spec.mad2.sector && sector == spec.mad2.sector + 1
            if sector != previous + 1, !skipsMAD2 {
                throw .invalidApplicationDirectory(
                    offset: entryAddresses[sector] ?? 0, reason: .nonContiguousNDEFSectors)
            }
        }
        return sectors
    }

    /// The bytes of one directory (CRC, info byte, AIDs) for `applications`; sectors it
    /// covers that are not in `applications` are free.
    static func directoryBytes(
        _ directory: MADDirectory, infoByte: UInt8, applications: [Int: [UInt8]],
        spec: MADSpec
    ) -> [UInt8] {
        let free = spec.administrativeAIDs[.free].aid
        var bytes = [UInt8](repeating: 0, count: spec.firstAIDByte + 2 * directory.aidCount)
        bytes[spec.infoByte] = infoByte
        for index in 0..<directory.aidCount {
            let aid = applications[directory.firstCoveredSector + index] ?? free
            bytes[spec.firstAIDByte + 2 * index] = aid[0]
            bytes[spec.firstAIDByte + 2 * index + 1] = aid[1]
        }
        bytes[spec.crcByte] = spec.crc(Array(bytes[(spec.crcByte + 1)...]))
        return bytes
    }

    /// Decodes one directory; returns its masked info byte.
    private static func decode(
        _ bytes: [UInt8], directory: MADDirectory, spec: MADSpec, blockSize: Int,
        into applications: inout [Int: [UInt8]], addresses: inout [Int: Int]
    ) throws(NDEFTagError) -> Int {
        let base = Int(directory.blocks.first ?? 0) * blockSize
        let needed = spec.firstAIDByte + 2 * directory.aidCount
        guard bytes.count >= needed, spec.crcByte < spec.infoByte, spec.infoByte < spec.firstAIDByte else {
            throw .invalidApplicationDirectory(offset: base + min(bytes.count, needed), reason: .missing)
        }
        let computed = spec.crc(Array(bytes[(spec.crcByte + 1)..<needed]))
        guard computed == bytes[spec.crcByte] else {
            throw .invalidApplicationDirectory(
                offset: base + spec.crcByte,
                reason: .crcMismatch(expected: computed, found: bytes[spec.crcByte]))
        }
        let info = bytes[spec.infoByte] & spec.infoBytePublisherMask
        if !directory.isValidInfoByte(info) {
            throw .invalidApplicationDirectory(
                offset: base + spec.infoByte, reason: .invalidInfoByte(bytes[spec.infoByte]))
        }
        for index in 0..<directory.aidCount {
            let offset = spec.firstAIDByte + 2 * index
            let sector = directory.firstCoveredSector + index
            applications[sector] = [bytes[offset], bytes[offset + 1]]
            addresses[sector] = base + offset
        }
        return Int(info)
    }
}

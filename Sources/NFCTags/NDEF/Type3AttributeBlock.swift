import NFCChips

/// The Attribute Information Block of an NFC Forum Type 3 tag (block 0 of the NDEF
/// service): mapping version, blocks per read (Nbr) and write (Nbw), the NDEF area in blocks
/// (Nmaxb), WriteFlag, RWFlag, the message length (Ln) and a checksum of the bytes before it.
///
/// ```swift
/// var attribute = try Type3AttributeBlock(bytes: block0)
/// attribute.length = 42
/// attribute.writeInProgress = false
/// let block = attribute.encoded          // checksum recomputed
/// ```
struct Type3AttributeBlock: Sendable, Hashable {
    var version: UInt8
    /// Blocks one Check (read) may name.
    var blocksPerRead: Int
    /// Blocks one Update (write) may name.
    var blocksPerWrite: Int
    /// The NDEF area, in blocks (from block 1).
    var maximumBlocks: Int
    /// WriteFlag: a write began and has not ended.
    var writeInProgress: Bool
    /// RWFlag: the tag may be written.
    var writable: Bool
    /// Ln: the message length in bytes.
    var length: Int
    /// The bytes the layout does not name (reserved), kept as read.
    var raw: [UInt8]

    static var type3: FeliCaType3Spec { ChipTables.felica.type3 }

    /// The area's capacity in bytes.
    var capacity: Int { maximumBlocks * Self.type3.blockSize }

    /// The block's fields; a checksum that does not add up, an unknown major version or a
    /// length past the area is an error that says where. Version 0 (a block of zeros, as an
    /// NDEF-enabled card leaves the factory) is "not formatted".
    init(bytes: [UInt8]) throws(NDEFTagError) {
        let type3 = Self.type3
        let layout = type3.attribute
        guard bytes.count == type3.blockSize else {
            throw .invalidCapabilityContainer(
                offset: bytes.count, reason: .malformed("the block has \(bytes.count) bytes"))
        }
        let sum = UInt16(bytes[..<layout.checksum].reduce(0) { $0 + Int($1) } & 0xFFFF)
        let stored = UInt16(bytes[layout.checksum]) << 8 | UInt16(bytes[layout.checksum + 1])
        guard sum == stored else {
            throw .invalidCapabilityContainer(
                offset: layout.checksum, reason: .checksumMismatch(expected: sum, found: stored))
        }
        guard bytes[layout.version] != 0 else {
            throw .invalidCapabilityContainer(offset: layout.version, reason: .notFormatted(found: 0))
        }
        guard bytes[layout.version] >> 4 == type3.attributeVersion >> 4 else {
            throw .invalidCapabilityContainer(
                offset: layout.version, reason: .unsupportedVersion(bytes[layout.version]))
        }
        version = bytes[layout.version]
        blocksPerRead = Int(bytes[layout.nbr])
        blocksPerWrite = Int(bytes[layout.nbw])
        maximumBlocks = Int(bytes[layout.nmaxb]) << 8 | Int(bytes[layout.nmaxb + 1])
        writeInProgress = bytes[layout.writeFlag] != type3.writeFlagDone
        writable = bytes[layout.rwFlag] == type3.rwFlagReadWrite
        length = bytes[layout.ln..<(layout.ln + 3)].reduce(0) { $0 << 8 | Int($1) }
        raw = bytes
        guard blocksPerRead > 0, blocksPerWrite > 0 else {
            throw .invalidCapabilityContainer(
                offset: blocksPerRead == 0 ? layout.nbr : layout.nbw, reason: .malformed("Nbr and Nbw are at least 1"))
        }
        guard length <= capacity else {
            throw .invalidCapabilityContainer(offset: layout.ln, reason: .invalidSize(length))
        }
    }

    /// A freshly formatted block: an empty, writable area of `maximumBlocks`.
    init(blocksPerRead: Int, blocksPerWrite: Int, maximumBlocks: Int) {
        let type3 = Self.type3
        version = type3.attributeVersion
        self.blocksPerRead = blocksPerRead
        self.blocksPerWrite = blocksPerWrite
        self.maximumBlocks = maximumBlocks
        writeInProgress = false
        writable = true
        length = 0
        raw = [UInt8](repeating: 0, count: type3.blockSize)
    }

    /// The 16 bytes, checksum included.
    var encoded: [UInt8] {
        let type3 = Self.type3
        let layout = type3.attribute
        var bytes = raw
        bytes[layout.version] = version
        bytes[layout.nbr] = UInt8(blocksPerRead)
        bytes[layout.nbw] = UInt8(blocksPerWrite)
        bytes[layout.nmaxb] = UInt8(maximumBlocks >> 8 & 0xFF)
        bytes[layout.nmaxb + 1] = UInt8(maximumBlocks & 0xFF)
        bytes[layout.writeFlag] = writeInProgress ? type3.writeFlagInProgress : type3.writeFlagDone
        bytes[layout.rwFlag] = writable ? type3.rwFlagReadWrite : type3.rwFlagReadOnly
        for index in 0..<3 { bytes[layout.ln + index] = UInt8(length >> (8 * (2 - index)) & 0xFF) }
        let sum = bytes[..<layout.checksum].reduce(0) { $0 + Int($1) } & 0xFFFF
        bytes[layout.checksum] = UInt8(sum >> 8)
        bytes[layout.checksum + 1] = UInt8(sum & 0xFF)
        return bytes
    }
}

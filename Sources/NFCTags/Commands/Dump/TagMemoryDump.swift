import NFCChips

/// The whole memory image of a tag, as read, for backup and restore.
///
/// File format (JSON, UTF-8; bytes as upper-case hex strings without separators):
///
/// ```json
/// {
///   "format": "nfctagkit-memory-dump",
///   "version": 1,
///   "chip": "ntag215",                 // a Chip raw value
///   "uid": "04475ED29C3980",
///   "pages": ["04475E95", "D29C3980", …],            // Type 2: pages 0…lastReadablePage
///   "blocks": ["3E39AB7FD3880400…", null, …],        // Classic: every block, null when unread
///   "sectorKeys": [{"sector": 0, "keyA": "FFFFFFFFFFFF", "keyB": null}, …]   // Classic
/// }
/// ```
///
/// Type 2 pages are exactly what READ returns: PWD and PACK read as zeros and the Ultralight
/// C key pages are not readable, so secrets are never in a dump. Classic trailers carry the
/// key A (and key B) that opened the sector in place of the zeros the card returns.
public struct TagMemoryDump: Sendable, Hashable {
    /// The `format` value of the file.
    package static let format = "nfctagkit-memory-dump"
    /// The `version` this code writes and reads.
    package static let version = 1

    /// The chip the image comes from.
    public var chip: Chip
    /// The UID of the tag it was read from.
    public var uid: [UInt8]
    /// Type 2: the pages, 4 bytes each, from page 0.
    public var pages: [[UInt8]]?
    /// Classic: the blocks, 16 bytes each, from block 0; `nil` where no key opened the sector.
    public var blocks: [[UInt8]?]?
    /// Classic: the keys that opened each sector.
    public var sectorKeys: [ClassicSectorKeys]?

    /// A dump.
    public init(
        chip: Chip, uid: [UInt8], pages: [[UInt8]]? = nil, blocks: [[UInt8]?]? = nil,
        sectorKeys: [ClassicSectorKeys]? = nil
    ) {
        self.chip = chip
        self.uid = uid
        self.pages = pages
        self.blocks = blocks
        self.sectorKeys = sectorKeys
    }

    /// Checks the image against the chip's tables: page or block count and sizes.
    package func validate() throws(TagCommandError) {
        let spec = ChipTables.spec(for: chip)
        if let memory = spec.memory {
            guard let pages else { throw .invalidArgument("dump of \(chip.rawValue) has no \"pages\"") }
            guard pages.count == memory.lastReadablePage + 1 else {
                throw .invalidArgument(
                    "\"pages\": \(pages.count) pages, \(chip.rawValue) reads \(memory.lastReadablePage + 1)")
            }
            if let index = pages.firstIndex(where: { $0.count != memory.pageSize }) {
                throw .invalidArgument("\"pages\"[\(index)]: \(pages[index].count) bytes, a page is \(memory.pageSize)")
            }
        } else if let geometry = spec.classicGeometry {
            guard let blocks else { throw .invalidArgument("dump of \(chip.rawValue) has no \"blocks\"") }
            guard blocks.count == geometry.blockCount else {
                throw .invalidArgument(
                    "\"blocks\": \(blocks.count) blocks, \(chip.rawValue) has \(geometry.blockCount)")
            }
            if let index = blocks.firstIndex(where: { $0 != nil && $0?.count != geometry.blockSize }) {
                throw .invalidArgument("\"blocks\"[\(index)]: a block is \(geometry.blockSize) bytes")
            }
        } else {
            throw .featureNotSupported(feature: "memory dumps", chip: chip)
        }
    }
}

/// The keys that opened one Classic sector (6 bytes each), `nil` when unknown.
public struct ClassicSectorKeys: Sendable, Hashable {
    /// The sector.
    public var sector: Int
    /// Key A.
    public var keyA: ClassicKey?
    /// Key B.
    public var keyB: ClassicKey?

    /// The keys of `sector`.
    public init(sector: Int, keyA: ClassicKey?, keyB: ClassicKey?) {
        self.sector = sector
        self.keyA = keyA
        self.keyB = keyB
    }
}

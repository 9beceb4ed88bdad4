import NFCChips

/// The NFC sectors of a MIFARE Classic as one TLV byte stream: the data blocks of each NFC
/// sector in order, sector trailers (and the MAD2 sector) left out. Stream index `i` is
/// byte `i % 16` of ``blocks``[`i / 16`]; errors name the tag byte address
/// (block × 16 + byte) instead.
///
/// ```swift
/// let area = ClassicNDEFArea(sectors: [1, 2], geometry: geometry)
/// area.blocks                     // [4, 5, 6, 8, 9, 10]
/// area.tagAddress(ofStreamIndex: 16) // 80 (block 5, byte 0)
/// ```
struct ClassicNDEFArea: Sendable, Equatable {
    /// The NFC sectors, in stream order.
    var sectors: [Int]
    /// Their data blocks, in stream order.
    var blocks: [Int]
    /// Bytes per block.
    var blockSize: Int

    init(sectors: [Int], geometry: ClassicGeometry) {
        self.sectors = sectors
        self.blockSize = geometry.blockSize
        self.blocks = sectors.flatMap { sector -> [Int] in
            guard let first = geometry.firstBlock(ofSector: sector),
                let trailer = geometry.trailerBlock(ofSector: sector)
            else {
                return []
            }
            return Array(first..<trailer)
        }
    }

    /// The stream length in bytes.
    var byteCount: Int { blocks.count * blockSize }

    /// The tag byte address of stream index `index`; one past the last data byte for the
    /// end of the stream (an error "at the end").
    func tagAddress(ofStreamIndex index: Int) -> Int {
        guard !blocks.isEmpty else { return 0 }
        guard index < byteCount else { return (blocks[blocks.count - 1] + 1) * blockSize }
        return blocks[max(0, index) / blockSize] * blockSize + max(0, index) % blockSize
    }

    /// The block holding stream index `index`.
    func block(ofStreamIndex index: Int) -> Int { blocks[index / blockSize] }

    /// The stream range of the `position`-th data block.
    func streamRange(ofBlockAt position: Int) -> Range<Int> {
        (position * blockSize)..<((position + 1) * blockSize)
    }
}

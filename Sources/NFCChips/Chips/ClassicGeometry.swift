/// The sector and block layout of a MIFARE Classic chip.
///
/// ```swift
/// let geometry = ChipTables.spec(for: .classic4k).classicGeometry!
/// geometry.sectorCount              // 40
/// geometry.firstBlock(ofSector: 32) // 128
/// geometry.trailerBlock(ofSector: 32) // 143
/// ```
package struct ClassicGeometry: Codable, Equatable, Sendable {
    /// Bytes per block (16).
    package var blockSize: Int
    /// Runs of sectors with the same number of blocks, in sector order.
    package var sectorGroups: [ClassicSectorGroup]

    /// The number of sectors.
    package var sectorCount: Int { sectorGroups.reduce(0) { $0 + $1.sectorCount } }
    /// The number of blocks.
    package var blockCount: Int { sectorGroups.reduce(0) { $0 + $1.sectorCount * $1.blocksPerSector } }
    /// The memory size in bytes.
    package var totalBytes: Int { blockCount * blockSize }

    /// Blocks in `sector`, or `nil` for a sector the chip does not have.
    package func blockCount(ofSector sector: Int) -> Int? {
        group(ofSector: sector)?.blocksPerSector
    }

    /// The first block of `sector`.
    package func firstBlock(ofSector sector: Int) -> Int? {
        var block = 0
        for group in sectorGroups {
            if sector < group.firstSector + group.sectorCount, sector >= group.firstSector {
                return block + (sector - group.firstSector) * group.blocksPerSector
            }
            block += group.sectorCount * group.blocksPerSector
        }
        return nil
    }

    /// The sector trailer block of `sector` (its last block).
    package func trailerBlock(ofSector sector: Int) -> Int? {
        guard let first = firstBlock(ofSector: sector), let count = blockCount(ofSector: sector) else { return nil }
        return first + count - 1
    }

    /// The sector holding `block`.
    package func sector(ofBlock block: Int) -> Int? {
        guard block >= 0 else { return nil }
        var first = 0
        for group in sectorGroups {
            let blocks = group.sectorCount * group.blocksPerSector
            if block < first + blocks { return group.firstSector + (block - first) / group.blocksPerSector }
            first += blocks
        }
        return nil
    }

    /// Whether `block` is a sector trailer.
    package func isTrailer(block: Int) -> Bool {
        guard let sector = sector(ofBlock: block) else { return false }
        return trailerBlock(ofSector: sector) == block
    }

    private func group(ofSector sector: Int) -> ClassicSectorGroup? {
        sectorGroups.first { sector >= $0.firstSector && sector < $0.firstSector + $0.sectorCount }
    }
}

/// A run of sectors with the same size.
package struct ClassicSectorGroup: Codable, Equatable, Sendable {
    /// The first sector of the run.
    package var firstSector: Int
    /// How many sectors.
    package var sectorCount: Int
    /// Blocks per sector (4, or 16 for the large sectors of a 4K).
    package var blocksPerSector: Int
}

/// The dynamic lock bytes of a Type 2 chip with more than 64 bytes of memory.
///
/// Lock bit n (counting from bit 0 of the first lock byte) makes `pagesPerLockBit`
/// pages read-only, starting at ``firstLockedPage``. Block-lock (BL) bits freeze lock bits.
package struct DynamicLockSpec: Codable, Equatable, Sendable {
    /// The page holding the lock bytes.
    @Hex package var page: Int
    /// How many bytes of the page hold lock or block-lock bits (the rest is RFUI).
    package var byteCount: Int
    /// The first page the lock bits cover.
    @Hex package var firstLockedPage: Int
    /// The last page the lock bits cover.
    @Hex package var lastLockedPage: Int
    /// Pages made read-only by one lock bit.
    package var pagesPerLockBit: Int
    /// The number of page-lock bits (the rest are block-lock bits or RFUI).
    package var lockBitCount: Int
    /// The bytes to WRITE to set every lock bit (e.g. `FF FF FF 00`).
    @Hex package var lockAllValue: [UInt8]
    /// Present when the granularity is not from the datasheet.
    package var caveat: DatasheetCaveat?
    /// The byte of the lock page holding the block-lock (BL) bits, when the tables know
    /// their layout; BL bit k freezes ``lockBitsPerBlockLockBit`` lock bits from bit
    /// k × ``lockBitsPerBlockLockBit``.
    package var blockLockByte: Int?
    /// Page-lock bits one block-lock bit freezes.
    package var lockBitsPerBlockLockBit: Int?

    /// The lock bit that covers `page`, as (byte index, bit mask), or `nil` outside the range.
    package func lockBit(forPage page: Int) -> (byte: Int, mask: UInt8)? {
        guard page >= firstLockedPage, page <= lastLockedPage, pagesPerLockBit > 0 else { return nil }
        let bit = (page - firstLockedPage) / pagesPerLockBit
        guard bit < lockBitCount else { return nil }
        return (bit / 8, UInt8(1) << UInt8(bit % 8))
    }

    /// The block-lock bit that freezes page-lock bit `lockBit` (counted from bit 0 of the
    /// first lock byte), as (byte index, bit mask); `nil` when the tables give no BL layout.
    package func blockLockBit(freezingLockBit lockBit: Int) -> (byte: Int, mask: UInt8)? {
        guard let byte = blockLockByte, let span = lockBitsPerBlockLockBit, span > 0,
            lockBit >= 0, lockBit < lockBitCount
        else { return nil }
        let bit = lockBit / span
        guard bit < 8 else { return nil }
        return (byte, UInt8(1) << UInt8(bit))
    }
}

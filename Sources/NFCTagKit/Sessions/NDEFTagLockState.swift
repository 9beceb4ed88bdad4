import NFCChips

/// The lock bytes of a Type 2 tag as ``NFCType2Tag/readLockState()`` reads them: the
/// static lock bytes, the dynamic lock bytes (where the chip has them), the capability
/// container, and the pages those bits lock.
///
/// ```swift
/// let locks = try await tag.readLockState()
/// locks.isCapabilityContainerReadOnly   // true after writeLock()
/// locks.lockedPages                     // [3, 4, 5, …]
/// ```
public struct NDEFTagLockState: Sendable {
    /// The static lock bytes (page 2, bytes 2–3 on every Type 2 chip; from the chip table).
    public var staticLockBytes: [UInt8]
    /// The dynamic lock bytes; empty on chips without them.
    public var dynamicLockBytes: [UInt8]
    /// The four capability container bytes.
    public var capabilityContainer: [UInt8]
    /// Pages whose lock bit (static or dynamic) is set.
    public var lockedPages: [Int]

    /// A lock state with the given bytes.
    package init(staticLockBytes: [UInt8], dynamicLockBytes: [UInt8], capabilityContainer: [UInt8], lockedPages: [Int])
    {
        self.staticLockBytes = staticLockBytes
        self.dynamicLockBytes = dynamicLockBytes
        self.capabilityContainer = capabilityContainer
        self.lockedPages = lockedPages
    }

    /// Whether the CC's write-access nibble (CC3) is anything but `0` (write granted).
    public var isCapabilityContainerReadOnly: Bool {
        let cc = ChipTables.type2.capabilityContainer
        return cc.writeAccess(of: capabilityContainer).map { $0 != cc.writeAccessGranted } ?? false
    }

    /// Decodes the lock bytes of `memory` (the tag's first pages and its dynamic lock page).
    ///
    /// The static lock word is the two lock bytes little-endian; which bit locks which page
    /// comes from `ChipTables.type2.staticLock` (the others are block-lock bits).
    static func pagesLocked(staticLock: [UInt8], dynamicLock: [UInt8], map: MemoryMap) -> [Int] {
        var pages: [Int] = []
        let word = staticLock.enumerated().reduce(0) { $0 | Int($1.element) << (UInt8.bitWidth * $1.offset) }
        let layout = ChipTables.type2.staticLock
        for page in layout.firstLockedPage...layout.lastLockedPage {
            if let bit = layout.lockBit(forPage: page), word & (1 << bit) != 0 { pages.append(page) }
        }
        if let dynamic = map.dynamicLock, dynamicLock.count >= dynamic.byteCount {
            for page in dynamic.firstLockedPage...dynamic.lastLockedPage {
                if let (byte, mask) = dynamic.lockBit(forPage: page), byte < dynamicLock.count,
                    dynamicLock[byte] & mask != 0
                {
                    pages.append(page)
                }
            }
        }
        return pages
    }
}

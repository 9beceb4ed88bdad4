import NFCChips

/// The lock bytes of a Type 2 tag as ``NDEFSessionTag/readLockState()`` reads them: the
/// static lock bytes, the dynamic lock bytes (where the chip has them), the capability
/// container, and the pages those bits lock.
///
/// ```swift
/// let locks = try await tag.readLockState()
/// locks.isCapabilityContainerReadOnly   // true after writeLock()
/// locks.lockedPages                     // [3, 4, 5, …]
/// ```
public struct NDEFTagLockState: Sendable, Hashable {
    /// The static lock bytes (page 2, bytes 2–3 on every Type 2 chip; from the chip table).
    public var staticLockBytes: [UInt8]
    /// The dynamic lock bytes; empty on chips without them.
    public var dynamicLockBytes: [UInt8]
    /// The four capability container bytes.
    public var capabilityContainer: [UInt8]
    /// Pages whose lock bit (static or dynamic) is set.
    public var lockedPages: [Int]

    /// A lock state with the given bytes.
    public init(staticLockBytes: [UInt8], dynamicLockBytes: [UInt8], capabilityContainer: [UInt8], lockedPages: [Int]) {
        self.staticLockBytes = staticLockBytes
        self.dynamicLockBytes = dynamicLockBytes
        self.capabilityContainer = capabilityContainer
        self.lockedPages = lockedPages
    }

    /// Whether the CC's write-access byte (CC3) is anything but `00` (write granted).
    public var isCapabilityContainerReadOnly: Bool {
        capabilityContainer.count == 4 && capabilityContainer[3] != 0
    }

    /// Decodes the lock bytes of `memory` (the tag's first pages and its dynamic lock page).
    ///
    /// Static lock bit *n* of the 16-bit little-endian lock word locks page *n*; the bits
    /// below the capability container page are block-lock bits (NFC Forum Type 2 §8.1).
    static func pagesLocked(staticLock: [UInt8], dynamicLock: [UInt8], map: MemoryMap) -> [Int] {
        var pages: [Int] = []
        let word = staticLock.enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        for bit in map.capabilityContainer.page..<(staticLock.count * 8) where word & (1 << bit) != 0 {
            pages.append(bit)
        }
        if let dynamic = map.dynamicLock, dynamicLock.count >= dynamic.byteCount {
            for page in dynamic.firstLockedPage...dynamic.lastLockedPage {
                if let (byte, mask) = dynamic.lockBit(forPage: page), byte < dynamicLock.count, dynamicLock[byte] & mask != 0 {
                    pages.append(page)
                }
            }
        }
        return pages
    }
}

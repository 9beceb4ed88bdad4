/// One EEPROM program cycle of an emulated tag: the page or block a write frame programs,
/// what it holds now and what it holds once the cycle completes. A tag model names it
/// (``EmulatedTag/eepromWrite(for:)``); the faults of a ``FaultPlan`` cut it short.
///
/// ```swift
/// let write = tag.eepromWrite(for: [0xA2, 0x10, 1, 2, 3, 4])!   // page 16, old → 01 02 03 04
/// write.tornContent(seed: 7)    // each bit from the old or the new value
/// ```
public struct EEPROMWrite: Equatable, Sendable {
    /// The page (Type 2) or block (MIFARE Classic).
    public var address: Int
    /// The content before the write.
    public var old: [UInt8]
    /// The content once the write completes (on OR-written pages, the merged bits).
    public var new: [UInt8]
    /// Whether the chip table lists the page as tearing-protected
    /// (``NFCChips/MemoryMap/tearingProtectedPages``): a cut leaves the whole old or the
    /// whole new value, never a mix.
    public var isTearingProtected: Bool
    /// The NAK code the chip answers when the cycle fails (EEPROM write error).
    public var failureCode: UInt8

    /// A write of `new` over `old` at `address`.
    public init(address: Int, old: [UInt8], new: [UInt8], isTearingProtected: Bool, failureCode: UInt8) {
        self.address = address
        self.old = old
        self.new = new
        self.isTearingProtected = isTearingProtected
        self.failureCode = failureCode
    }

    /// What a failed cycle leaves (`eeprom-fail-page`): the old content on a
    /// tearing-protected page, else the first half new and the rest old.
    public var failedContent: [UInt8] {
        if isTearingProtected { return old }
        let half = new.count / 2
        return Array(new.prefix(half) + old.dropFirst(half))
    }

    /// What a cycle cut off by the field leaves (`tear-in-write`): on a tearing-protected
    /// page the whole old or the whole new value, on any other each bit from the old or the
    /// new value. A generator seeded with `seed` chooses, so the same seed gives the same
    /// content.
    public func tornContent(seed: UInt64) -> [UInt8] {
        var bits = SplitMix64(seed: seed)  // which bits the torn cycle took from the new value
        if isTearingProtected { return bits.next() & 1 == 0 ? old : new }
        return zip(old, new).map { old, new in
            let fromNew = UInt8(truncatingIfNeeded: bits.next())
            return new & fromNew | old & ~fromNew
        }
    }
}

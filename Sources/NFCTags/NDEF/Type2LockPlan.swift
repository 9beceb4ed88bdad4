import NFCChips

/// The page writes that make a Type 2 tag's NDEF area permanently read-only, in the order
/// that never leaves it half-locked yet reading as writable:
/// 1. the CC write-access nibble becomes `F` — from this write on every reader treats the
///    tag as read-only, whatever the lock bits say;
/// 2. the static lock bytes (`FF FF`: every page lock and block-lock bit; the CC page is
///    locked here too, so it must come after step 1);
/// 3. the dynamic lock bytes (the chip table's lock-all value).
///
/// Lock, CC and dynamic-lock pages are one-way (bits are OR-ed), so each write is
/// idempotent and a torn lock can simply be run again. Writes whose bits are already set
/// are left out.
struct Type2LockPlan: Sendable, Equatable {
    struct PageWrite: Sendable, Equatable {
        var page: Int
        var bytes: [UInt8]
        var step: NDEFTagStep
    }

    /// The writes, in order.
    var writes: [PageWrite]
    /// The pages to read back, and the bits each byte must have set.
    var expectedBits: [Int: UInt8]

    init(snapshot: Type2TagSnapshot) {
        let profile = snapshot.profile
        let mapping = snapshot.mapping
        let memory = snapshot.memory
        let size = profile.pageSize
        func page(_ number: Int) -> [UInt8] { Array(memory[(number * size)..<((number + 1) * size)]) }
        var writes: [PageWrite] = []
        var expected: [Int: UInt8] = [:]

        func add(_ number: Int, setting bits: [UInt8], at byte: Int, step: NDEFTagStep) {
            var bytes = page(number)
            var changes = false
            for (offset, mask) in bits.enumerated() where byte + offset < size {
                let address = number * size + byte + offset
                expected[address] = mask
                if bytes[byte + offset] & mask != mask { changes = true }
                bytes[byte + offset] |= mask
            }
            if changes { writes.append(PageWrite(page: number, bytes: bytes, step: step)) }
        }

        add(profile.capabilityContainerPage, setting: [mapping.writeAccessNone], at: mapping.capabilityContainer.accessByte,
            step: .writeCapabilityContainer(page: profile.capabilityContainerPage))
        add(profile.staticLockPage, setting: mapping.staticLockAllValue, at: profile.staticLockByte,
            step: .writeStaticLock(page: profile.staticLockPage))
        if let dynamic = profile.dynamicLock {
            add(dynamic.page, setting: Array(dynamic.lockAllValue.prefix(dynamic.byteCount)), at: 0,
                step: .writeDynamicLock(page: dynamic.page))
        }
        self.writes = writes
        self.expectedBits = expected
    }
}

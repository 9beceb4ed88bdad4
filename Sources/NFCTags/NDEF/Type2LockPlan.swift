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
///
/// A write cut inside its EEPROM cycle may leave any mix of the bits it sets. On a lock
/// page the chip does not protect against tearing (the table's `tearingProtectedPages`:
/// all of them on Ultralight, Ultralight C and EV1; none on NTAG21x, whose pages 2, 3 and
/// dynamic lock page are protected), a torn write could set a block-lock bit without the
/// page-lock bits it freezes — those pages could then never be locked. So there the
/// page-lock bits are written first and the block-lock bits in a second write: a torn
/// first write leaves only page-lock bits (a second run finishes), a torn second one
/// freezes bits that are already set. A torn CC write leaves a write-access nibble that
/// is not `0`, which reads as read-only already.
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
        var memory = snapshot.memory
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
            guard changes else { return }
            writes.append(PageWrite(page: number, bytes: bytes, step: step))
            memory.replaceSubrange((number * size)..<((number + 1) * size), with: bytes)
        }

        /// Page-lock bits first, block-lock bits after, where a torn write could mix them.
        func addLock(_ number: Int, setting bits: [UInt8], blockLock: [UInt8], at byte: Int, step: NDEFTagStep) {
            if !profile.tearingProtectedPages.contains(number) {
                add(
                    number,
                    setting: bits.enumerated().map { $1 & ~(blockLock.indices.contains($0) ? blockLock[$0] : 0) },
                    at: byte, step: step)
            }
            add(number, setting: bits, at: byte, step: step)
        }

        add(
            profile.capabilityContainerPage, setting: [mapping.writeAccessNone],
            at: mapping.capabilityContainer.accessByte,
            step: .writeCapabilityContainer(page: profile.capabilityContainerPage))
        let staticBlockLock = mapping.staticLock.blockLockBits.reduce(0) { $0 | 1 << $1.bit }
        addLock(
            profile.staticLockPage, setting: mapping.staticLockAllValue,
            blockLock: mapping.staticLockAllValue.indices.map {
                UInt8(truncatingIfNeeded: staticBlockLock >> (8 * $0))
            },
            at: profile.staticLockByte, step: .writeStaticLock(page: profile.staticLockPage))
        if let dynamic = profile.dynamicLock {
            addLock(
                dynamic.page, setting: Array(dynamic.lockAllValue.prefix(dynamic.byteCount)),
                blockLock: dynamic.blockLockBits,
                at: 0, step: .writeDynamicLock(page: dynamic.page))
        }
        self.writes = writes
        self.expectedBits = expected
    }
}

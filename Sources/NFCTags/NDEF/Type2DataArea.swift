/// The NDEF data area of a Type 2 tag as a stream of byte addresses: from the first data
/// byte to the end the CC declares, without the bytes that Lock and Memory Control TLVs
/// reserve (a TLV stream skips them).
struct Type2DataArea: Sendable, Equatable {
    /// The first byte address of the data area (16).
    var start: Int
    /// One past the last byte address of the data area.
    var end: Int
    /// Byte ranges reserved by Lock and Memory Control TLVs.
    var reserved: [Range<Int>] = []

    /// Whether `address` is reserved.
    func isReserved(_ address: Int) -> Bool {
        reserved.contains { $0.contains(address) }
    }

    /// The first stream address at or after `address`, or `nil` at the end.
    func streamAddress(atOrAfter address: Int) -> Int? {
        var candidate = max(address, start)
        while candidate < end {
            if let range = reserved.first(where: { $0.contains(candidate) }) {
                candidate = range.upperBound
            } else {
                return candidate
            }
        }
        return nil
    }

    /// The stream address after `address`, or `nil` at the end.
    func streamAddress(after address: Int) -> Int? {
        streamAddress(atOrAfter: address + 1)
    }

    /// `count` stream addresses starting at `address`, or `nil` when the area ends first.
    func streamAddresses(from address: Int, count: Int) -> [Int]? {
        guard count > 0 else { return [] }
        var result: [Int] = []
        result.reserveCapacity(min(count, max(0, end - start)))
        var next = streamAddress(atOrAfter: address)
        while let current = next, result.count < count {
            result.append(current)
            next = streamAddress(after: current)
        }
        return result.count == count ? result : nil
    }

    /// How many stream bytes there are from `address` to the end.
    func availableBytes(from address: Int) -> Int {
        var count = 0
        var next = streamAddress(atOrAfter: address)
        while let current = next {
            count += 1
            next = streamAddress(after: current)
        }
        return count
    }
}

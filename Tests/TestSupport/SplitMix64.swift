// The property tests' seeded PRNG is the emulator's SplitMix64 (one implementation in the
// package); these helpers make random test inputs from it. Every case replays from its seed,
// which a failing expectation prints.
@_exported import struct NFCEmulator.SplitMix64

extension SplitMix64 {
    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }

    /// True with probability `numerator / denominator`.
    public mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        Int.random(in: 0..<denominator, using: &self) < numerator
    }
}

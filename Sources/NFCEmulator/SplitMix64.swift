/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny seeded generator, so that everything the
/// emulator decides at random — the bits a torn EEPROM cycle keeps, a soak run's plan — replays
/// from its seed.
///
/// ```swift
/// var random = SplitMix64(seed: 8)
/// let coin = random.next() & 1
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The seed, to print when a result must be replayed.
    public let seed: UInt64
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The one-way counters of a chip.
package struct CounterSpec: Codable, Equatable, Sendable {
    /// What kind of counter it is.
    package var kind: CounterKind
    /// The counter numbers READ_CNT / INCR_CNT accept (NTAG21x: only `02`).
    @Hex package var addresses: [UInt8]
    /// Counter width in bits (24 on NTAG / EV1, 16 on UL-C).
    package var widthBits: Int
    /// The CHECK_TEARING_EVENT answer meaning "no tearing" (`BD`), on EV1.
    @Hex package var tearingFlagValid: UInt8?
    /// The page holding the counter, when it is in page memory (UL-C `29`).
    @Hex package var page: Int?
    /// When the counter moves and what happens at its maximum.
    package var behaviour: String
    /// Present when the behaviour is less certain than the chip's source.
    package var caveat: DatasheetCaveat?

    /// The largest value the counter holds.
    package var maximumValue: Int { (1 << widthBits) - 1 }
}

/// The kinds of counters in the tables.
package enum CounterKind: String, Codable, CaseIterable, Sendable {
    /// NTAG21x NFC counter: +1 on the first READ / FAST_READ after power-up, if enabled.
    case nfcReadCounter
    /// Ultralight EV1: three counters incremented by INCR_CNT, with tearing flags.
    case incrementCounters
    /// Ultralight C: a 16-bit one-way counter in page memory.
    case pageCounter
}

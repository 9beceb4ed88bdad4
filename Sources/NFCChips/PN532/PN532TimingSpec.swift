/// Constants of the timing model: host link and ISO/IEC 14443-A air interface.
///
/// ```swift
/// let t = ChipTables.pn532.timing
/// t.uartByteSeconds  // 10 / 115200 s
/// t.airBitSeconds    // 128 / 13.56 MHz ≈ 9.44 µs
/// ```
package struct PN532TimingSpec: Codable, Equatable, Sendable {
    /// The default HSU (UART) speed, 115 200 baud.
    package var uartBaud: Int
    /// Line bits per byte: 8N1 = start + 8 data + stop = 10.
    package var uartBitsPerByte: Int
    /// The carrier frequency fc, 13.56 MHz.
    package var carrierFrequencyHz: Int
    /// One bit at 106 kbit/s lasts 128 carrier cycles.
    package var bitDurationCarrierCycles: Int
    /// Bits per byte on air in a standard frame: 8 data bits + 1 parity bit.
    package var airBitsPerByte: Int
    /// Start- and end-of-frame bits around a standard frame (S + E).
    package var airFramingBits: Int
    /// Frame delay time tag→reader when the last reader bit is 1: n = 9 → (9·128 + 84) cycles.
    package var frameDelayTimeLastBitOneCarrierCycles: Int
    /// Frame delay time when the last reader bit is 0: (9·128 + 20) cycles.
    package var frameDelayTimeLastBitZeroCarrierCycles: Int
    /// InAutoPoll's Period unit (UM0701-02 §7.3.13: Period 1…15 "in units of 150 ms"): the
    /// time one asked target type's slot lasts when no target of that type answers.
    package var autoPollPeriodUnitMs: Int
    /// Where the numbers come from.
    package var source: DatasheetSource

    /// Seconds to send one byte on the host link.
    package var uartByteSeconds: Double { Double(uartBitsPerByte) / Double(uartBaud) }

    /// Seconds of one bit on air at 106 kbit/s.
    package var airBitSeconds: Double { Double(bitDurationCarrierCycles) / Double(carrierFrequencyHz) }

    /// Seconds on air for a standard frame of `byteCount` bytes (parity and S/E included).
    package func airFrameSeconds(byteCount: Int) -> Double {
        Double(byteCount * airBitsPerByte + airFramingBits) * airBitSeconds
    }

    /// The shortest tag response delay, in seconds (last reader bit 1).
    package var frameDelayTimeSeconds: Double {
        Double(frameDelayTimeLastBitOneCarrierCycles) / Double(carrierFrequencyHz)
    }
}

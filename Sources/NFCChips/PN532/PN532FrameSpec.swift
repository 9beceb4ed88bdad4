/// The PN532 host-link frame constants (UM0701 §6.2).
///
/// A normal information frame is
/// `preamble startCode LEN LCS TFI data… DCS postamble`, with `LEN` counting TFI and data,
/// `LCS = −LEN` and `DCS = −(TFI + Σdata)` (mod 256).
package struct PN532FrameSpec: Codable, Equatable, Sendable {
    /// The preamble, `00`.
    @Hex package var preamble: [UInt8]
    /// The start-of-packet code, `00 FF`.
    @Hex package var startCode: [UInt8]
    /// The postamble, `00`.
    @Hex package var postamble: [UInt8]
    /// The frame identifier of host-to-chip frames, `D4`.
    @Hex package var hostToChipTFI: UInt8
    /// The frame identifier of chip-to-host frames, `D5`.
    @Hex package var chipToHostTFI: UInt8
    /// The ACK frame, `00 00 FF 00 FF 00` (also sent by the host to abort a command).
    @Hex package var ackFrame: [UInt8]
    /// The NACK frame, `00 00 FF FF 00 00`: asks the other side to resend.
    @Hex package var nackFrame: [UInt8]
    /// The error frame the chip sends for a syntax error, `00 00 FF 01 FF 7F 81 00`.
    @Hex package var errorFrame: [UInt8]
    /// The LEN/LCS pair that announces an extended frame, `FF FF`.
    @Hex package var extendedLengthMarker: [UInt8]
    /// The largest LEN of a normal frame (TFI + data).
    package var normalFrameMaximumLength: Int
    /// The most data bytes (after TFI and command code) the chip sends or accepts: 263, a
    /// frame of LEN 265 (AN10449 §1; nfcpy's Diagnose line test sends and gets back that many).
    package var maximumDataLength: Int
    /// The bytes a host sends to wake the chip on HSU before the first frame, `55 55`.
    @Hex package var wakeUpPreamble: [UInt8]
    /// The amount added to a command code to form the answer code (1).
    package var answerCodeIncrement: Int

    /// The length checksum for `length`: the byte that makes `length + LCS == 0` (mod 256).
    package static func lengthChecksum(_ length: UInt8) -> UInt8 { 0 &- length }

    /// The data checksum over `bytes` (TFI, command, data): makes the sum 0 (mod 256).
    package static func dataChecksum(_ bytes: [UInt8]) -> UInt8 {
        0 &- bytes.reduce(UInt8(0), &+)
    }
}

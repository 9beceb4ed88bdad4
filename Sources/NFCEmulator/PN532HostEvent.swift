/// What the frame parser found in the bytes the host sent to the emulated PN532.
///
/// ```swift
/// var parser = PN532FrameParser(spec: ChipTables.pn532.frame)
/// parser.feed([0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00])  // [.command(code: 0x02, data: [])]
/// ```
public enum PN532HostEvent: Equatable, Sendable {
    /// The HSU wake-up sequence (`55 55 00 …`) before a frame: a new session starts.
    case wakeUp
    /// A well-formed information frame from the host: command code and its data.
    case command(code: UInt8, data: [UInt8])
    /// An ACK frame from the host: after SetSerialBaudRate it confirms, otherwise it aborts
    /// the command in progress.
    case ack
    /// A NACK frame from the host: resend the last answer.
    case nack
    /// A frame that failed a check; the chip answers it with the error frame.
    case malformed(PN532FrameError)
}

/// Why a host frame was rejected, and where in the byte stream.
public struct PN532FrameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The checks a host frame must pass.
    public enum Check: String, Sendable {
        /// `LEN + LCS` (or `LENhi + LENlo + LCS`) must be 0 mod 256.
        case lengthChecksum
        /// `TFI + Σdata + DCS` must be 0 mod 256.
        case dataChecksum
        /// The frame must carry the host-to-chip TFI.
        case frameIdentifier
        /// LEN must count at least TFI and a command code, and at most the chip's maximum.
        case length
        /// The line went quiet before the frame LEN announced was complete.
        case incompleteFrame
    }

    /// Offset, in the whole stream fed to the parser, of the frame's start code.
    public var offset: Int
    /// The check that failed.
    public var check: Check
    /// What was expected, in words.
    public var expected: String

    /// Offset, failed check and expectation, e.g. `"byte 12: lengthChecksum (LEN 03 + LCS must be 0, got FC)"`.
    public var description: String { "byte \(offset): \(check.rawValue) (\(expected))" }
}

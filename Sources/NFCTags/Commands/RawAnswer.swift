/// A tag's successful answer to a raw command (a NAK is thrown as ``TagCommandError/nak(code:command:)``).
public enum RawAnswer: Sendable, Hashable {
    /// Data bytes, CRC_A already checked and removed by the reader.
    case bytes([UInt8])
    /// A 4-bit ACK (or an empty success through standard framing).
    case ack

    /// The data bytes, or `[]` for an ACK.
    public var bytes: [UInt8] {
        if case .bytes(let bytes) = self { return bytes }
        return []
    }
}

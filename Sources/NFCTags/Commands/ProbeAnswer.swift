/// What a tag answered to one identification probe.
package enum ProbeAnswer: Sendable, Hashable {
    /// Data bytes.
    case bytes([UInt8])
    /// A 4-bit ACK.
    case ack
    /// A 4-bit NAK with its code.
    case nak(UInt8)
    /// No answer (the tag stayed silent or the exchange timed out).
    case noAnswer
}

/// What an interrupted write, lock or format left on the tag, as far as the driver knows.
///
/// The driver derives it from how far its state machine got: which writes the tag
/// acknowledged and which may or may not have reached it.
///
/// ```swift
/// catch .connectionLost(_, let state) where state == .emptyMessage {
///     show("Hold the tag to the reader again to finish")
/// }
/// ```
public enum NDEFTagContentState: Sendable, Hashable, CustomStringConvertible {
    /// Nothing that changes what a reader sees was written: the tag reads as before.
    case previousMessageIntact
    /// The tag holds an empty NDEF message (length 0): the old message is gone and the
    /// new one is not committed.
    case emptyMessage
    /// The new message was committed (the tag acknowledged every write) but reading it
    /// back did not complete, so it is not verified.
    case newMessageUnverified
    /// The tag may hold the previous message, an empty one, or the new one (a write that
    /// could have changed it got no answer): read it again before anything else. The write
    /// may have been cut inside its EEPROM cycle, so the read may also find the message torn
    /// (``NDEFTagError/invalidNDEF(offset:reason:)``; writing a message repairs it) — never a
    /// valid message with wrong bytes — or, after a torn MIFARE Classic sector trailer, a
    /// sector that no longer opens (beyond repair).
    case unknown
}

extension NDEFTagContentState {
    /// `the tag holds its previous message`.
    public var description: String {
        switch self {
        case .previousMessageIntact: "the tag holds its previous message"
        case .emptyMessage: "the tag holds an empty NDEF message (write again to finish)"
        case .newMessageUnverified: "the tag holds the new message, not verified"
        case .unknown: "the tag's content is unknown — read it again before anything else"
        }
    }
}

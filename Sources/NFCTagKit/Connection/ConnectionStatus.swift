/// Where an ``NFCDevice`` stands with its reader. Read it with ``NFCDevice/status`` or
/// follow it with ``NFCDevice/statusUpdates``.
public enum ConnectionStatus: String, Sendable, Equatable, CustomStringConvertible {
    /// No reader open, and nothing under way.
    case notConnected = "not-connected"
    /// Looking for the reader to connect to (``NFCDevice/connectToLastReader(timeout:configuration:store:discovery:)``).
    case discovering
    /// Opening the reader, or reopening it during an automatic reconnection.
    case connecting
    /// The reader is open and answering.
    case connected

    /// The raw name, such as `not-connected`.
    public var description: String { rawValue }
}

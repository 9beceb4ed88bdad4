/// Where an ``NFCDevice`` stands with its reader. Read it with ``NFCDevice/status`` or
/// follow it with ``NFCDevice/statusUpdates``.
public enum ConnectionStatus: Sendable, Equatable, CustomStringConvertible {
    /// No reader open, and nothing under way.
    case notConnected
    /// Looking for the reader to connect to (``NFCDevice/connectToLastReader(timeout:configuration:store:discovery:)``).
    case discovering
    /// Opening the reader, or reopening it during an automatic reconnection.
    case connecting
    /// The reader is open and answering.
    case connected

    /// The name, such as `not-connected`.
    public var description: String {
        switch self {
        case .notConnected: "not-connected"
        case .discovering: "discovering"
        case .connecting: "connecting"
        case .connected: "connected"
        }
    }
}

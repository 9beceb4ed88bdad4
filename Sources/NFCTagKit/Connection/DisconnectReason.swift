/// Why a reader connection ended without the app asking for it.
@nonexhaustive
public enum DisconnectReason: Sendable, Equatable, CustomStringConvertible {
    /// The reader's device node (serial port, pseudo-terminal, USB address) disappeared.
    case unplugged
    /// libnfc reported an I/O error talking to the reader.
    case ioError(LibNFCError)
    /// The reader stopped answering (timeouts on the bus, failed liveness check).
    case notResponding
    /// The app called ``NFCDevice/reset()``.
    case reset

    /// The short name used in `nfctag monitor --json` (`"reason"`).
    package var name: String {
        switch self {
        case .unplugged: "unplugged"
        case .ioError: "io-error"
        case .notResponding: "not-responding"
        case .reset: "reset"
        }
    }

    /// The name plus detail where there is some.
    public var description: String {
        switch self {
        case .ioError(let error): "\(name) (\(error))"
        default: name
        }
    }
}

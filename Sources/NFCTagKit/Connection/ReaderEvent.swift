/// Something that happened to a connected reader, in order. Follow them with
/// ``NFCDevice/events`` or ``ConnectionConfiguration/eventHandler``.
///
/// With automatic reconnection an unexpected loss reads
/// `reconnectStarted → reconnectSucceeded`, or `reconnectStarted → reconnectFailed →
/// disconnected`; without it, just `disconnected`.
@nonexhaustive
public enum ReaderEvent: Sendable, CustomStringConvertible {
    /// The reader was opened by ``NFCDevice/connect(to:configuration:)``.
    case connected(ReaderInfo)
    /// The reader went away and the device is not trying (any more) to get it back.
    case disconnected(DisconnectReason)
    /// The reader went away; the device is reopening it. `cancel` stops the attempts.
    case reconnectStarted(DisconnectReason, cancel: ReconnectCancellation)
    /// The reader is back.
    case reconnectSucceeded(ReaderInfo)
    /// Reconnection gave up (attempts, timeout) or was cancelled; `disconnected` follows.
    case reconnectFailed
    /// A tag entered the field (from ``NFCDevice/watchTags(interval:identifyChips:)``), with
    /// its chip (`nil` when unknown, or when identification was off).
    case tagDetected(uid: [UInt8], chip: Chip?)
    /// The tag left the field.
    case tagRemoved(uid: [UInt8])

    /// The event name of `nfctag monitor --json`: `connected`, `disconnected`,
    /// `reconnectStarted`, `reconnectSucceeded`, `reconnectFailed`, `tagDetected`, `tagRemoved`.
    package var name: String {
        switch self {
        case .connected: "connected"
        case .disconnected: "disconnected"
        case .reconnectStarted: "reconnectStarted"
        case .reconnectSucceeded: "reconnectSucceeded"
        case .reconnectFailed: "reconnectFailed"
        case .tagDetected: "tagDetected"
        case .tagRemoved: "tagRemoved"
        }
    }

    /// The reason, for `disconnected` and `reconnectStarted`.
    public var reason: DisconnectReason? {
        switch self {
        case .disconnected(let reason), .reconnectStarted(let reason, _): reason
        default: nil
        }
    }

    /// `name` plus its detail.
    public var description: String {
        switch self {
        case .connected(let info): "connected \(info.connectionString)"
        case .disconnected(let reason): "disconnected (\(reason))"
        case .reconnectStarted(let reason, _): "reconnectStarted (\(reason))"
        case .reconnectSucceeded(let info): "reconnectSucceeded \(info.connectionString)"
        case .reconnectFailed: "reconnectFailed"
        case .tagDetected(let uid, let chip): "tagDetected \(uid.hexString()) \(chip?.rawValue ?? "unknown")"
        case .tagRemoved(let uid): "tagRemoved \(uid.hexString())"
        }
    }
}

/// Stops an automatic reconnection in progress; handed out with
/// ``ReaderEvent/reconnectStarted(_:cancel:)``. Calling ``cancel()`` more than once, or
/// after the reconnection ended, does nothing.
public final class ReconnectCancellation: Sendable {
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    /// Stops the reconnection: `reconnectFailed` then `disconnected` follow.
    public func cancel() {
        action()
    }
}

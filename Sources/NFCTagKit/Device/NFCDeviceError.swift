/// Everything that can go wrong on an ``NFCDevice``, in terms an app can act on.
///
/// ```swift
/// do {
///     let answer = try await device.transceive([0x30, 0x04])
/// } catch .connectionLost(let reason) {
///     print("reader went away: \(reason)")
/// } catch {
///     print(error)
/// }
/// ```
@nonexhaustive
public enum NFCDeviceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No reader is open on this device (never connected, or closed).
    case notConnected
    /// The reader went away during or before the call (unplugged, I/O error, stopped
    /// answering). With automatic reconnection the device may come back: watch
    /// ``NFCDevice/events``.
    case connectionLost(DisconnectReason)
    /// The reader is held by someone else (kernel `pn533` driver, `pcscd`, another program);
    /// the value names who and how to free it.
    case readerInUse(ReaderInUse)
    /// libnfc reported an error that is not a lost connection (a tag that did not answer,
    /// an RF error, a MIFARE authentication failure, …).
    case libnfc(LibNFCError)
    /// No tag was found before the timeout.
    case timeout
    /// The task was cancelled; a blocking poll was aborted.
    case cancelled
    /// No tag is selected (select one with a ``TagSession`` or a poll).
    case noTargetSelected
    /// The reader to connect to was not found before the timeout.
    case readerNotFound(String)
    /// A connection attempt is already running on this device (one at a time).
    case connectionInProgress
    /// An argument was out of range; the text says which and why.
    case invalidArgument(String)
    /// A command of `length` bytes does not fit one frame of this reader, which carries at
    /// most `maximum` (an ACR122U carries fewer than a PN532 on a UART). Nothing was sent.
    case commandTooLong(length: Int, maximum: Int)

    /// A sentence a person understands, then detail.
    public var description: String {
        switch self {
        case .notConnected: "No reader is connected."
        case .connectionLost(let reason): "The reader connection was lost: \(reason)."
        case .readerInUse(let inUse): inUse.description
        case .libnfc(let error): "libnfc error: \(error)"
        case .timeout: "No tag was found in time."
        case .cancelled: "The operation was cancelled."
        case .noTargetSelected: "No tag is selected."
        case .readerNotFound(let what): "Reader not found: \(what)."
        case .connectionInProgress: "A connection attempt is already running on this device."
        case .invalidArgument(let text): "Invalid argument: \(text)"
        case .commandTooLong(let length, let maximum):
            "The command has \(length) bytes; this reader carries at most \(maximum) in one frame. Nothing was sent."
        }
    }
}

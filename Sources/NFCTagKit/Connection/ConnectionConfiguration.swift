/// How ``NFCDevice/connect(to:configuration:)`` behaves after the reader is open.
///
/// ```swift
/// var configuration = ConnectionConfiguration()
/// configuration.reconnection.maximumAttempts = 10
/// configuration.eventHandler = { event in print(event) }   // disconnected (unplugged), …
/// try await device.connect(to: reader, configuration: configuration)
/// ```
public struct ConnectionConfiguration: Sendable {
    /// Automatic reconnection after an unexpected loss.
    public var reconnection = ReconnectionPolicy()
    /// How often an idle connection is checked (device node present, reader answering);
    /// nil checks only when the app makes a call.
    public var livenessInterval: Duration? = .milliseconds(500)
    /// Called on the device's thread for every ``ReaderEvent``, in order, in addition to
    /// ``NFCDevice/events``. Keep it short.
    public var eventHandler: (@Sendable (ReaderEvent) -> Void)?
    /// Where the reader is remembered after a successful connection, for
    /// ``NFCDevice/connectToLastReader(timeout:configuration:store:discovery:)`` at the
    /// app's next start. Off (nil) unless the app asks: `LastReaderStore()` is the user's
    /// `~/.config/nfctagkit/last-reader.json`.
    public var lastReaderStore: LastReaderStore?
    /// Where a USB reader that comes back at a new address is looked for when reopening it
    /// at the old one fails (a USB address changes on every plug-in; see
    /// ``NFCReader/relocated(among:)``). The default is this process's bus (``USBDeviceDirectory/current``): libusb's, or the one `NFCTAGKIT_USB_DEVICES` names; nil only tries the old address.
    package var usbHotPlug: (any USBHotPlugBackend)? = USBDeviceDirectory.current.hotPlugBackend()
    /// The time reconnection and liveness checks run on (tests move a manual clock on).
    package var clock = DeviceClock.continuous
    /// The defaults: automatic reconnection on, liveness every 500 ms, the reader not saved.
    public init() {}
}

/// Attempts, time limit and back-off of an automatic reconnection.
public struct ReconnectionPolicy: Sendable {
    /// Reconnect automatically (the default). Off: the app gets `disconnected` and decides.
    public var isEnabled = true
    /// How many times to try reopening the reader before giving up. Only attempts that
    /// found the reader's device node count: while the reader is still unplugged the device
    /// keeps looking for it until ``timeout``, so a reader that comes back within the time
    /// limit is reopened however long its return took.
    public var maximumAttempts = 10
    /// Give up when this much time has passed since the loss, whatever the attempt count.
    public var timeout: Duration = .seconds(30)
    /// Wait before the second attempt (the first one is immediate).
    public var initialDelay: Duration = .milliseconds(200)
    /// Each later wait is the previous one times this factor…
    public var backoffMultiplier: Double = 2
    /// …up to this ceiling.
    public var maximumDelay: Duration = .seconds(2)

    /// The defaults: on, 10 attempts, 30 s, 200 ms doubling up to 2 s.
    public init() {}

    /// The wait before attempt `attempt` (1-based); zero for the first.
    package func delay(beforeAttempt attempt: Int) -> Duration {
        guard attempt > 1 else { return .zero }
        var delay = initialDelay
        for _ in 2..<attempt {
            delay = delay * backoffMultiplier
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }
}

import NDEF
import NFCChips
import NFCTags

/// An NDEF reader session on an ``NFCDevice``, modelled on Core NFC's
/// `NFCNDEFReaderSession`: it begins, polls until the app ends it, reports every tag in
/// the field, connects to the one the app picks, and publishes short messages a CLI or
/// GUI shows to the person holding the tag.
///
/// The session runs on the device's own thread and uses the device, never a second
/// libnfc handle. A polling round, a connect and each operation hold the device's tag
/// access from their first call to their last: a ``TagSession`` on the same device (or an
/// app's ``TagSession``) waits for them, and
/// they wait for its operation, so a poll never resets the field in the middle of another
/// user's command sequence. After another user had the field, the connected tag is
/// selected again before it is used.
///
/// With more than one tag in the field the session never writes: it reports them all,
/// asks for all but one to be removed (``NDEFSessionPrompt/removeAllButOne``), refuses to
/// connect or write with ``NDEFSessionError/severalTags(count:)`` and polls again after
/// ``NDEFSessionConfiguration/restartDelay``. When the reader goes away the session
/// waits for the device's automatic reconnection and polls again.
///
/// ```swift
/// let session = NDEFSession(device: device)
/// let events = session.events                 // subscribe before begin()
/// try await session.begin()
/// for await event in events {
///     guard case .tagsDetected(let tags) = event, tags.count == 1 else { continue }
///     let tag = try await session.connect(to: tags[0])
///     try await tag.writeNDEF(NDEFMessage(records: [NDEFURIRecord(uri: "https://example.com").record]))
///     await session.invalidate()
/// }
/// ```
public actor NDEFSession {
    /// The device the session polls on.
    package nonisolated let device: NFCDevice
    /// Polling and authentication settings.
    package nonisolated let configuration: NDEFSessionConfiguration
    nonisolated let eventBroadcast = Broadcast<NDEFSessionEvent>(initial: nil)

    /// The session shares the device's thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        device.unownedExecutor
    }

    /// Where the session stands.
    public enum State: Sendable, Equatable {
        /// Created; ``NDEFSession/begin()`` not called yet.
        case ready
        /// Looking for tags.
        case polling
        /// Connected to one tag (polling paused until ``NDEFSession/restartPolling()``).
        case connected(uid: [UInt8])
        /// Ended.
        case invalidated(NDEFSessionInvalidationReason)
    }

    /// Where the session stands now.
    public internal(set) var state: State = .ready
    /// The tags in the field as the last polling round saw them.
    public internal(set) var detectedTags: [NDEFDetectedTag] = []
    /// Set by ``restartPolling()``: the next poll round reports the tags in the field even
    /// when they are the ones already known.
    var reportAllOnNextRound = false
    /// The app's message for the person holding the tag (Core NFC's `alertMessage`); set
    /// it with ``setAlertMessage(_:)``. Published as ``NDEFSessionPrompt/alert(_:)``.
    package private(set) var alertMessage = ""

    var pollTask: Task<Void, Never>?
    var pollGeneration = 0
    /// The connection whose handle works now (the handle holds the session: the session
    /// holds only this number, so a dropped session is not kept alive by its own tag).
    var connectedID: Int?
    var connectionCounter = 0
    /// One operation of this session at a time (a polling round, a connect, a tag operation).
    let gate = TagAccessGate()
    /// What identification found for each tag of the last round (the chip and the raw
    /// answers), handed to the tag session a connect makes.
    var identifications: [[UInt8]: TagIdentificationReport] = [:]
    /// Another user (a ``TagSession``, an app's exclusive block) had the field since this
    /// session's last turn: the connected tag must be selected again before it is used.
    var fieldUsedElsewhere = false
    /// Tests put a fault-injecting transport between the drivers and the device.
    var transportDecorator: (@Sendable (DeviceTagTransport) -> any TagTransport)?

    /// A session on `device`, which must be connected before ``begin()``.
    public init(device: NFCDevice, configuration: NDEFSessionConfiguration = NDEFSessionConfiguration()) {
        self.device = device
        self.configuration = configuration
    }

    /// A session dropped without ``invalidate()`` stops polling; its event stream finishes.
    deinit {
        pollTask?.cancel()
        eventBroadcast.finish()
    }

    /// The session's events from now on, in order; the stream finishes after
    /// ``NDEFSessionEvent/invalidated(_:)``. Subscribe before ``begin()`` to see every event.
    public nonisolated var events: AsyncStream<NDEFSessionEvent> {
        eventBroadcast.stream()
    }

    /// Starts polling. Throws ``NDEFSessionError/sessionInvalidated(_:)`` after the
    /// session ended; calling it while polling does nothing.
    public func begin() throws(NDEFSessionError) {
        switch state {
        case .invalidated(let reason): throw .sessionInvalidated(reason)
        case .polling, .connected: return
        case .ready: break
        }
        state = .polling
        emit(.becameActive)
        startPolling(after: .zero)
    }

    /// Ends any tag connection and polls again from scratch: every tag still in the field
    /// is reported again. Handles from earlier connections stop working.
    public func restartPolling() throws(NDEFSessionError) {
        try checkNotInvalidated()
        dropConnection()
        state = .polling
        // The tags seen so far stay known, so that one taken away meanwhile is reported
        // removed; the next round reports every tag in the field again, as a fresh start does.
        reportAllOnNextRound = true
        startPolling(after: .zero)
    }

    /// Ends the session (``NDEFSessionInvalidationReason/userCanceled``): polling stops,
    /// the tag connection ends, the event stream finishes. Idempotent.
    public func invalidate() {
        invalidate(reason: .userCanceled)
    }

    /// Sets the message for the person holding the tag and publishes it.
    public func setAlertMessage(_ text: String) {
        alertMessage = text
        emit(.prompt(.alert(text)))
    }

    /// Waits until at least one tag is in the field and returns the tags (one, or more —
    /// then the app must not expect a connection to succeed).
    ///
    /// - Parameter timeout: fail with ``NDEFSessionError/timeout(step:)`` (step `nil`) after
    ///   this long; `nil` waits until the session ends. Cancelling the calling task ends the
    ///   wait with ``NDEFSessionError/cancelled``.
    public nonisolated func waitForTags(timeout: Duration? = NFCDevice.defaultTimeout) async throws(NDEFSessionError)
        -> [NDEFDetectedTag]
    {
        let stream = events
        let result: Result<[NDEFDetectedTag], NDEFSessionError> = await withTaskGroup(
            of: Result<[NDEFDetectedTag], NDEFSessionError>?.self
        ) { group in
            group.addTask {
                if case .invalidated(let reason) = await self.state { return .failure(.sessionInvalidated(reason)) }
                // After restartPolling the tags seen before may have left: wait for the round.
                let current = await self.settledTags
                if !current.isEmpty { return .success(current) }
                for await event in stream {
                    switch event {
                    case .tagsDetected(let tags): return .success(tags)
                    case .invalidated(let reason): return .failure(.sessionInvalidated(reason))
                    default: continue
                    }
                }
                return nil
            }
            if let timeout {
                group.addTask {
                    try? await Task.sleep(for: timeout)
                    return Task.isCancelled ? nil : .failure(.timeout(step: nil))
                }
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(Task.isCancelled ? .cancelled : .timeout(step: nil))
        }
        return try result.get()
    }

    // MARK: - Internals shared by the session files

    /// Puts `decorator` between the drivers and the device for later connections (tests
    /// inject faults with it).
    func setTransportDecorator(_ decorator: (@Sendable (DeviceTagTransport) -> any TagTransport)?) {
        transportDecorator = decorator
    }

    /// Sends `event` to listeners.
    /// The tags the last round reported, or none while a fresh round is pending.
    var settledTags: [NDEFDetectedTag] { reportAllOnNextRound ? [] : detectedTags }

    func emit(_ event: NDEFSessionEvent) {
        eventBroadcast.send(event)
    }

    func checkNotInvalidated() throws(NDEFSessionError) {
        if case .invalidated(let reason) = state { throw .sessionInvalidated(reason) }
    }

    /// Ends the session with `reason` (once).
    func invalidate(reason: NDEFSessionInvalidationReason) {
        if case .invalidated = state { return }
        state = .invalidated(reason)
        pollTask?.cancel()
        pollTask = nil
        pollGeneration += 1
        dropConnection()
        detectedTags = []
        identifications = [:]
        emit(.invalidated(reason))
        eventBroadcast.finish()
    }

    /// Forgets the connected tag: its handle stops working.
    func dropConnection() {
        connectedID = nil
        connectionCounter += 1
    }

    /// The reader's loss, when the device has lost its reader.
    func readerLoss() async -> DisconnectReason? {
        await device.readerLoss()
    }
}

/// The reconnection logic of ``NFCDevice`` as a pure state machine: each input returns a
/// ``Step`` (events to emit, the status to show, what to do next) that the device actor
/// carries out. No clocks, no I/O: time comes in as elapsed durations.
struct ReconnectStateMachine: Sendable {
    /// Where the connection stands.
    enum State: Equatable, Sendable {
        /// Not connected and not trying.
        case idle
        /// Open and answering.
        case connected
        /// Lost for `reason`; attempt `attempt` (1-based) is next or running.
        case reconnecting(reason: DisconnectReason, attempt: Int)
    }

    /// An event for the app, without the values only the actor has (reader info, cancel handle).
    enum Output: Equatable, Sendable {
        case disconnected(DisconnectReason)
        case reconnectStarted(DisconnectReason)
        case reconnectSucceeded
        case reconnectFailed
    }

    /// What the actor does after an input.
    enum Next: Equatable, Sendable {
        /// Nothing more.
        case none
        /// Try to reopen the reader after this wait.
        case attempt(after: Duration)
        /// Stop any attempt in flight.
        case stopAttempts
    }

    /// One transition's result.
    struct Step: Equatable, Sendable {
        var outputs: [Output] = []
        var status: ConnectionStatus?
        var next: Next = .none
    }

    private(set) var state: State = .idle
    var policy: ReconnectionPolicy
    /// Failed attempts of this reconnection that found the reader there: what
    /// ``ReconnectionPolicy/maximumAttempts`` limits.
    private(set) var failedOpens = 0

    init(policy: ReconnectionPolicy) {
        self.policy = policy
    }

    /// The app's connect succeeded.
    mutating func connected() -> Step {
        state = .connected
        return Step(status: .connected)
    }

    /// The connection broke for `reason` (or the app asked for a reset, `reason == .reset`).
    mutating func lost(_ reason: DisconnectReason) -> Step {
        guard state == .connected else { return Step() }
        guard policy.isEnabled, policy.maximumAttempts > 0 else {
            state = .idle
            return Step(outputs: [.disconnected(reason)], status: .notConnected)
        }
        state = .reconnecting(reason: reason, attempt: 1)
        failedOpens = 0
        return Step(
            outputs: [.reconnectStarted(reason)], status: .connecting,
            next: .attempt(after: policy.delay(beforeAttempt: 1)))
    }

    /// A reopen attempt failed, `elapsed` after the loss. `readerPresent` false: the reader's
    /// device node was not there (still unplugged); such attempts do not use up
    /// ``ReconnectionPolicy/maximumAttempts`` — only the time limit ends the wait for a reader
    /// to come back, however slowly it does (a busy machine, a slow USB enumeration).
    mutating func attemptFailed(elapsed: Duration, readerPresent: Bool = true) -> Step {
        guard case .reconnecting(let reason, let attempt) = state else { return Step() }
        let nextDelay = policy.delay(beforeAttempt: attempt + 1)
        if readerPresent { failedOpens += 1 }
        if failedOpens >= policy.maximumAttempts || elapsed + nextDelay >= policy.timeout {
            state = .idle
            return Step(outputs: [.reconnectFailed, .disconnected(reason)], status: .notConnected, next: .stopAttempts)
        }
        state = .reconnecting(reason: reason, attempt: attempt + 1)
        return Step(next: .attempt(after: nextDelay))
    }

    /// A reopen attempt succeeded.
    mutating func attemptSucceeded() -> Step {
        guard case .reconnecting = state else { return Step() }
        state = .connected
        return Step(outputs: [.reconnectSucceeded], status: .connected)
    }

    /// The app cancelled the reconnection.
    mutating func cancel() -> Step {
        guard case .reconnecting(let reason, _) = state else { return Step() }
        state = .idle
        return Step(outputs: [.reconnectFailed, .disconnected(reason)], status: .notConnected, next: .stopAttempts)
    }

    /// The app closed the device: no events, attempts stop.
    mutating func closed() -> Step {
        let wasReconnecting = if case .reconnecting = state { true } else { false }
        state = .idle
        return Step(status: .notConnected, next: wasReconnecting ? .stopAttempts : .none)
    }
}

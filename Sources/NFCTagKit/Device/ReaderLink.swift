/// The device's link to its reader: the open libnfc device and its UART port, the
/// connection's configuration, and the state of reconnection and liveness that keep the
/// link up. ``NFCDevice`` owns one; its `+Connection` and `+Calls` extensions act on it.
struct ReaderLink {
    /// The open libnfc device, or nil when the reader is closed or lost.
    var handle: LibNFCDeviceHandle?
    /// The UART reader switched to a faster speed, switched back when it is closed.
    var switchedPort: SwitchedPort?
    /// This process's claim on the open UART reader's port, released after it is closed.
    var portLock: SerialPortLock?
    var configuration = ConnectionConfiguration()
    var machine = ReconnectStateMachine(policy: ReconnectionPolicy())
    /// Why the reader was last lost, and when.
    var lastLoss: DisconnectReason?
    var lostAt: ContinuousClock.Instant?
    /// The last exchange with the reader: liveness checks only a link that stayed quiet.
    var lastActivity = ContinuousClock.now
    /// Counts opens and closes, so that a reconnection or liveness task of an older link stops.
    var generation: UInt64 = 0
    var connectInProgress = false
    var reconnectTask: Task<Void, Never>?
    var livenessTask: Task<Void, Never>?
    /// Calls inside libnfc right now, and the most ever seen (test probe for serialization).
    var callsInFlight = 0
    var mostCallsInFlight = 0
}

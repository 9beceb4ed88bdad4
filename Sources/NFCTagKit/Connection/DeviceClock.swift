/// The time an ``NFCDevice``'s reconnection and liveness checks run on: when the reader was
/// lost, how long the reconnection has taken, the pause before the next attempt, how long the
/// connection has been idle. The continuous clock by default; tests put a ``ManualClock`` in
/// ``ConnectionConfiguration/clock`` and move it on, instead of waiting for the real time
/// limits.
package struct DeviceClock: Sendable {
    /// The current instant.
    package let now: @Sendable () -> ContinuousClock.Instant
    /// Suspends for `duration`; throws when the task is cancelled.
    package let sleep: @Sendable (Duration) async throws -> Void

    package init(
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        sleep: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.now = now
        self.sleep = sleep
    }

    /// The real time.
    package static let continuous = DeviceClock(now: { .now }, sleep: { try await Task.sleep(for: $0) })
}

/// One operation at a time on a session: a polling round, a connect, or a tag operation
/// holds the gate from its first device call to its last, so that a write never
/// interleaves with a poll that resets the field. Waiters are served in arrival order.
/// Kept inside the ``NDEFSession`` actor, which acquires and releases it.
struct NDEFSessionGate {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Takes the gate when it is free.
    mutating func tryAcquire() -> Bool {
        if busy { return false }
        busy = true
        return true
    }

    /// Queues a waiter; ``release()`` hands it the gate.
    mutating func enqueue(_ waiter: CheckedContinuation<Void, Never>) {
        waiters.append(waiter)
    }

    /// Frees the gate, or returns the next waiter, which now holds it (resume it).
    mutating func release() -> CheckedContinuation<Void, Never>? {
        if waiters.isEmpty {
            busy = false
            return nil
        }
        return waiters.removeFirst()
    }
}

extension NDEFSession {
    /// Waits for the gate, then holds it until ``releaseGate()``.
    func acquireGate() async {
        if gate.tryAcquire() { return }
        await withCheckedContinuation { gate.enqueue($0) }
    }

    /// Hands the gate on.
    func releaseGate() {
        gate.release()?.resume()
    }
}

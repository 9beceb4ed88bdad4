/// One operation at a time on a session: a polling round, a connect, or a tag operation
/// holds the gate from its first device call to its last, so that a write never
/// interleaves with a poll that resets the field. Waiters are served in arrival order.
/// Kept inside the ``NDEFSession`` actor, which acquires and releases it; whoever holds it
/// then takes the device's ``TagAccessGate`` too, so that other sessions on the device
/// (a ``TagSession``, another NDEF session) wait as well.
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
    /// Waits for the session's gate, then for the device's tag access, and holds both until
    /// ``releaseGate()``. When another user had the field since this session's last turn,
    /// ``fieldUsedElsewhere`` is set so that the next operation selects its tag again.
    func acquireGate() async {
        if !gate.tryAcquire() {
            await withCheckedContinuation { gate.enqueue($0) }
        }
        if await device.tagAccess.acquire(owner: self) { fieldUsedElsewhere = true }
    }

    /// Hands the device's tag access and the session's gate on.
    func releaseGate() {
        device.tagAccess.release()
        gate.release()?.resume()
    }
}

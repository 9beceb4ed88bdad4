internal import Locking

/// One user of the tag at a time on a device: an ``NDEFSession`` polling round or
/// operation, a ``TagSession`` command or multi-command operation (dump, restore,
/// protect), or an app's own ``NFCDevice/withExclusiveTagAccess(isolation:_:)`` block
/// holds the gate from its first device call to its last, so that a poll never resets the
/// field in the middle of another user's command sequence. Waiters are served in arrival
/// order.
///
/// The gate also remembers who held it last, so that a user can tell that someone else
/// used the field since its own last turn (the tag may have been reset, deselected or left
/// authenticated with other keys) and select its tag again first.
final class TagAccessGate: Sendable {
    private struct State {
        var holder: ObjectIdentifier?
        var lastHolder: ObjectIdentifier?
        var waiters: [(owner: ObjectIdentifier?, continuation: CheckedContinuation<Bool, Never>)] = []
        var busy = false

        /// Hands the gate to `owner`; returns whether someone else held it since `owner`'s last turn.
        mutating func grant(to owner: ObjectIdentifier?) -> Bool {
            busy = true
            holder = owner
            return lastHolder != nil && lastHolder != owner
        }
    }

    private let state = Locked(State())

    /// Waits for the gate and holds it until ``release()``.
    ///
    /// - Parameter owner: who takes it (a session), or `nil` for an anonymous user.
    /// - Returns: `true` when another user held the gate since `owner`'s last turn (or
    ///   since the gate was last held by anyone, for an anonymous user).
    @discardableResult
    func acquire(owner: AnyObject?) async -> Bool {
        let id = owner.map(ObjectIdentifier.init)
        return await withCheckedContinuation { continuation in
            let granted: Bool? = state.withLock { state in
                if state.busy {
                    state.waiters.append((id, continuation))
                    return nil
                }
                return state.grant(to: id)
            }
            if let granted { continuation.resume(returning: granted) }
        }
    }

    /// Frees the gate, or hands it to the next waiter.
    func release() {
        let next: (CheckedContinuation<Bool, Never>, Bool)? = state.withLock { state in
            state.lastHolder = state.holder ?? ObjectIdentifier(TagAccessGate.self)
            state.holder = nil
            guard !state.waiters.isEmpty else {
                state.busy = false
                return nil
            }
            let waiter = state.waiters.removeFirst()
            return (waiter.continuation, state.grant(to: waiter.owner))
        }
        if let (continuation, interrupted) = next { continuation.resume(returning: interrupted) }
    }
}

extension NFCDevice {
    /// Runs `body` as the only user of the tag on this device: no ``NDEFSession`` poll or
    /// operation and no ``TagSession`` command runs until `body` returns (they wait; `body`
    /// waits for theirs in the same way). Use it around a sequence of raw
    /// ``transceive(_:framing:timeout:)`` calls that must not be interleaved, such as an
    /// authentication followed by the reads it opens.
    ///
    /// Do not call it again (nor a session operation on this device) from inside `body`:
    /// the gate is not re-entrant.
    ///
    /// ```swift
    /// let pages = try await device.withExclusiveTagAccess {
    ///     _ = try await device.transceive(authenticate)
    ///     return try await device.transceive(read)
    /// }
    /// ```
    package func withExclusiveTagAccess<Result, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        await tagAccess.acquire(owner: nil)
        defer { tagAccess.release() }
        return try await body()
    }
}

internal import Locking

/// One user of the tag at a time on a device: an ``NDEFSession`` polling round or
/// operation, a ``TagSession`` command or multi-command operation (dump, restore,
/// protect), or an app's own ``NFCDevice/withExclusiveTagAccess(isolation:_:)`` block
/// holds the gate from its first device call to its last, so that a poll never resets the
/// field in the middle of another user's command sequence. Waiters are served in arrival
/// order. The same gate, one per ``NDEFSession``, keeps that session's own operations in
/// line.
///
/// A waiter never hangs: cancelling its task ends the wait at once
/// (``WaitFailure/cancelled``), and a wait longer than ``waitLimit`` ends with
/// ``WaitFailure/timedOut(holder:)``, which names who holds the gate and for how long.
///
/// The gate also remembers who held it last, so that a user can tell that someone else
/// used the field since its own last turn (the tag may have been reset, deselected or left
/// authenticated with other keys) and select its tag again first.
package final class TagAccessGate: Sendable {
    /// Why a wait ended without the gate.
    package enum WaitFailure: Error, Equatable {
        /// The waiting task was cancelled.
        case cancelled
        /// The gate stayed held past the wait limit; `holder` says by whom, and since when.
        case timedOut(holder: String)
    }

    private struct Waiter {
        let ticket: UInt64
        let owner: ObjectIdentifier?
        let purpose: String
        let continuation: CheckedContinuation<Bool, any Error>
    }

    private struct State {
        var holder: (owner: ObjectIdentifier?, purpose: String, since: ContinuousClock.Instant)?
        var lastHolder: ObjectIdentifier?
        var waiters: [Waiter] = []
        var nextTicket: UInt64 = 0
        var waitLimit: Duration?

        /// Hands the gate to `owner`; returns whether someone else held it since `owner`'s last turn.
        mutating func grant(to owner: ObjectIdentifier?, purpose: String) -> Bool {
            holder = (owner, purpose, .now)
            return lastHolder != nil && lastHolder != owner
        }

        /// Takes the waiter with `ticket` out of the queue (it gave up).
        mutating func remove(_ ticket: UInt64) -> CheckedContinuation<Bool, any Error>? {
            guard let index = waiters.firstIndex(where: { $0.ticket == ticket }) else { return nil }
            return waiters.remove(at: index).continuation
        }

        var holderDescription: String {
            guard let holder else { return "nobody" }
            let held = (ContinuousClock.now - holder.since).components
            let milliseconds = held.seconds * 1000 + held.attoseconds / 1_000_000_000_000_000
            return "held by \(holder.purpose) for \(milliseconds) ms"
        }
    }

    private let state: Locked<State>

    /// - Parameter waitLimit: how long a waiter waits before ``WaitFailure/timedOut(holder:)``
    ///   (`nil`: until cancelled).
    package init(waitLimit: Duration? = TagAccessGate.defaultWaitLimit) {
        state = Locked(State(waitLimit: waitLimit))
    }

    /// Longer than any one operation a user holds the gate for (the longest, a full
    /// DESFire or Classic 4K dump at 106 kbit/s, takes a few seconds).
    package static let defaultWaitLimit: Duration = .seconds(30)

    /// How long a waiter waits before it gives up (`nil`: until cancelled).
    package var waitLimit: Duration? {
        get { state.withLock { $0.waitLimit } }
        set { state.withLock { $0.waitLimit = newValue } }
    }

    /// Who holds the gate and since when, or "nobody".
    var holderDescription: String { state.withLock { $0.holderDescription } }

    /// Whether someone holds the gate, and how many wait for it.
    package var occupancy: (held: Bool, waiters: Int) { state.withLock { ($0.holder != nil, $0.waiters.count) } }

    /// Waits for the gate and holds it until ``release()``.
    ///
    /// - Parameters:
    ///   - owner: who takes it (a session), or `nil` for an anonymous user.
    ///   - purpose: what it is taken for, named to a waiter that times out.
    ///   - limited: whether ``waitLimit`` applies (a polling loop, which its owner
    ///     cancels, waits as long as it takes).
    /// - Returns: `true` when another user held the gate since `owner`'s last turn (or
    ///   since the gate was last held by anyone, for an anonymous user).
    /// - Throws: ``WaitFailure``; the gate is not held then.
    @discardableResult
    package func acquire(owner: AnyObject?, purpose: String, limited: Bool = true) async throws(WaitFailure) -> Bool {
        let id = owner.map(ObjectIdentifier.init)
        let (ticket, limit) = state.withLock { state in
            state.nextTicket += 1
            return (state.nextTicket, limited ? state.waitLimit : nil)
        }
        let timer = limit.map { limit in
            Task { [weak self] in
                try? await Task.sleep(for: limit)
                guard !Task.isCancelled, let self else { return }
                let (waiter, holder) = self.state.withLock { ($0.remove(ticket), $0.holderDescription) }
                waiter?.resume(throwing: WaitFailure.timedOut(holder: holder))
            }
        }
        defer { timer?.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    // Under the lock: a cancellation either comes first (the flag is set
                    // before the handler runs) or finds the waiter in the queue.
                    let granted: Result<Bool, WaitFailure>? = state.withLock { state in
                        if Task.isCancelled { return .failure(.cancelled) }
                        if state.holder == nil, state.waiters.isEmpty {
                            return .success(state.grant(to: id, purpose: purpose))
                        }
                        state.waiters.append(
                            Waiter(ticket: ticket, owner: id, purpose: purpose, continuation: continuation))
                        return nil
                    }
                    if let granted { continuation.resume(with: granted.mapError { $0 as any Error }) }
                }
            } onCancel: {
                state.withLock { $0.remove(ticket) }?.resume(throwing: WaitFailure.cancelled)
            }
        } catch let failure as WaitFailure {
            throw failure
        } catch {
            preconditionFailure("the gate resumes waiters with WaitFailure only: \(error)")
        }
    }

    /// Frees the gate, or hands it to the next waiter.
    package func release() {
        let next: (CheckedContinuation<Bool, any Error>, Bool)? = state.withLock { state in
            state.lastHolder = state.holder?.owner ?? ObjectIdentifier(TagAccessGate.self)
            state.holder = nil
            guard !state.waiters.isEmpty else { return nil }
            let waiter = state.waiters.removeFirst()
            return (waiter.continuation, state.grant(to: waiter.owner, purpose: waiter.purpose))
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
    ///
    /// - Parameters:
    ///   - purpose: what the block does, named to a user that waits too long behind it.
    ///   - busy: the error to throw when the wait is cancelled or times out.
    package func withExclusiveTagAccess<Result, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        purpose: String = "an exclusive tag access block",
        busy: (TagAccessGate.WaitFailure) -> Failure,
        _ body: () async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        do {
            try await tagAccess.acquire(owner: nil, purpose: purpose)
        } catch {
            throw busy(error)
        }
        defer { tagAccess.release() }
        return try await body()
    }
}

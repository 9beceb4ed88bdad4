import Locking
@testable import NFCTagKit

/// A clock that moves only when it is told to (``advance(by:)``), for tests of what happens
/// over time — back-off, time limits, liveness — without waiting for it. A sleeper is woken
/// when the clock passes its deadline; ``sleepers`` lets a test wait until the code under
/// test has gone to sleep before it moves the clock on.
final class ManualClock: Sendable {
    private struct Sleeper {
        let id: UInt64
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var elapsed: Duration = .zero
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
    }

    private let origin = ContinuousClock.now
    private let state = Locked(State())

    init() {}

    /// How far the clock has been moved on.
    var elapsed: Duration { state.withLock { $0.elapsed } }

    /// How many tasks sleep on the clock now.
    var sleepers: Int { state.withLock { $0.sleepers.count } }

    /// The clock as a device's clock.
    var deviceClock: DeviceClock {
        DeviceClock(now: { [self] in origin + elapsed }, sleep: { [self] in try await sleep(for: $0) })
    }

    /// Moves the clock on by `duration`, waking every sleeper whose deadline it passes.
    func advance(by duration: Duration) {
        let woken: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            state.elapsed += duration
            let now = state.elapsed
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Suspends until the clock has been moved `duration` past now; throws
    /// `CancellationError` when the task is cancelled first.
    func sleep(for duration: Duration) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if duration <= .zero { return .success(()) }
                    state.sleepers.append(
                        Sleeper(id: id, deadline: state.elapsed + duration, continuation: continuation))
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }
}

extension ManualClock {
    /// Waits until something sleeps on the clock (the device scheduled its next attempt or
    /// check), then moves the clock on by `step`; repeats until `done` holds.
    func run(by step: Duration, until done: () async -> Bool) async {
        while await !done() {
            while sleepers == 0 {
                if await done() { return }
                await Task.yield()
            }
            advance(by: step)
        }
    }
}

internal import Locking

/// Fans one stream of values out to any number of `AsyncStream` listeners. With a latest
/// value (status), a new listener first gets the current value. Values are sent from one
/// place (the device actor), so every listener sees them in the same order.
final class Broadcast<Element: Sendable>: Sendable {
    private struct State {
        var listeners: [Int: AsyncStream<Element>.Continuation] = [:]
        var nextID = 0
        var latest: Element?
        var finished = false
    }

    private let state: Locked<State>
    private let replaysLatest: Bool

    /// `initial` non-nil makes the broadcast replay its latest value to new listeners.
    init(initial: Element?) {
        state = Locked(State(latest: initial))
        replaysLatest = initial != nil
    }

    /// The last value sent (or the initial one).
    var latest: Element? { state.withLock { $0.latest } }

    /// A new listener: the current value first when replaying, then every later value.
    func stream() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
        let id: Int? = state.withLock { state in
            if state.finished { return nil }
            let id = state.nextID
            state.nextID += 1
            state.listeners[id] = continuation
            if replaysLatest, let latest = state.latest { continuation.yield(latest) }
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends `value` to every listener and remembers it as the latest.
    func send(_ value: Element) {
        let listeners = state.withLock { state -> [AsyncStream<Element>.Continuation] in
            state.latest = value
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield(value) }
    }

    /// Ends every stream.
    func finish() {
        let listeners = state.withLock { state -> [AsyncStream<Element>.Continuation] in
            state.finished = true
            defer { state.listeners.removeAll() }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }
}

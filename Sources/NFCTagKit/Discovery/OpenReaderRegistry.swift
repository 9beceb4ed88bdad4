internal import Locking

/// The readers open in this process, by connection string. Discovery reports them as
/// present without probing (a second open would fail: libnfc claims the port), and a
/// connection to a reader another ``NFCDevice`` holds is refused with a clear error.
final class OpenReaderRegistry: Sendable {
    /// The process-wide registry.
    static let shared = OpenReaderRegistry()

    private struct State {
        var readers: [String: ReaderInfo] = [:]
        var closeWaiters: [String: [CheckedContinuation<Void, Never>]] = [:]
    }

    private let state = Locked(State())

    /// Records `info` as open. Returns false if the connection string is already open.
    func insert(_ info: ReaderInfo) -> Bool {
        state.withLock { state in
            if state.readers[info.connectionString] != nil { return false }
            state.readers[info.connectionString] = info
            return true
        }
    }

    /// Forgets `connectionString`.
    func remove(_ connectionString: String) {
        let waiters = state.withLock { state in
            state.readers.removeValue(forKey: connectionString)
            return state.closeWaiters.removeValue(forKey: connectionString) ?? []
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once `connectionString` is not open here (a released ``NFCDevice`` closes
    /// its reader on its own thread, after the release).
    func waitUntilClosed(_ connectionString: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state in
                guard state.readers[connectionString] != nil else { return false }
                state.closeWaiters[connectionString, default: []].append(continuation)
                return true
            }
            if !open { continuation.resume() }
        }
    }

    /// The info of an open reader.
    func info(for connectionString: String) -> ReaderInfo? {
        state.withLock { $0.readers[connectionString] }
    }

    /// True when `connectionString` is open here.
    func contains(_ connectionString: String) -> Bool {
        info(for: connectionString) != nil
    }
}

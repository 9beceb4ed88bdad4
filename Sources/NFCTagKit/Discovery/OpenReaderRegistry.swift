internal import Locking

/// The readers open in this process, by connection string. Discovery reports them as
/// present without probing (a second open would fail: libnfc claims the port), and a
/// connection to a reader another ``NFCDevice`` holds is refused with a clear error.
final class OpenReaderRegistry: Sendable {
    /// The process-wide registry.
    static let shared = OpenReaderRegistry()

    private let readers = Locked<[String: ReaderInfo]>([:])

    /// Records `info` as open. Returns false if the connection string is already open.
    func insert(_ info: ReaderInfo) -> Bool {
        readers.withLock { readers in
            if readers[info.connectionString] != nil { return false }
            readers[info.connectionString] = info
            return true
        }
    }

    /// Forgets `connectionString`.
    func remove(_ connectionString: String) {
        _ = readers.withLock { $0.removeValue(forKey: connectionString) }
    }

    /// The info of an open reader.
    func info(for connectionString: String) -> ReaderInfo? {
        readers.withLock { $0[connectionString] }
    }

    /// True when `connectionString` is open here.
    func contains(_ connectionString: String) -> Bool {
        info(for: connectionString) != nil
    }
}

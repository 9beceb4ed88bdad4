import Foundation

/// Reads a child process's pipe on a thread of its own until end of file, handing each
/// chunk to `consume`.
///
/// Not `FileHandle.readabilityHandler`: that is a libdispatch read source, and clearing it
/// then closing the pipe (as a test's clean-up must) let libdispatch's event loop meet a
/// descriptor already closed and reused by a test running beside it — the test process
/// crashed in `_dispatch_event_loop_drain` (a CI run of 2026-12-07). A blocking read on a
/// thread ends by itself when the child exits, and the handle closes when the thread is done.
///
/// ```swift
/// PipeReader.start(pipe.fileHandleForReading, ended: { done.withLock { $0 = true } }) { data in
///     lines.append(data)
/// }
/// ```
public enum PipeReader {
    /// Starts the thread; `ended` runs once end of file was read (every chunk consumed).
    public static func start(
        _ handle: FileHandle, ended: @escaping @Sendable () -> Void = {},
        _ consume: @escaping @Sendable (Data) -> Void
    ) {
        let thread = Thread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                consume(data)
            }
            ended()
        }
        thread.name = "pipe reader"
        thread.start()
    }
}

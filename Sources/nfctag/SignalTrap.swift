import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Turns Ctrl-C (SIGINT) and SIGTERM into task cancellation, so that streaming commands
/// end cleanly: the reader is closed (a USB reader left open by a killed process is a
/// classic way to wedge it) and a summary can be printed.
final class SignalTrap {
    private let sources: [any DispatchSourceSignal]

    /// Calls `action` on SIGINT or SIGTERM until ``release()``.
    init(_ action: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: action)
            source.resume()
            return source
        }
    }

    /// Restores the default handlers.
    func release() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

extension Task where Failure == Never {
    /// Waits for the task; SIGINT / SIGTERM cancel it meanwhile.
    func valueCancellingOnSignal() async -> Success {
        let trap = SignalTrap { self.cancel() }
        defer { trap.release() }
        return await value
    }
}

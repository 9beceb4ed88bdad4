import Dispatch
import Locking

#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT (Ctrl-C), SIGTERM and SIGHUP into task cancellation, so that streaming
/// commands end cleanly: the reader is closed (a USB reader left open by a killed process is a
/// classic way to wedge it), a summary is printed, and the tool exits as the shells expect of
/// a command a signal stopped — 128 + the signal: 130, 143 or 129 (``exitCode``).
final class SignalTrap {
    private let sources: [any DispatchSourceSignal]
    private static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    /// The first signal a trap that sets the exit status caught.
    private static let caught = Locked<Int32?>(nil)

    /// Calls `action` with the signal on SIGINT, SIGTERM or SIGHUP until ``release()``. With
    /// `setsExitStatus` (the default) the tool then exits with ``exitCode``; a server such as
    /// `emulate`, which a signal is the normal way to end, passes false.
    init(setsExitStatus: Bool = true, _ action: @escaping @Sendable (Int32) -> Void) {
        sources = Self.handled.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if setsExitStatus { Self.caught.withLock { $0 = $0 ?? number } }
                action(number)
            }
            source.resume()
            return source
        }
    }

    /// Restores the default handlers.
    func release() {
        for source in sources { source.cancel() }
        for number in Self.handled { signal(number, SIG_DFL) }
    }

    /// 128 + the signal that stopped the command (130 SIGINT, 143 SIGTERM, 129 SIGHUP), or nil.
    static var exitCode: Int32? { caught.withLock { $0 }.map { 128 + $0 } }
}

extension Task where Failure == Never {
    /// Waits for the task; SIGINT / SIGTERM / SIGHUP cancel it meanwhile.
    func valueCancellingOnSignal() async -> Success {
        let trap = SignalTrap { _ in self.cancel() }
        defer { trap.release() }
        return await value
    }
}

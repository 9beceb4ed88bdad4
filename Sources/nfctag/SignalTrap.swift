import Dispatch
import Locking

#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT (Ctrl-C), SIGTERM and SIGHUP into an orderly stop: the command ends at its
/// next consistent point (a write under way finishes; a wait for a tag or a reader ends), the
/// reader is closed (its UART speed set back; a USB reader left open by a killed process is a
/// classic way to wedge it), what was done is printed, and the tool exits as the shells expect
/// of a command a signal stopped — 128 + the signal: 130, 143 or 129 (``exitCode``).
///
/// Traps nest: the innermost one in force gets the signal (`main` cancels the whole command;
/// `provision` stops between tags; `emulate` ends its service).
final class SignalTrap: Sendable {
    private struct State {
        var traps: [(id: ObjectIdentifier, action: @Sendable (Int32) -> Void, setsExitStatus: Bool)] = []
        var caught: Int32?
        var sources: [any DispatchSourceSignal] = []
    }

    private static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private static let state = Locked(State())

    /// Calls `action` with the signal on SIGINT, SIGTERM or SIGHUP until ``release()``, in place
    /// of any trap set before. With `setsExitStatus` (the default) the tool then exits with
    /// ``exitCode``; a server such as `emulate`, which a signal is the normal way to end, passes false.
    init(setsExitStatus: Bool = true, _ action: @escaping @Sendable (Int32) -> Void) {
        let id = ObjectIdentifier(self)
        Self.state.withLock { state in
            if state.sources.isEmpty {
                state.sources = Self.handled.map { number in
                    signal(number, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                    source.setEventHandler { SignalTrap.deliver(number) }
                    source.resume()
                    return source
                }
            }
            state.traps.append((id, action, setsExitStatus))
        }
    }

    /// Ends this trap; with none left, the default handlers are back.
    func release() {
        let id = ObjectIdentifier(self)
        Self.state.withLock { state in
            state.traps.removeAll { $0.id == id }
            guard state.traps.isEmpty else { return }
            for source in state.sources { source.cancel() }
            state.sources = []
            for number in Self.handled { signal(number, SIG_DFL) }
        }
    }

    /// 128 + the signal that stopped the command (130 SIGINT, 143 SIGTERM, 129 SIGHUP), or nil.
    static var exitCode: Int32? { state.withLock { $0.caught }.map { 128 + $0 } }

    private static func deliver(_ number: Int32) {
        let action: (@Sendable (Int32) -> Void)? = state.withLock { state in
            guard let innermost = state.traps.last else { return nil }
            if innermost.setsExitStatus, state.caught == nil { state.caught = number }
            return innermost.action
        }
        action?(number)
    }
}

extension Task where Failure == Never {
    /// Waits for the task; SIGINT / SIGTERM / SIGHUP cancel it meanwhile.
    func valueCancellingOnSignal() async -> Success {
        let trap = SignalTrap { _ in self.cancel() }
        defer { trap.release() }
        return await value
    }
}

import Foundation
import Glibc

/// One plugged-in period of the emulated reader: a pseudo-terminal and the dedicated
/// thread that reads its master side with `poll` and hands the bytes to a handler.
///
/// Invariants that make the unchecked `Sendable` sound: the pseudo-terminal is read and
/// written only by the reader thread or under the emulator's lock, and it is closed only
/// by ``stop()`` after the thread has exited.
final class SerialSession: @unchecked Sendable {
    /// How long `poll` waits before the loop looks at idle housekeeping, in milliseconds.
    static let pollInterval: Int32 = 100
    /// Idle polls after which libnfc's claim flag is cleared when no client has the port
    /// open any more (a client that died).
    static let idlePollsBeforeReleasingClaim = 10

    let terminal: PseudoTerminal
    /// A pipe whose read end wakes the thread's `poll` when ``stop()`` writes a byte.
    private let wakeDescriptors: (read: Int32, write: Int32)
    private let finished = DispatchSemaphore(value: 0)
    private var thread: Thread?
    private var isStopped = false

    /// Opens the pseudo-terminal (and link); the thread starts with ``start(handler:)``.
    init(link: String?) throws(PseudoTerminalError) {
        terminal = try PseudoTerminal(link: link)
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            let error = PseudoTerminalError("pipe")
            terminal.close()
            throw error
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wakeDescriptors = (pipeEnds[0], pipeEnds[1])
    }

    deinit {
        stop()
    }

    /// Starts the reader thread; `handler` gets each chunk read and the terminal to answer
    /// on; `idle` runs once the line has been quiet for one poll interval after input;
    /// `discarded` runs when the client flushed bytes it wrote before they were read.
    func start(
        handler: @escaping @Sendable ([UInt8], PseudoTerminal) -> Void,
        idle: @escaping @Sendable (PseudoTerminal) -> Void = { _ in },
        discarded: @escaping @Sendable (PseudoTerminal) -> Void = { _ in }
    ) {
        let thread = Thread { [self] in
            run(handler: handler, idle: idle, discarded: discarded)
            finished.signal()
        }
        thread.name = "PN532Emulator \(terminal.slavePath)"
        self.thread = thread
        thread.start()
    }

    private func run(
        handler: @Sendable ([UInt8], PseudoTerminal) -> Void, idle: @Sendable (PseudoTerminal) -> Void,
        discarded: @Sendable (PseudoTerminal) -> Void
    ) {
        var idlePolls = 0
        while true {
            var entries = [
                pollfd(fd: terminal.masterDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeDescriptors.read, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&entries, 2, Self.pollInterval)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if entries[1].revents != 0 { return }
            if entries[0].revents & Int16(POLLIN) != 0 {
                idlePolls = 0
                guard let chunk = try? terminal.readChunk() else { return }
                if chunk.clientDiscardedOutput { discarded(terminal) }
                if !chunk.bytes.isEmpty { handler(chunk.bytes, terminal) }
            } else if entries[0].revents & Int16(POLLERR | POLLNVAL) != 0 {
                return
            } else {
                idlePolls += 1
                if idlePolls == 1 { idle(terminal) }
                if idlePolls >= Self.idlePollsBeforeReleasingClaim {
                    idlePolls = 0
                    terminal.releaseClaim()
                }
            }
        }
    }

    /// Stops the thread, waits for it, and closes the pseudo-terminal. Idempotent.
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        if thread != nil {
            var one: UInt8 = 1
            _ = Glibc.write(wakeDescriptors.write, &one, 1)
            finished.wait()
            thread = nil
        }
        Glibc.close(wakeDescriptors.read)
        Glibc.close(wakeDescriptors.write)
        terminal.close()
    }
}

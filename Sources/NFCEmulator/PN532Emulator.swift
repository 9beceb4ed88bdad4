import Glibc
import NFCChips
import Synchronization

/// An emulated PN532 reader on a pseudo-terminal that unmodified libnfc drives.
///
/// Give it tag models, start it, and open ``connectionString`` with libnfc (or set
/// `LIBNFC_DEVICE` to it for libnfc's tools). Tags can enter and leave the field while it
/// runs, and the reader can be unplugged and plugged in again.
///
/// ```swift
/// let emulator = try PN532Emulator(tags: [try Type2Tag(chip: .ntag215, uid: uid)])
/// try emulator.start()
/// defer { emulator.stop() }
/// // nfc_open(context, emulator.connectionString) …
/// ```
public final class PN532Emulator: Sendable {
    private struct State: ~Copyable {
        var controller: PN532Controller
        var session: SerialSession?
        var isRunning = false
    }

    private let state: Mutex<State>
    /// The stable path asked for, if any.
    public let link: String?
    private let clientPath: Mutex<String>

    /// Opens a pseudo-terminal (and `link`, a symbolic link to it) with `tags` in the field.
    public init(tags: [any EmulatedTag], link: String? = nil) throws(PseudoTerminalError) {
        let session = try SerialSession(link: link)
        self.link = link
        clientPath = Mutex(session.terminal.clientPath)
        state = Mutex(State(controller: PN532Controller(field: Field(tags: tags)), session: session))
    }

    deinit { stop() }

    /// What libnfc should open: `pn532_uart:/dev/pts/N`, or `pn532_uart:` + the link.
    public var connectionString: String { "pn532_uart:" + clientPath.withLock { $0 } }

    /// The slave device or link path alone.
    public var devicePath: String { clientPath.withLock { $0 } }

    /// Starts answering on the pseudo-terminal. Throws after ``stop()``.
    public func start() throws(PseudoTerminalError) {
        let session: SerialSession? = state.withLock { state in
            guard !state.isRunning, let session = state.session else { return nil }
            state.isRunning = true
            return session
        }
        guard let session else {
            if state.withLock({ $0.isRunning }) { return }
            throw PseudoTerminalError("start after stop", code: EBADF)
        }
        session.start { [weak self] bytes, terminal in self?.answer(bytes, on: terminal) }
    }

    /// Stops the thread and closes the pseudo-terminal; clients see I/O errors.
    public func stop() {
        let session = state.withLock { state -> SerialSession? in
            state.isRunning = false
            defer { state.session = nil }
            return state.session
        }
        session?.stop()
    }

    /// Pulls the reader out: the pseudo-terminal closes (clients get I/O errors) and the
    /// link disappears. Tags and their memory stay.
    public func unplug() {
        let session = state.withLock { state -> SerialSession? in
            defer { state.session = nil }
            return state.session
        }
        session?.stop()
    }

    /// Plugs the reader in again: a new pseudo-terminal behind the same link, a chip at
    /// power-on, the same tags. Starts answering if the emulator was started.
    public func plug() throws(PseudoTerminalError) {
        let session = try SerialSession(link: link)
        clientPath.withLock { $0 = session.terminal.clientPath }
        let (old, running) = state.withLock { state -> (SerialSession?, Bool) in
            let old = state.session
            state.session = session
            var field = state.controller.field
            field.setPower(false)
            state.controller = PN532Controller(field: field)
            return (old, state.isRunning)
        }
        old?.stop()
        if running { session.start { [weak self] bytes, terminal in self?.answer(bytes, on: terminal) } }
    }

    /// Counters and modelled time since the last plug-in.
    public var statistics: EmulatorStatistics { state.withLock { $0.controller.statistics } }

    /// Puts a tag into the field; a waiting InAutoPoll answers at once.
    @discardableResult
    public func insert(_ tag: any EmulatedTag) -> Field.TagHandle {
        state.withLock { state in
            let handle = state.controller.field.insert(tag)
            let output = state.controller.fieldDidChange()
            if !output.isEmpty, let session = state.session { try? session.terminal.write(output) }
            return handle
        }
    }

    /// Takes a tag out of the field and returns it with its memory.
    @discardableResult
    public func remove(_ handle: Field.TagHandle) -> (any EmulatedTag)? {
        state.withLock { $0.controller.field.remove(handle) }
    }

    /// Runs `body` on the field under the emulator's lock (inspect or change tags).
    public func withField<Result>(_ body: (inout Field) -> Result) -> Result {
        state.withLock { body(&$0.controller.field) }
    }

    private func answer(_ bytes: [UInt8], on terminal: PseudoTerminal) {
        state.withLock { state in
            let output = state.controller.receive(bytes)
            if !output.isEmpty { try? terminal.write(output) }
        }
    }
}

import Foundation
import Glibc
import NFCChips
internal import Locking

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
        /// Whether the chip has answered since this plug-in (for ``FaultPlan/firstAnswerDelay``).
        var hasAnswered = false
    }

    private let state: Locked<State>
    /// The stable path asked for, if any.
    public let link: String?
    private let clientPath: Locked<String>
    /// Whether every answer waits for its modelled duration (host link, air, EEPROM).
    public let isRealTime: Bool
    private let faults: FaultPlan
    /// In a struct, not as a bare function type: `Locked`'s value is generic, and a closure
    /// kept as that value comes out of every `withLock` wrapped in one more reabstraction
    /// thunk, which the lock stores back — one 32-byte box per read, a chain as long as
    /// the emulator's life (about 20 a tag in the soak: most of its growth per tag).
    let tagObserver = Locked<TagObserver?>(nil)
    private let lastSnapshots = Locked<[TagSnapshot]>([])

    /// Opens a pseudo-terminal (and `link`, a symbolic link to it) with `tags` in the field.
    /// `faults` are produced on demand; with `realTime` each answer is held back for its
    /// modelled duration, as a real PN532 at 115 200 baud with real tags would take.
    public init(
        tags: [any EmulatedTag], link: String? = nil, faults: FaultPlan = FaultPlan(),
        realTime: Bool = false
    ) throws(PseudoTerminalError) {
        let session = try SerialSession(link: link)
        self.link = link
        self.isRealTime = realTime
        self.faults = faults
        clientPath = Locked(session.terminal.clientPath)
        state = Locked(State(controller: PN532Controller(field: Field(tags: tags), faults: faults), session: session))
        lastSnapshots.withLock { $0 = tags.compactMap(TagSnapshot.init(of:)) }
    }

    /// An emulator with tags made by name (``EmulatedTagFactory``), each with its default UID.
    ///
    /// ```swift
    /// let emulator = try PN532Emulator(tagNames: ["ntag215", "classic1k"])
    /// ```
    public convenience init(
        tagNames: [String], link: String? = nil, faults: FaultPlan = FaultPlan(),
        realTime: Bool = false
    ) throws(EmulatorSetupError) {
        var tags: [any EmulatedTag] = []
        for (index, name) in tagNames.enumerated() {
            tags.append(try EmulatedTagFactory.make(name: name, index: index))
        }
        do { try self.init(tags: tags, link: link, faults: faults, realTime: realTime) } catch {
            throw .pseudoTerminal(error)
        }
    }

    /// Starts an emulator with the named tags (default `ntag215`) and returns it running;
    /// open its ``connectionString`` with libnfc and keep the emulator alive meanwhile.
    /// This is what `--device emulator[:TAG,…]` uses.
    ///
    /// ```swift
    /// let emulator = try PN532Emulator.started(tagNames: ["ntag213"])
    /// print(emulator.connectionString)   // pn532_uart:/dev/pts/7
    /// ```
    public static func started(
        tagNames: [String] = ["ntag215"], link: String? = nil,
        faults: FaultPlan = FaultPlan()
    ) throws(EmulatorSetupError) -> PN532Emulator {
        let emulator = try PN532Emulator(tagNames: tagNames, link: link, faults: faults)
        do { try emulator.start() } catch { throw .pseudoTerminal(error) }
        return emulator
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
        session.start(
            handler: { [weak self] bytes, terminal in self?.answer(bytes, on: terminal) },
            idle: { [weak self] terminal in self?.lineWentQuiet(on: terminal) },
            discarded: { [weak self] terminal in self?.clientDiscardedOutput(on: terminal) })
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

    /// ``unplug()``, unless the reader was plugged in again since `session` served.
    private func unplug(ifStill session: SerialSession?) {
        let current = state.withLock { state -> SerialSession? in
            guard let session, state.session === session else { return nil }
            defer { state.session = nil }
            return state.session
        }
        current?.stop()
    }

    /// Plugs the reader in again: a new pseudo-terminal behind the same link, a chip at
    /// power-on, the same tags. Starts answering if the emulator was started.
    public func plug() throws(PseudoTerminalError) {
        let session = try SerialSession(link: link)
        clientPath.withLock { $0 = session.terminal.clientPath }
        let (old, running) = state.withLock { state -> (SerialSession?, Bool) in
            let old = state.session
            state.session = session
            state.hasAnswered = false
            var field = state.controller.field
            field.setPower(false)
            let faultState = state.controller.faultState  // a fault fires once per emulator, not per plug-in
            state.controller = PN532Controller(field: field, faults: faults)
            state.controller.faultState = faultState
            return (old, state.isRunning)
        }
        old?.stop()
        if running {
            session.start(
                handler: { [weak self] bytes, terminal in self?.answer(bytes, on: terminal) },
                idle: { [weak self] terminal in self?.lineWentQuiet(on: terminal) },
                discarded: { [weak self] terminal in self?.clientDiscardedOutput(on: terminal) })
        }
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

    /// The client flushed its port's output, and the pty threw away what it had written and
    /// this thread had not read yet — on a real UART those bytes were already on the line.
    /// The one such loss that changes the chip's state is the ACK that commits
    /// SetSerialBaudRate, written just before the client closes the port and opens it again
    /// at the new speed: the chip commits when the client's port runs at the pending speed
    /// (a host switches its side only after it sent that ACK), now or at its next bytes.
    private func clientDiscardedOutput(on terminal: PseudoTerminal) {
        let output = state.withLock { state in
            state.controller.hostDiscardedOutput(hostSpeed: terminal.clientSpeed)
        }
        if !output.isEmpty { try? terminal.write(output) }
    }

    private func lineWentQuiet(on terminal: PseudoTerminal) {
        let output = state.withLock { $0.controller.lineIdle() }
        if !output.isEmpty { try? terminal.write(output) }
    }

    /// The tags now in the field, in the order they entered.
    public var tags: [any EmulatedTag] { withField { field in field.handles.compactMap { field.tag($0) } } }

    /// Every tag this emulator has served: those in the field, then those that left it
    /// (torn away by a fault, or removed) with their memory as they left.
    public var allTags: [any EmulatedTag] {
        withField { field in field.handles.compactMap { field.tag($0) } + field.departedTags }
    }

    /// Calls `observer` with ``allTags`` after each host command that changed a tag's
    /// memory or counters, or took a tag out of the field (on the emulator's thread; keep
    /// it short).
    public func observeTagChanges(_ observer: @escaping @Sendable ([any EmulatedTag]) -> Void) {
        tagObserver.withLock { $0 = TagObserver(notify: observer) }
    }

    /// The observer given to ``observeTagChanges(_:)``, as it was given (the same closure
    /// context on every read).
    var currentTagObserver: (@Sendable ([any EmulatedTag]) -> Void)? {
        tagObserver.withLock { $0?.notify }
    }

    private func answer(_ bytes: [UInt8], on terminal: PseudoTerminal) {
        let started = Self.threadCPUTime()
        defer {
            let spent = Self.threadCPUTime() - started
            state.withLock { $0.controller.statistics.emulatorCPUTime += spent }
        }
        let (output, delay, unplug, touchedTags) = state.withLock { state in
            let framesBefore = state.controller.statistics.framesToTags
            let tagsBefore = state.controller.field.handles.count
            var output: [UInt8] = []
            if state.controller.awaitsCommitAfterDiscard {
                output += state.controller.hostDiscardedOutput(hostSpeed: terminal.clientSpeed)
            }
            output += state.controller.receive(bytes, hostSpeed: terminal.clientSpeed)
            var delay = faults.answerDelay + (isRealTime ? state.controller.lastExchangeDuration : .zero)
            if !output.isEmpty, !state.hasAnswered {
                state.hasAnswered = true
                delay += faults.firstAnswerDelay
            }
            let unplug = state.controller.unplugRequested
            // A frame reached a tag, or a tag left the field (a fault tore it away).
            let touched =
                state.controller.statistics.framesToTags != framesBefore
                || state.controller.field.handles.count != tagsBefore
            return (output, delay, unplug, touched)
        }
        if delay > .zero, !output.isEmpty { Self.sleep(delay) }
        if !output.isEmpty { try? terminal.write(output) }
        if touchedTags { reportTagChanges() }
        if unplug {
            // The reader thread cannot stop itself: unplug from another thread — this session
            // only: a plug() that came first (a test plugging the reader back at once) keeps
            // its new session.
            let session = state.withLock { $0.session }
            Thread.detachNewThread { [weak self] in self?.unplug(ifStill: session) }
        }
    }

    private func reportTagChanges() {
        guard let observer = currentTagObserver else { return }
        let tags = allTags
        let snapshots = tags.compactMap(TagSnapshot.init(of:))
        let changed = lastSnapshots.withLock { last -> Bool in
            defer { last = snapshots }
            return last != snapshots
        }
        if changed { observer(tags) }
    }

    /// CPU time of the calling thread so far.
    private static func threadCPUTime() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }

    private static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}

/// What ``PN532Emulator/observeTagChanges(_:)`` keeps.
struct TagObserver: Sendable {
    let notify: @Sendable ([any EmulatedTag]) -> Void
}

import Foundation
import NFCChips
import Glibc
internal import Locking

/// An emulated USB reader (ACR122U or PN533) that unmodified libnfc drives through its own
/// USB drivers (`acr122_usb`, `pn53x_usb`).
///
/// The reader listens on a Unix-domain socket. A process started with ``environment(library:)``
/// loads the USB stand-in (`libnfctag-usb-emulation.so`, the `nfctag-usb-emulation` product)
/// with `LD_PRELOAD`; libnfc's calls to libusb-0.1 then find this reader at
/// ``connectionString`` and its bulk transfers come here. LD_PRELOAD acts at process start,
/// so the client is another process (libnfc's tools, `nfctag`, a test's child process).
///
/// ```swift
/// let reader = try USBReaderEmulator(kind: .acr122u, tags: [try EmulatedTagFactory.make(name: "ntag215", index: 0)])
/// try reader.start()
/// // env LD_PRELOAD=… NFCTAG_USB_EMULATION=… nfc-list  →  acr122_usb:001:004
/// ```
public final class USBReaderEmulator: Sendable {
    /// The USB reader kinds.
    public enum Kind: String, Sendable, CaseIterable {
        case acr122u, pn533

        /// libnfc's driver for the kind (`datasheets/readers.json`).
        public var driver: String { ChipTables.readers.readers[self == .acr122u ? .acr122u : .pn533].driver }
    }

    /// The variable naming the sockets (separated by `:`) the stand-in presents as devices.
    public static let socketVariable = "NFCTAG_USB_EMULATION"
    /// The stand-in's file name, as SwiftPM builds it beside the package's executables.
    public static let libraryName = "libnfctag-usb-emulation.so"
    /// The variable naming the directories that stand for `/dev/bus/usb` in a client
    /// process: NFCTagKit's liveness check and hot-plug read the reader's node there
    /// (NFCTagKit's `USBDeviceDirectory` documents the node format written here).
    public static let deviceDirectoryVariable = "NFCTAGKIT_USB_DEVICES"

    public let kind: Kind
    /// The socket the reader listens on (`--link`, or a temporary path).
    public let socketPath: String
    /// The USB bus and device number libnfc lists.
    public let bus: UInt8
    public let address: UInt8
    /// The directory that stands for `/dev/bus/usb`: while the reader is plugged in (from
    /// ``start()`` to ``stop()``), its node `BBB/DDD` is there (`link + ".usb"`, or beside
    /// the temporary socket).
    public let deviceDirectory: String
    /// The port the reader is plugged into (`1-3`), fixed by the socket path: plugged in
    /// again at the same `--link`, it is in the same port.
    public let portPath: String
    private let ownsSocketPath: Bool
    private let ownsDeviceDirectory: Bool
    private let link: String?
    private let state: Locked<State>
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let finished = DispatchSemaphore(value: 0)
    private let running = Locked(false)
    private let tagObserver = Locked<TagObserver?>(nil)
    private let lastSnapshots = Locked<[TagSnapshot]>([])

    private struct State: ~Copyable {
        var model: any USBReaderModel
        var clients: [Int32] = []
        var claimer: Int32?
        var stopped = false
    }

    /// A reader of `kind` with `tags` in the field, listening at `link` (or a temporary
    /// path). Started again with the same `link`, it is the same reader plugged in again:
    /// the next USB device number, the same serial (`link + ".address"` keeps the number).
    ///
    /// `devices` is the directory standing for `/dev/bus/usb` (default `link + ".usb"`); readers
    /// that share one take device numbers not in use there, as on one bus.
    public init(
        kind: Kind, tags: [any EmulatedTag], link: String? = nil, devices: String? = nil,
        faults: FaultPlan = FaultPlan()
    ) throws(USBEmulatorError) {
        self.kind = kind
        let path =
            link
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("nfctag-usb-\(getpid())-\(UInt32.random(in: 0 ... .max)).sock").path
        socketPath = path
        self.link = link
        ownsSocketPath = true
        bus = 1
        let directory = devices ?? path + ".usb"
        deviceDirectory = directory
        ownsDeviceDirectory = link == nil && devices == nil
        address = Self.nextAddress(
            link: link,
            inUse: { number in
                FileManager.default.fileExists(atPath: directory + String(format: "/%03u/%03u", 1, UInt32(number)))
            })
        portPath = "1-\(1 + Self.fnv1a(path) % 4)"
        let controller = PN532Controller(field: Field(tags: tags), faults: faults)
        let model: any USBReaderModel =
            switch kind {
            case .acr122u: ACR122UReader(controller: controller)
            case .pn533: PN533Reader(controller: controller, serialNumber: Self.serialNumber(for: path))
            }
        state = Locked(State(model: model))
        do { listener = try UnixPacketSocket.listen(at: path) } catch {
            throw USBEmulatorError(description: "\(error)")
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            close(listener)
            throw USBEmulatorError(description: "pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wake = (ends[0], ends[1])
    }

    deinit { stop() }

    /// What libnfc lists and opens, e.g. `acr122_usb:001:004`.
    public var connectionString: String {
        kind.driver + ":" + String(format: "%03u:%03u", UInt32(bus), UInt32(address))
    }

    /// The device's descriptors (identity, endpoints, strings).
    public var descriptor: USBDeviceDescriptor { state.withLock { $0.model.descriptor } }

    /// The environment a client process needs to see this reader through `library` (the
    /// stand-in's path): `LD_PRELOAD` and ``socketVariable`` for libnfc, and
    /// ``deviceDirectoryVariable`` for NFCTagKit's own USB checks.
    public func environment(library: String) -> [String: String] {
        ["LD_PRELOAD": library, Self.socketVariable: socketPath, Self.deviceDirectoryVariable: deviceDirectory]
    }

    /// The node's path in ``deviceDirectory``: `BBB/DDD`.
    public var nodePath: String {
        deviceDirectory + String(format: "/%03u/%03u", UInt32(bus), UInt32(address))
    }

    /// Plugs the device in: writes its node whole (temporary name, then rename), as the
    /// identity libusb would read: vendor, product, serial string, port.
    private func publishNode() {
        let descriptor = descriptor
        let text =
            String(format: "vendor=%04x\nproduct=%04x\n", UInt32(descriptor.vendorID), UInt32(descriptor.productID))
            + "serial=\(descriptor.serialNumber)\nport=\(portPath)\n"
        let busDirectory = (nodePath as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: busDirectory, withIntermediateDirectories: true)
        let temporary = busDirectory + "/.\(address).\(getpid()).tmp"
        guard (try? text.write(toFile: temporary, atomically: false, encoding: .utf8)) != nil else { return }
        if rename(temporary, nodePath) != 0 { unlink(temporary) }
    }

    /// The stand-in beside `executable` (SwiftPM puts products in one directory), else
    /// where `NFCTAG_USB_EMULATION_LIBRARY` points.
    public static func libraryPath(besideExecutable executable: String?) -> String? {
        var candidates: [String] = []
        if let path = ProcessInfo.processInfo.environment["NFCTAG_USB_EMULATION_LIBRARY"] { candidates.append(path) }
        if let executable {
            let directory = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
            candidates.append(directory.appendingPathComponent(libraryName).path)
        }
        return candidates.first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// Counters and modelled time of the PN53x inside.
    public var statistics: EmulatorStatistics { state.withLock { $0.model.controller.statistics } }

    /// Runs `body` on the field under the reader's lock (inspect or change tags), as
    /// ``PN532Emulator/withField(_:)`` does.
    public func withField<Result>(_ body: (inout Field) -> Result) -> Result {
        state.withLock { body(&$0.model.controller.field) }
    }

    /// The tags now in the field, in the order they entered.
    public var tags: [any EmulatedTag] { withField { field in field.handles.compactMap { field.tag($0) } } }

    /// Puts a tag into the field (the next poll or listing finds it).
    @discardableResult
    public func insert(_ tag: any EmulatedTag) -> Field.TagHandle {
        withField { $0.insert(tag) }
    }

    /// Takes a tag out of the field and returns it with its memory.
    @discardableResult
    public func remove(_ handle: Field.TagHandle) -> (any EmulatedTag)? {
        withField { $0.remove(handle) }
    }

    /// Calls `observer` with ``allTags`` after each bulk transfer that changed a tag's memory
    /// or counters, or took a tag out of the field (on the reader's thread; keep it short),
    /// as ``PN532Emulator/observeTagChanges(_:)`` does.
    public func observeTagChanges(_ observer: @escaping @Sendable ([any EmulatedTag]) -> Void) {
        tagObserver.withLock { $0 = TagObserver(notify: observer) }
    }

    private func reportTagChanges() {
        guard let observer = tagObserver.withLock({ $0 }) else { return }
        let tags = allTags
        let snapshots = tags.compactMap(TagSnapshot.init(of:))
        let changed = lastSnapshots.withLock { last -> Bool in
            defer { last = snapshots }
            return last != snapshots
        }
        if changed { observer.notify(tags) }
    }

    /// Every tag this reader has served, in the field or departed.
    public var allTags: [any EmulatedTag] {
        state.withLock { state in
            let field = state.model.controller.field
            return field.handles.compactMap { field.tag($0) } + field.departedTags
        }
    }

    /// Starts answering on the socket (its own thread).
    public func start() {
        let alreadyRunning = running.withLock { running in
            defer { running = true }
            return running
        }
        guard !alreadyRunning, !state.withLock({ $0.stopped }) else { return }
        let thread = Thread { [self] in
            serve()
            finished.signal()
        }
        thread.name = "USBReaderEmulator \(kind.rawValue)"
        thread.start()
        publishNode()
    }

    /// Unplugs the reader: the thread stops, clients see the device gone, the socket goes.
    public func stop() {
        let (wasStopped, clients) = state.withLock { state -> (Bool, [Int32]) in
            defer {
                state.stopped = true
                state.clients = []
            }
            return (state.stopped, state.clients)
        }
        guard !wasStopped else { return }
        // The node goes first, as when a cable is pulled: a client that sees its transfers
        // fail finds no device there any more.
        unlink(nodePath)
        if running.withLock({ $0 }) {
            var one: UInt8 = 1
            _ = Glibc.write(wake.write, &one, 1)
            finished.wait()
        }
        for client in clients { close(client) }
        close(listener)
        close(wake.read)
        close(wake.write)
        if ownsSocketPath { unlink(socketPath) }
        if ownsDeviceDirectory { try? FileManager.default.removeItem(atPath: deviceDirectory) }
    }

    private func serve() {
        while true {
            let clients = state.withLock { $0.clients }
            let ready = UnixPacketSocket.poll([wake.read, listener] + clients, milliseconds: -1)
            if ready.contains(wake.read) { return }
            if ready.contains(listener), let client = UnixPacketSocket.accept(listener) {
                state.withLock { $0.clients.append(client) }
            }
            for client in ready where client != wake.read && client != listener {
                guard let message = UnixPacketSocket.receive(client) else {
                    disconnect(client)
                    continue
                }
                for answer in handle(message, from: client) { UnixPacketSocket.send(client, answer) }
            }
        }
    }

    private func disconnect(_ client: Int32) {
        state.withLock { state in
            state.clients.removeAll { $0 == client }
            if state.claimer == client { state.claimer = nil }
        }
        close(client)
    }

    /// One message of the stand-in's protocol (Sources/CUSBEmulation/include).
    private func handle(_ message: [UInt8], from client: Int32) -> [[UInt8]] {
        guard let kind = message.first else { return [] }
        var touched = false
        var unplug = false
        defer {
            if touched { reportTagChanges() }
            // FaultPlan.unplugAfterFrames: the cable is pulled (from another thread: this
            // one is the reader's own, which stop() waits for).
            if unplug { Thread.detachNewThread { [weak self] in self?.stop() } }
        }
        return state.withLock { state -> [[UInt8]] in
            switch kind {
            case UInt8(ascii: "D"):
                return [state.model.descriptor.message(bus: bus, address: address)]
            case UInt8(ascii: "C"):
                // One process at a time holds the interface, as the kernel allows.
                if state.claimer == nil || state.claimer == client {
                    state.claimer = client
                    return [[UInt8(ascii: "C"), 0]]
                }
                return [[UInt8(ascii: "C"), UInt8(EBUSY)]]
            case UInt8(ascii: "L"):
                if state.claimer == client { state.claimer = nil }
                return []
            case UInt8(ascii: "R"):
                state.model.portReset()
                return []
            case UInt8(ascii: "O"):
                guard state.claimer == client else { return [] }  // not claimed: the transfer fails silently
                let framesBefore = state.model.controller.statistics.framesToTags
                let tagsBefore = state.model.controller.field.handles.count
                let answers = state.model.transfer(Array(message.dropFirst())).map { [UInt8(ascii: "I")] + $0 }
                // A frame reached a tag, or a tag left the field (a fault tore it away).
                touched =
                    state.model.controller.statistics.framesToTags != framesBefore
                    || state.model.controller.field.handles.count != tagsBefore
                unplug = state.model.controller.unplugRequested
                return answers
            default:
                return []
            }
        }
    }

    /// The device number after the one a reader at `link` had last time, skipping numbers in
    /// use, as Linux numbers devices (`choose_devnum` in `drivers/usb/core/hub.c`: the next
    /// free number after the last one given, wrapping below 128; 1 is the root hub); a free
    /// choice without a link.
    private static func nextAddress(link: String?, inUse: (Int) -> Bool) -> UInt8 {
        // A first number from the path, so that readers side by side rarely share one.
        let first = Int(2 + fnv1a(link ?? "\(getpid())-\(UInt32.random(in: 0 ... .max))") % 120)
        let file = link.map { $0 + ".address" }
        let previous = file.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        var next = previous.map { $0 >= 127 ? 2 : $0 + 1 } ?? first
        for _ in 0..<126 where inUse(next) { next = next >= 127 ? 2 : next + 1 }
        if let file { try? "\(next)\n".write(toFile: file, atomically: true, encoding: .utf8) }
        return UInt8(next)
    }

    /// A serial number fixed by the socket path (FNV-1a), so a reader plugged in again at the
    /// same `--link` keeps it.
    static func serialNumber(for path: String) -> String { String(format: "%08X", fnv1a(path)) }

    private static func fnv1a(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }
}

/// The USB emulator could not start (socket or pipe).
public struct USBEmulatorError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

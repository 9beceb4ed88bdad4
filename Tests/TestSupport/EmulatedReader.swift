import Foundation
import Glibc
import Locking
import NFCChips
import NFCEmulator
import Testing

/// The reader kinds the suites run on: the PN532 on a pseudo-terminal, and the ACR122U and
/// PN533 on USB through libnfc's own `acr122_usb` / `pn53x_usb` drivers.
///
/// A test process runs on one kind, named by `NFCTAGKIT_TEST_READER` (`pn532` when unset).
/// A USB kind needs the USB stand-in preloaded into the test process, with
/// `NFCTAG_USB_EMULATION` and `NFCTAGKIT_USB_DEVICES` each naming a directory that this
/// process's readers share: `scripts/test-reader-kinds` (run by `make test`) sets them up.
public enum ReaderUnderTest: String, CaseIterable, Sendable {
    case pn532, acr122u, pn533

    /// The variable that chooses the kind of a test process.
    public static let variable = "NFCTAGKIT_TEST_READER"

    /// The kind this test process runs on.
    public static let current: ReaderUnderTest = {
        guard let name = ProcessInfo.processInfo.environment[variable], !name.isEmpty else { return .pn532 }
        guard let kind = ReaderUnderTest(rawValue: name) else {
            fatalError("\(variable)=\(name): expected one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return kind
    }()

    /// The USB kind, nil for the UART PN532.
    public var usbKind: USBReaderEmulator.Kind? { USBReaderEmulator.Kind(rawValue: rawValue) }

    /// The reader's entry in `datasheets/readers.json`.
    package var model: ReaderSpec {
        switch self {
        case .pn532: ChipTables.readers.readers[.pn532UART]
        case .acr122u: ChipTables.readers.readers[.acr122u]
        case .pn533: ChipTables.readers.readers[.pn533]
        }
    }

    /// The firmware the emulated reader reports (an ACR122U reports the PN532 inside it).
    public var emulatedFirmware: (ic: String, version: String) { self == .pn533 ? ("PN533", "2.7") : ("PN532", "1.6") }

    /// Whether the reader is on USB.
    public var isUSB: Bool { usbKind != nil }

    /// Whether the USB stand-in is loaded into this process (it acts only when preloaded).
    public static var standInIsLoaded: Bool {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "nfctag_usb_emulation_device_count") != nil
    }
}

/// One emulated reader of the kind under test, with tags in its field, that libnfc in this
/// process (and in the processes it starts) opens at ``connectionString``. The UART PN532 and
/// the USB readers look the same to a test: tags go in and out, the cable is pulled and
/// plugged in again (a USB reader comes back at a new device number with the same serial),
/// and the chip's counters read the same.
public final class EmulatedReader: Sendable {
    public let kind: ReaderUnderTest
    /// The PN532 on a pseudo-terminal, for tests of the UART itself.
    public let uart: PN532Emulator?
    private let usb: Locked<USBReaderEmulator?>
    private let usbLink: String?

    private static let counter = Locked(0)

    /// A reader of `kind` with `tags` in the field. `link` is the UART PN532's stable path (a
    /// USB reader's socket goes to the process's directory). Without `kind`, the process's
    /// kind, from a suite tagged ``Testing/Tag/reader``.
    public init(
        kind: ReaderUnderTest? = nil, tags: [any EmulatedTag], link: String? = nil,
        faults: FaultPlan = FaultPlan(), sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        if kind == nil { ReaderUnderTest.requireReaderTag(sourceLocation: sourceLocation) }
        let kind = kind ?? .current
        self.kind = kind
        guard let usbKind = kind.usbKind else {
            let emulator = try PN532Emulator(tags: tags, link: link, faults: faults)
            try emulator.start()
            uart = emulator
            usb = Locked(nil)
            usbLink = nil
            return
        }
        let (sockets, devices) = try Self.usbDirectories()
        let number = Self.counter.withLock { counter -> Int in
            counter += 1
            return counter
        }
        let link = sockets + "/reader-\(getpid())-\(number)"
        let reader = try USBReaderEmulator(kind: usbKind, tags: tags, link: link, devices: devices, faults: faults)
        reader.start()
        uart = nil
        usb = Locked(reader)
        usbLink = link
    }

    /// The directories a USB reader of this process goes to: the socket directory the
    /// stand-in reads, and the device-node directory NFCTagKit reads.
    private static func usbDirectories() throws -> (sockets: String, devices: String) {
        let environment = ProcessInfo.processInfo.environment
        var isDirectory: ObjCBool = false
        guard ReaderUnderTest.standInIsLoaded,
            let sockets = environment[USBReaderEmulator.socketVariable]?.split(separator: ":").map(String.init)
                .first(where: {
                    FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && isDirectory.boolValue
                }),
            let devices = environment[USBReaderEmulator.deviceDirectoryVariable]?.split(separator: ":").first.map(
                String.init)
        else {
            throw EmulatedReaderError(
                description: """
                    \(ReaderUnderTest.variable)=\(ReaderUnderTest.current.rawValue) needs the USB stand-in preloaded, with \
                    \(USBReaderEmulator.socketVariable) and \(USBReaderEmulator.deviceDirectoryVariable) naming directories: \
                    run the suites through scripts/test-reader-kinds (make test)
                    """)
        }
        return (sockets, devices)
    }

    deinit { stop() }

    /// What libnfc opens: `pn532_uart:/dev/pts/N`, `acr122_usb:001:042`, `pn53x_usb:001:017`.
    public var connectionString: String { uart?.connectionString ?? usb.withLock { $0?.connectionString } ?? "" }

    /// The USB reader's serial string (the PN533's; the ACR122U has none).
    public var usbReader: USBReaderEmulator? { usb.withLock { $0 } }

    /// Stops the reader for good.
    public func stop() {
        uart?.stop()
        usb.withLock { $0 }?.stop()
    }

    /// Pulls the cable: clients see I/O errors (USB: the device and its node are gone). Tags stay.
    public func unplug() {
        uart?.unplug()
        usb.withLock { $0 }?.stop()
    }

    /// Plugs the reader in again: a chip at power-on, the same tags; a USB reader at the next
    /// device number, with the same serial, in the same port.
    public func plug() throws {
        if let uart {
            try uart.plug()
            return
        }
        guard let usbKind = kind.usbKind, let usbLink, let old = usb.withLock({ $0 }) else { return }
        old.stop()
        let (_, devices) = try Self.usbDirectories()
        let reader = try USBReaderEmulator(kind: usbKind, tags: old.tags, link: usbLink, devices: devices)
        reader.start()
        usb.withLock { $0 = reader }
    }

    /// Counters and modelled time of the PN53x since the last plug-in.
    public var statistics: EmulatorStatistics {
        uart?.statistics ?? usb.withLock { $0?.statistics } ?? EmulatorStatistics()
    }

    /// Whether the chip's UART reaches `baud` within 10 s. A client that switches the speed
    /// back as it closes sends the committing ACK last, and the chip may take it just after
    /// the client's process has exited.
    public func chipReaches(baud: Int) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while statistics.uartBaud != baud, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        return statistics.uartBaud == baud
    }

    /// Runs `body` on the field under the reader's lock (inspect or change tags).
    public func withField<Result>(_ body: (inout Field) -> Result) -> Result {
        if let uart { return uart.withField(body) }
        return usb.withLock { $0! }.withField(body)
    }

    /// Puts a tag into the field.
    @discardableResult
    public func insert(_ tag: any EmulatedTag) -> Field.TagHandle {
        uart?.insert(tag) ?? usb.withLock { $0! }.insert(tag)
    }

    /// Takes a tag out of the field and returns it with its memory.
    @discardableResult
    public func remove(_ handle: Field.TagHandle) -> (any EmulatedTag)? {
        if let uart { return uart.remove(handle) }
        return usb.withLock { $0! }.remove(handle)
    }

    /// The tags now in the field, in the order they entered.
    public var tags: [any EmulatedTag] { uart?.tags ?? usb.withLock { $0! }.tags }

    /// Every tag this reader has served, in the field or departed.
    public var allTags: [any EmulatedTag] { uart?.allTags ?? usb.withLock { $0! }.allTags }

    /// Calls `observer` with ``allTags`` after each exchange that changed a tag.
    public func observeTagChanges(_ observer: @escaping @Sendable ([any EmulatedTag]) -> Void) {
        if let uart { return uart.observeTagChanges(observer) }
        usb.withLock { $0! }.observeTagChanges(observer)
    }
}

/// A USB kind asked for in a process that cannot see USB readers.
public struct EmulatedReaderError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

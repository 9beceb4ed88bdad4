import Foundation
import NFCEmulator
import Testing
import Locking
import TestSupport
@testable import NFCTagKit

/// A small Type 2 style tag for device tests: READ (0x30) returns four pages from its
/// memory, WRITE (0xA2) stores a page and ACKs, anything else gets no answer.
struct PageTag: EmulatedTag {
    var identity: TagIdentity
    var pages: [[UInt8]]

    static let ackCode: UInt8 = 0x0A

    init(uid: [UInt8], pageCount: Int = 16) {
        identity = TagIdentity(uid: uid, atqa: 0x0044, sak: 0x00)
        pages = (0..<pageCount).map { page in (0..<4).map { UInt8(truncatingIfNeeded: page * 4 + $0) } }
    }

    mutating func receive(_ frame: [UInt8]) -> TagAnswer {
        guard let command = frame.first else { return .silence }
        switch command {
        case 0x30 where frame.count == 2:
            let start = Int(frame[1])
            guard start < pages.count else { return .nak(0x0) }
            return .bytes((0..<4).flatMap { pages[(start + $0) % pages.count] })
        case 0xA2 where frame.count == 6:
            let page = Int(frame[1])
            guard page < pages.count else { return .nak(0x0) }
            pages[page] = Array(frame[2..<6])
            return .ack(Self.ackCode)
        default:
            return .silence
        }
    }

    mutating func fieldReset() {}
    mutating func leaveActiveState() {}
}

/// UIDs used across the device tests.
enum TestUID {
    static let first: [UInt8] = [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]
    static let second: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
}

/// An emulated reader of the kind under test (``ReaderUnderTest/current``: the PN532 behind a
/// stable link in a temporary directory, or a USB reader), running. Always `stop()` it.
struct EmulatorFixture {
    let emulator: EmulatedReader
    let directory: TemporaryDirectory

    init(
        tags: [any EmulatedTag] = [PageTag(uid: TestUID.first)], faults: FaultPlan = FaultPlan(),
        kind: ReaderUnderTest? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        LibNFCTestEnvironment.prepare()
        directory = try TemporaryDirectory()
        emulator = try EmulatedReader(
            kind: kind, tags: tags, link: directory.file("reader"), faults: faults, sourceLocation: sourceLocation)
    }

    /// The PN532 on its pseudo-terminal, for a fixture made with `kind: .pn532`.
    var uart: PN532Emulator { emulator.uart! }

    var connectionString: String { emulator.connectionString }
    var reader: NFCReader { NFCReader(connectionString: connectionString) }

    func stop() {
        emulator.stop()
        directory.cleanUp()
    }

    /// A device connected to this reader, without liveness checks (they would add frames).
    func connectedDevice() async throws -> NFCDevice {
        let device = NFCDevice()
        try await device.connect(to: reader, configuration: configuration(liveness: nil))
        return device
    }

    /// A configuration for tests: no last-reader file outside the temporary directory,
    /// quick reconnection attempts.
    func configuration(
        reconnect: Bool = true, attempts: Int = 20, liveness: Duration? = .milliseconds(200),
        events: (@Sendable (ReaderEvent) -> Void)? = nil, clock: ManualClock? = nil
    ) -> ConnectionConfiguration {
        var configuration = ConnectionConfiguration()
        if let clock { configuration.clock = clock.deviceClock }
        configuration.lastReaderStore = LastReaderStore(path: directory.file("last-reader.json"))
        configuration.reconnection.isEnabled = reconnect
        configuration.reconnection.maximumAttempts = attempts
        configuration.reconnection.initialDelay = .milliseconds(50)
        configuration.reconnection.maximumDelay = .milliseconds(200)
        configuration.reconnection.timeout = .seconds(15)
        configuration.livenessInterval = liveness
        configuration.eventHandler = events
        return configuration
    }
}

/// Collects a device's events from now on.
final class EventLog: Sendable {
    private final class Storage: Sendable {
        let events = Locked<[ReaderEvent]>([])
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    convenience init(_ device: NFCDevice) {
        self.init(device.events)
    }

    init(_ stream: AsyncStream<ReaderEvent>) {
        let storage = self.storage
        task = Task {
            for await event in stream { storage.events.withLock { $0.append(event) } }
        }
    }

    deinit { task.cancel() }

    var all: [ReaderEvent] { storage.events.withLock { $0 } }
    var names: [String] { all.map(\.name) }

    /// Waits (with an outer limit) until the log has an event named `name`, and returns the names so far.
    @discardableResult
    func wait(for name: String, count: Int = 1, seconds: Double = 45) async throws -> [String] {
        try await withTimeLimit(seconds: seconds) { [self] in
            while names.filter({ $0 == name }).count < count {
                try await Task.sleep(for: .milliseconds(20))
            }
            return names
        }
    }
}

/// CRC_A (ISO/IEC 14443-3), low byte first, for raw frames built by hand.
func crcA(_ bytes: [UInt8]) -> [UInt8] {
    var crc: UInt16 = 0x6363
    for byte in bytes {
        var value = byte ^ UInt8(crc & 0xFF)
        value ^= value << 4
        crc = (crc >> 8) ^ (UInt16(value) << 8) ^ (UInt16(value) << 3) ^ (UInt16(value) >> 4)
    }
    return [UInt8(crc & 0xFF), UInt8(crc >> 8)]
}

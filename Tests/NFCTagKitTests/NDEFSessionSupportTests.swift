import Foundation
import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Locking
import Testing
import TestSupport

/// Collects an NDEF session's events from now on.
final class SessionEventLog: Sendable {
    private final class Storage: Sendable {
        let events = Locked<[NDEFSessionEvent]>([])
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    init(_ session: NDEFSession) {
        let stream = session.events
        let storage = self.storage
        task = Task { for await event in stream { storage.events.withLock { $0.append(event) } } }
    }

    deinit { task.cancel() }

    var all: [NDEFSessionEvent] { storage.events.withLock { $0 } }

    /// Waits until an event at index `from` or later satisfies `predicate`; returns its index and the event.
    @discardableResult
    func wait(
        from start: Int = 0, seconds: Double = 45,
        _ predicate: @escaping @Sendable (NDEFSessionEvent) -> Bool
    ) async throws -> (Int, NDEFSessionEvent) {
        try await withTimeLimit(seconds: seconds) { [self] in
            while true {
                let current = all
                if start < current.count, let index = current[start...].firstIndex(where: predicate) {
                    return (index, current[index])
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// The tags of the first `tagsDetected` from `start` on.
    func detected(from start: Int = 0, count: Int? = nil, seconds: Double = 45) async throws -> (
        Int, [NDEFDetectedTag]
    ) {
        let (index, event) = try await wait(from: start, seconds: seconds) { event in
            guard case .tagsDetected(let tags) = event else { return false }
            return count.map { tags.count == $0 } ?? true
        }
        guard case .tagsDetected(let tags) = event else { return (index, []) }
        return (index, tags)
    }
}

/// An emulated PN532 with tags, a connected device with automatic reconnection, and a
/// begun NDEF session with quick polling. Always `stop()` it.
struct SessionHarness {
    let fixture: EmulatorFixture
    let device: NFCDevice
    let session: NDEFSession
    let log: SessionEventLog

    static let quick = NDEFSessionConfiguration(pollInterval: .milliseconds(50), restartDelay: .milliseconds(200))

    static func start(
        tags: [any EmulatedTag], configuration: NDEFSessionConfiguration = quick,
        faults: FaultPlan = FaultPlan()
    ) async throws -> SessionHarness {
        let fixture = try EmulatorFixture(tags: tags, faults: faults)
        let device = NFCDevice()
        do {
            _ = try await device.connect(to: fixture.reader, configuration: fixture.configuration(liveness: nil))
        } catch {
            fixture.stop()
            throw error
        }
        let session = NDEFSession(device: device, configuration: configuration)
        let log = SessionEventLog(session)
        try await session.begin()
        return SessionHarness(fixture: fixture, device: device, session: session, log: log)
    }

    var emulator: EmulatedReader { fixture.emulator }

    func stop() async {
        await session.invalidate()
        await device.close()
        fixture.stop()
    }

    /// Waits for exactly one tag and connects to it.
    func connectToOnlyTag(from start: Int = 0, seconds: Double = 45) async throws -> any NFCNDEFTag {
        let (_, tags) = try await log.detected(from: start, count: 1, seconds: seconds)
        return try await session.connect(to: try #require(tags.first))
    }

    /// The memory of the emulated Type 2 tag `index` in the field.
    func memory(ofTag index: Int = 0) -> [UInt8]? {
        emulator.withField { field -> [UInt8]? in
            guard index < field.handles.count else { return nil }
            return (field.tag(field.handles[index]) as? Type2Tag)?.memory
        }
    }

    /// Changes the emulated Type 2 tag `index` directly (test set-up).
    func modifyTag(_ index: Int = 0, _ body: @escaping (inout Type2Tag) -> Void) {
        emulator.withField { field in
            let handle = field.handles[index]
            _ = field.withTag(handle) { tag in
                guard var type2 = tag as? Type2Tag else { return }
                body(&type2)
                tag = type2
            }
        }
    }
}

/// UIDs of the session tests (7 bytes, NXP manufacturer byte first).
enum SessionUID {
    static let first: [UInt8] = [0x04, 0x51, 0x6E, 0x2A, 0x91, 0x3C, 0x80]
    static let second: [UInt8] = [0x04, 0x77, 0x12, 0x8B, 0x40, 0x05, 0x81]
}

/// Messages used by the session tests.
enum SessionMessages {
    static let old = NDEFMessage(records: [NDEFURIRecord(uri: "https://example.com/old").record])
    static let new = NDEFMessage(records: [
        NDEFURIRecord(uri: "https://example.org/a-much-longer-new-message-for-the-tag").record
    ])
    static let empty = NDEFMessage(records: [])

    /// A message of about `bytes` bytes (one MIME record).
    static func sized(_ bytes: Int) throws -> NDEFMessage {
        NDEFMessage(records: [
            try NDEFMediaRecord(
                mediaType: "application/octet-stream",
                payload: (0..<max(bytes - 30, 1)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            ).record
        ])
    }
}

/// A transport that pulls the reader out just before the frame numbered `unplugAt`
/// (counting from 0 once armed), then lets the frame go to the dead reader.
final class UnplugBeforeFrame: Sendable {
    private let state = Locked<(armed: Bool, count: Int, fired: Bool)>((false, 0, false))
    let unplugAt: Int
    let emulator: EmulatedReader

    init(unplugAt: Int, emulator: EmulatedReader) {
        self.unplugAt = unplugAt
        self.emulator = emulator
    }

    func arm() { state.withLock { $0 = (true, 0, false) } }
    var fired: Bool { state.withLock { $0.fired } }
    var frames: Int { state.withLock { $0.count } }

    func beforeFrame() {
        let fire = state.withLock { state -> Bool in
            guard state.armed else { return false }
            defer { state.count += 1 }
            if state.count == unplugAt {
                state.fired = true
                state.armed = false
                return true
            }
            return false
        }
        if fire { emulator.unplug() }
    }

    func decorate(_ base: DeviceTagTransport) -> any TagTransport {
        Decorated(base: base, fault: self)
    }

    private struct Decorated: TagTransport {
        let base: DeviceTagTransport
        let fault: UnplugBeforeFrame
        var target: TagTarget { base.target }
        var maximumFrameLength: Int { base.maximumFrameLength }

        func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError)
            -> TagResponse
        {
            fault.beforeFrame()
            return try await base.transceive(frame, framing: framing, timeout: timeout)
        }

        func reselect() async throws(TagTransportError) {
            fault.beforeFrame()
            try await base.reselect()
        }

        func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
            try await base.authenticateClassic(block: block, keyType: keyType, key: key)
        }
    }
}

@Suite("NDEF session test support", .tags(.reader), .serialized, .timeLimit(.minutes(1)))
struct NDEFSessionSupportTests {
    @Test("the harness sees the emulated tag's memory change after a write through the session")
    func harnessSeesWrites() async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: .ntag213, uid: SessionUID.first)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let before = try #require(harness.memory())
            let tag = try await harness.connectToOnlyTag()
            try await tag.writeNDEF(SessionMessages.old)
            #expect(harness.memory() != before)
            await harness.session.invalidate()
            await harness.device.close()
        }
    }
}

import Foundation
import Locking
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import Testing
import TestSupport

/// Lifetimes an app does not have to manage: the scoped helpers open and always close, and a
/// session or device the app drops without its closing call stops and closes by itself.
@Suite("Scoped lifetimes: withReader, withTag, and what a dropped session leaves", .tags(.reader))
struct ScopedLifetimeTests {
    @Test(
        "a begun session and its device dropped without invalidate() or close(): polling stops and the reader is closed"
    )
    func droppedSessionClosesReader() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            let (sessionEvents, deviceStatus) = try await Self.beginPollingAndDrop(fixture)
            // The session is released, not invalidated: its stream ends with no invalidated event.
            var invalidated = false
            for await event in sessionEvents {
                if case .invalidated = event { invalidated = true }
            }
            #expect(!invalidated, "the dropped session was invalidated instead of released")
            // The device is released (its status stream ends) and closes the reader on its thread.
            for await _ in deviceStatus {}
            await OpenReaderRegistry.shared.waitUntilClosed(fixture.connectionString)
            if fixture.emulator.kind == .pn532 {
                // Up at connect, back to 115 200 at the close (the chip answers before the
                // switch returns, so the count is final here).
                let setSerialBaudRate = ChipTables.pn532.code(.setSerialBaudRate)
                #expect(
                    fixture.uart.statistics.commandsByCode[setSerialBaudRate] == 2, "the chip was not switched back")
            }
            // Nothing holds the port: the reader opens again at once.
            let again = try await fixture.connectedDevice()
            await again.close()
        }
    }

    /// Connects, begins a session, waits for its first round to see the tag, and returns
    /// only streams: the session and the device are dropped on return.
    private static func beginPollingAndDrop(_ fixture: EmulatorFixture) async throws
        -> (AsyncStream<NDEFSessionEvent>, AsyncStream<ConnectionStatus>)
    {
        let device = try await fixture.connectedDevice()
        let session = NDEFSession(device: device)
        let events = session.events
        try await session.begin()
        let tags = try await session.waitForTags()
        #expect(tags.count == 1)
        return (events, device.statusUpdates)
    }

    @Test("withReader and withTag write and read a URI, then leave the session ended and the reader closed")
    func writeAndReadInTenLines() async throws {
        let fixture = try EmulatorFixture(tags: [try Type2Tag(chip: .ntag215, uid: TestUID.first)])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            let uri = try await NFCDevice.withReader(fixture.connectionString) { device in
                try await NDEFSession.withTag(on: device) { tag in
                    try await tag.writeNDEF(NDEFMessage(.uri("https://example.com")))
                    return try await tag.readNDEF().records.first?.uri
                }
            }
            #expect(uri == "https://example.com")
            #expect(!OpenReaderRegistry.shared.contains(fixture.connectionString), "the reader is still open")
        }
    }

    @Test("withTag ends its session and withReader closes the reader when the body throws")
    func bodyThrows() async throws {
        struct Stop: Error {}
        let fixture = try EmulatorFixture(tags: [try Type2Tag(chip: .ntag215, uid: TestUID.first)])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            let sessionEvents = Locked<AsyncStream<NDEFSessionEvent>?>(nil)
            await #expect(throws: Stop.self) {
                try await NFCDevice.withReader(fixture.connectionString) { device in
                    try await NDEFSession.withTag(on: device) { tag in
                        sessionEvents.withLock { $0 = (tag as? any NFCTagHandle)?.session.owner?.session.events }
                        throw Stop()
                    }
                }
            }
            #expect(!OpenReaderRegistry.shared.contains(fixture.connectionString), "the reader is still open")
            // The session was ended (invalidated), not left polling: its stream has finished.
            var last: NDEFSessionEvent?
            for await event in try #require(sessionEvents.withLock { $0 }) { last = event }
            guard case .invalidated(.userCanceled)? = last else {
                Issue.record("the session ended with \(String(describing: last))")
                return
            }
        }
    }

    @Test("withTag waits while two tags are in the field and names them when the time runs out")
    func severalTags() async throws {
        let fixture = try EmulatorFixture(tags: [
            try Type2Tag(chip: .ntag215, uid: TestUID.first),
            try Type2Tag(chip: .ntag215, uid: TestUID.second),
        ])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            let device = try await fixture.connectedDevice()
            do {
                // Long enough for the first polling round to see both tags on a loaded machine
                // (a shorter wait ended before it, as a plain timeout, in a parallel run).
                try await NDEFSession.withTag(on: device, timeout: .seconds(3)) { _ in
                    Issue.record("connected with two tags in the field")
                }
            } catch NDEFSessionError.severalTags(let count) {
                #expect(count == 2)
            }
            await device.close()
        }
    }
}

import NFCEmulator
import TestSupport
import Testing

@testable import NFCTagKit

/// The one tag model: the NDEF session hands out the family handles a tag session has, and
/// their chip commands answer to the session's connection.
@Suite("NDEFSession handles: one tag model", .tags(.reader), .serialized, .timeLimit(.minutes(3)))
struct NDEFSessionHandleTests {
    @Test(
        "the session's tag is the NTAG's Type 2 handle: write, configuration, signature and lock on one connection, the connect's poll the only alone check"
    )
    func oneConnection() async throws {
        var configuration = SessionHarness.quick
        configuration.aloneCheckBeforeEveryWrite = false
        let harness = try await SessionHarness.start(
            tags: [try Type2Tag(chip: .ntag215, uid: SessionUID.first)], configuration: configuration)
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let tag = try await harness.connectToOnlyTag()
            let ntag = try #require(tag as? NFCType2Tag)
            #expect(ntag.chip == .ntag215 && ntag.memory.userPages == 4...129)
            let polls = harness.emulator.statistics.commandsByCode[0x60, default: 0]
            try await tag.writeNDEF(SessionMessages.new)
            #expect(try await ntag.readConfiguration().auth0 == 0xFF)
            #expect(try await ntag.readLockState().lockedPages.isEmpty)
            _ = try await ntag.verifyOriginality()
            #expect(try await tag.readNDEF() == SessionMessages.new)
            try await tag.writeLock()
            #expect(try await tag.queryNDEFStatus().availability == .readOnly)
            if ReaderUnderTest.current.model.countsTagsInOnePoll {
                #expect(
                    harness.emulator.statistics.commandsByCode[0x60, default: 0] == polls,
                    "a chip command or a write looked at the field again")
            }
            await harness.stop()
        }
    }

    @Test("a chip command on a connection that ended is connectionEnded, and reaches no tag")
    func endedConnection() async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: .ntag215, uid: SessionUID.first)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let ntag = try #require(try await harness.connectToOnlyTag() as? NFCType2Tag)
            try await harness.session.restartPolling()
            await #expect(throws: TagSessionError.connectionEnded) { _ = try await ntag.read(page: 4) }
            await #expect(throws: NDEFSessionError.tagNotConnected) { _ = try await ntag.readNDEF() }
            await harness.stop()
            let frames = harness.emulator.statistics.framesToTags
            await #expect(throws: TagSessionError.connectionEnded) { _ = try await ntag.getVersion() }
            #expect(harness.emulator.statistics.framesToTags == frames)
        }
    }

    @Test("a tag lost during a chip command ends the connection: the session polls again and finds it back")
    func tagLostDuringChipCommand() async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: .ntag215, uid: SessionUID.first)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let ntag = try #require(try await harness.connectToOnlyTag() as? NFCType2Tag)
            let handle = try #require(harness.emulator.withField { $0.handles.first })
            let removed = try #require(harness.emulator.remove(handle))
            let mark = harness.log.all.count
            await #expect(throws: TagSessionError.tagLost(operation: .read)) { _ = try await ntag.read(page: 4) }
            #expect(await harness.session.state == .polling)
            // Polling again, the session sees the field empty, then the tag back.
            try await harness.log.wait(from: mark) { event in
                if case .tagRemoved = event { return true }
                return false
            }
            harness.emulator.insert(removed)
            let (_, tags) = try await harness.log.detected(from: mark, count: 1)
            #expect(tags.first?.uid == SessionUID.first)
            await #expect(throws: TagSessionError.connectionEnded) { _ = try await ntag.read(page: 4) }
            await harness.stop()
        }
    }
}

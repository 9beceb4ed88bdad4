import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// What an NDEF session reports about the field: one tag, two tags, removal, re-presentation.
@Suite("NDEFSession polling", .tags(.reader), .serialized, .timeLimit(.minutes(2)))
struct NDEFSessionPollingTests {
    static let type2Chips: [Chip] = [.ntag213, .ntag215, .ntag216, .ultralightEV1MF0UL11, .ultralightEV1MF0UL21]

    @Test("one tag in the field is reported once with its identified chip", arguments: type2Chips)
    func reportsOneTag(chip: Chip) async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: chip, uid: SessionUID.first)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let (index, tags) = try await harness.log.detected()
            #expect(tags.map(\.uid) == [SessionUID.first])
            #expect(tags.first?.chip == chip)
            #expect(tags.first?.chipName == chip.rawValue)
            // Polling goes on (a dozen more commands reach the reader) without reporting the same tag again.
            let before = harness.fixture.emulator.statistics.commands
            while harness.fixture.emulator.statistics.commands < before + 12 {
                try await Task.sleep(for: .milliseconds(10))
            }
            let later = harness.log.all[(index + 1)...].filter { if case .tagsDetected = $0 { true } else { false } }
            #expect(later.isEmpty, "\(later)")
            #expect(await harness.session.state == .polling)
            await harness.stop()
        }
    }

    @Test(
        "two tags: both reported, remove-one prompt, connect refused with severalTags, nothing written, polling resumes"
    )
    func twoTagsNeverWrite() async throws {
        let harness = try await SessionHarness.start(tags: [
            try Type2Tag(chip: .ntag215, uid: SessionUID.first),
            try Type2Tag(chip: .ntag213, uid: SessionUID.second),
        ])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            let before = [harness.memory(ofTag: 0), harness.memory(ofTag: 1)]
            let (index, tags) = try await harness.log.detected(count: 2)
            #expect(Set(tags.map(\.uid)) == [SessionUID.first, SessionUID.second])
            #expect(Set(tags.compactMap(\.chip)) == [.ntag215, .ntag213])
            try await harness.log.wait(from: index) { if case .prompt(.removeAllButOne) = $0 { true } else { false } }
            let first = try #require(tags.first)
            await #expect(throws: NDEFSessionError.severalTags(count: 2)) {
                _ = try await harness.session.connect(to: first)
            }
            #expect(await harness.session.state == .polling)
            #expect([harness.memory(ofTag: 0), harness.memory(ofTag: 1)] == before)

            // Take the second tag away: polling (restarted) reports it gone, then the one left can be written.
            let mark = harness.log.all.count
            harness.emulator.withField { field in _ = field.remove(field.handles[1]) }
            try await harness.log.wait(from: mark) { event in
                if case .tagRemoved(let tag) = event { return tag.uid == SessionUID.second }
                return false
            }
            let tag = try await harness.session.connect(to: first)
            try await tag.writeNDEF(SessionMessages.old)
            #expect(try await tag.readNDEF() == SessionMessages.old)
            await harness.stop()
        }
    }

    /// The poll that found the tag alone (the session's round, then the connect) is its alone
    /// check while it stays selected: a tag that enters the field later is IDLE on a PN532 —
    /// only REQA / WUPA wake it, and only a poll or a select sends those — so it answers
    /// nothing sent to the selected tag. The write goes to the connected tag, never to the
    /// newcomer; the next poll counts both and refuses.
    @Test("a second tag arriving after connect: the write is refused with severalTags and the tag is untouched")
    func secondTagRefusesWrite() async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: .ntag215, uid: SessionUID.first)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let tag = try await harness.connectToOnlyTag()
            harness.emulator.insert(try Type2Tag(chip: .ntag216, uid: SessionUID.second))
            let before = harness.memory(ofTag: 0)
            let mark = harness.log.all.count
            await #expect(throws: NDEFSessionError.severalTags(count: 2)) {
                try await tag.writeNDEF(SessionMessages.new)
            }
            #expect(harness.memory(ofTag: 0) == before)
            try await harness.log.wait(from: mark) { if case .prompt(.removeAllButOne) = $0 { true } else { false } }
            // The connection ended; the session polls again.
            await #expect(throws: NDEFSessionError.tagNotConnected) { _ = try await tag.readNDEF() }
            #expect(await harness.session.state == .polling)
            await harness.stop()
        }
    }

    @Test(
        "aloneCheckBeforeEveryWrite off: a second tag arriving after the alone check is never written; the write reaches the connected tag only and the next poll refuses both"
    )
    func secondTagAfterAloneCheck() async throws {
        var configuration = SessionHarness.quick
        configuration.aloneCheckBeforeEveryWrite = false
        let harness = try await SessionHarness.start(
            tags: [try Type2Tag(chip: .ntag215, uid: SessionUID.first)], configuration: configuration)
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let tag = try await harness.connectToOnlyTag()
            harness.emulator.insert(try Type2Tag(chip: .ntag216, uid: SessionUID.second))
            let newcomer = harness.memory(ofTag: 1)
            guard ReaderUnderTest.current.model.countsTagsInOnePoll else {
                // A reader whose poll does not count the field (ACR122U, PN533) lists it before
                // each write whatever the setting: the write sees both and writes neither.
                let first = harness.memory(ofTag: 0)
                await #expect(throws: NDEFSessionError.severalTags(count: 2)) {
                    try await tag.writeNDEF(SessionMessages.new)
                }
                #expect(harness.memory(ofTag: 0) == first && harness.memory(ofTag: 1) == newcomer)
                await harness.stop()
                return
            }
            let polls = harness.emulator.statistics.commandsByCode[0x60, default: 0]
            try await tag.writeNDEF(SessionMessages.new)
            #expect(
                harness.emulator.statistics.commandsByCode[0x60, default: 0] == polls,
                "the connect's poll is the write's alone check")
            #expect(harness.memory(ofTag: 1) == newcomer, "the tag that came later was not written")
            #expect(try await tag.readNDEF() == SessionMessages.new)

            // Polling again: the first poll sees both, and nothing is written to either.
            let mark = harness.log.all.count
            try await harness.session.restartPolling()
            let (_, tags) = try await harness.log.detected(from: mark, count: 2)
            let memories = [harness.memory(ofTag: 0), harness.memory(ofTag: 1)]
            await #expect(throws: NDEFSessionError.severalTags(count: 2)) {
                _ = try await harness.session.connect(to: tags[0])
            }
            #expect([harness.memory(ofTag: 0), harness.memory(ofTag: 1)] == memories)
            await harness.stop()
        }
    }

    @Test(
        "the connected tag swapped for another after the alone check: the write fails as tag lost and the other tag is untouched"
    )
    func swappedTagIsNotWritten() async throws {
        // With the poll's proof reused (the riskier setting): the swap still ends it.
        var configuration = SessionHarness.quick
        configuration.aloneCheckBeforeEveryWrite = false
        let harness = try await SessionHarness.start(
            tags: [try Type2Tag(chip: .ntag215, uid: SessionUID.first)], configuration: configuration)
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let tag = try await harness.connectToOnlyTag()
            harness.emulator.withField { field in _ = field.remove(field.handles[0]) }
            harness.emulator.insert(try Type2Tag(chip: .ntag215, uid: SessionUID.second))
            let other = harness.memory(ofTag: 0)
            do throws(NDEFSessionError) {
                try await tag.writeNDEF(SessionMessages.new)
                Issue.record("a write to a tag that left succeeded")
            } catch .connectionLost(_, let state, nil) {
                #expect(state == .previousMessageIntact)
            } catch {
                Issue.record("unexpected \(error)")
            }
            #expect(harness.memory(ofTag: 0) == other, "the tag that took its place was not written")
            await harness.stop()
        }
    }

    @Test("a tag removed is reported, and reported again when presented again")
    func removedAndRepresented() async throws {
        let harness = try await SessionHarness.start(tags: [])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let handle = harness.emulator.insert(try Type2Tag(chip: .ntag215, uid: SessionUID.first))
            let (first, _) = try await harness.log.detected(count: 1)
            let tagModel = try #require(harness.emulator.remove(handle))
            let (removed, _) = try await harness.log.wait(from: first) {
                if case .tagRemoved = $0 { true } else { false }
            }
            harness.emulator.insert(tagModel)
            let (_, again) = try await harness.log.detected(from: removed, count: 1)
            #expect(again.map(\.uid) == [SessionUID.first])
            await harness.stop()
        }
    }

    @Test("waitForTags after restartPolling waits for the round: a tag that left is not returned, the next one is")
    func waitAfterRestartSkipsLeftTag() async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: .ntag215, uid: SessionUID.first)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let tag = try await harness.connectToOnlyTag()
            harness.emulator.withField { field in for handle in field.handles { field.remove(handle) } }
            harness.emulator.insert(try Type2Tag(chip: .ntag215, uid: SessionUID.second))
            try await harness.session.restartPolling()
            let found = try await harness.session.waitForTags(timeout: .seconds(10))
            #expect(found.map(\.uid) == [SessionUID.second])
            #expect(tag.uid == SessionUID.first)
            await harness.stop()
        }
    }

    @Test("invalidateAfterFirstRead reads the message, reports it and ends the session")
    func firstRead() async throws {
        var configuration = SessionHarness.quick
        configuration.invalidateAfterFirstRead = true
        let harness = try await SessionHarness.start(tags: [], configuration: configuration)
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            harness.emulator.insert(try Type2Tag(chip: .ntag215, uid: SessionUID.first))
            let (_, event) = try await harness.log.wait { if case .messageRead = $0 { true } else { false } }
            guard case .messageRead(let tag, let message) = event else { return }
            #expect(tag.uid == SessionUID.first)
            #expect(message == SessionMessages.empty)
            try await harness.log.wait { if case .invalidated(.firstReadCompleted) = $0 { true } else { false } }
            #expect(await harness.session.state == .invalidated(.firstReadCompleted))
            await #expect(throws: NDEFSessionError.sessionInvalidated(.firstReadCompleted)) {
                try await harness.session.restartPolling()
            }
            await harness.device.close()
        }
    }

    @Test("invalidate ends polling, finishes the events and refuses connect")
    func invalidateEnds() async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: .ntag215, uid: SessionUID.first)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let (_, tags) = try await harness.log.detected(count: 1)
            await harness.session.setAlertMessage("Hold your badge near the reader")
            try await harness.log.wait {
                if case .prompt(.alert("Hold your badge near the reader")) = $0 { true } else { false }
            }
            await harness.session.invalidate()
            try await harness.log.wait { if case .invalidated(.userCanceled) = $0 { true } else { false } }
            await #expect(throws: NDEFSessionError.sessionInvalidated(.userCanceled)) {
                _ = try await harness.session.connect(to: try #require(tags.first))
            }
            await #expect(throws: NDEFSessionError.sessionInvalidated(.userCanceled)) {
                _ = try await harness.session.waitForTags(timeout: .seconds(1))
            }
            await harness.device.close()
        }
    }

    @Test("waitForTags with an empty field times out with timeout(step: nil)")
    func waitTimesOut() async throws {
        let harness = try await SessionHarness.start(tags: [])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            await #expect(throws: NDEFSessionError.timeout(step: nil)) {
                _ = try await harness.session.waitForTags(timeout: .milliseconds(300))
            }
            await harness.stop()
        }
    }
}

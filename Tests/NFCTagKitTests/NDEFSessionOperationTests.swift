import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Locking
import Testing
import TestSupport

/// Query, read, write, lock and format through an NDEF session, and each refusal.
@Suite("NDEFSession operations", .tags(.reader), .serialized, .timeLimit(.minutes(3)))
struct NDEFSessionOperationTests {
    @Test("query, write, read back, lock and format on each Type 2 chip", arguments: NDEFSessionPollingTests.type2Chips)
    func lifecycle(chip: Chip) async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: chip, uid: SessionUID.first)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            let tag = try await harness.connectToOnlyTag()
            #expect(tag.chip == chip)
            var status = try await tag.queryNDEFStatus()
            if status.availability == .notSupported {
                try await #require(tag as? any NFCTagHandle).format()
                status = try await tag.queryNDEFStatus()
            }
            #expect(status.availability == .readWrite)
            #expect(status.length == 0)
            let userBytes = try #require(ChipTables.spec(for: chip).memory?.userBytes)
            #expect(status.capacity > 0 && status.capacity < userBytes)

            let message = try SessionMessages.sized(min(status.capacity, 40))
            let progress = Locked<[TagSessionProgress]>([])
            try await tag.writeNDEF(message, options: NDEFWriteOptions()) { step in
                progress.withLock { $0.append(step) }
            }
            let steps = progress.withLock { $0 }
            #expect(
                steps.last.map { $0.completed == $0.expected && $0.expected > 0 && $0.isFinished } == true, "\(steps)")
            #expect(try await tag.readNDEF() == message)
            let encoded = try message.encoded()
            #expect(
                try await tag.queryNDEFStatus()
                    == NDEFStatus(
                        availability: .readWrite, capacity: status.capacity,
                        length: encoded.count))

            // format refuses a tag holding NDEF, and with force leaves an empty message.
            await #expect(throws: NDEFSessionError.alreadyFormatted) {
                try await #require(tag as? any NFCTagHandle).format()
            }
            try await #require(tag as? any NFCTagHandle).format(force: true)
            #expect(try await tag.readNDEF() == SessionMessages.empty)

            try await tag.writeNDEF(message)
            try await tag.writeLock()
            #expect(try await tag.queryNDEFStatus().availability == .readOnly)
            #expect(try await tag.readNDEF() == message)
            let before = harness.memory()
            await #expect(throws: NDEFSessionError.tagNotWritable) { try await tag.writeNDEF(SessionMessages.old) }
            #expect(harness.memory() == before)
            let locks = try await #require(tag as? NFCType2Tag).readLockState()
            #expect(locks.isCapabilityContainerReadOnly)
            #expect(locks.lockedPages.contains(ChipTables.spec(for: chip).memory?.firstUserPage ?? -1))
            await harness.stop()
        }
    }

    @Test("a message that does not fit is tagSizeTooSmall and leaves the tag untouched")
    func sizeTooSmall() async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: .ntag213, uid: SessionUID.first)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let tag = try await harness.connectToOnlyTag()
            try await tag.writeNDEF(SessionMessages.old)
            let capacity = try await tag.queryNDEFStatus().capacity
            let before = harness.memory()
            let big = try SessionMessages.sized(capacity + 40)
            let needed = try big.encoded().count
            await #expect(throws: NDEFSessionError.tagSizeTooSmall(needed: needed, capacity: capacity)) {
                try await tag.writeNDEF(big)
            }
            #expect(harness.memory() == before)
            #expect(try await tag.readNDEF() == SessionMessages.old)
            await harness.stop()
        }
    }

    @Test("writeLock without a verified read on this connection is refused; after readNDEF it locks")
    func lockNeedsVerifiedRead() async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: .ntag215, uid: SessionUID.first)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let first = try await harness.connectToOnlyTag()
            try await first.writeNDEF(SessionMessages.old)
            // A new connection has a new driver: nothing verified on it yet.
            try await harness.session.restartPolling()
            await #expect(throws: NDEFSessionError.tagNotConnected) { _ = try await first.readNDEF() }
            let mark = harness.log.all.count
            let second = try await harness.connectToOnlyTag(from: mark)
            let before = harness.memory()
            await #expect(throws: NDEFSessionError.notVerified) { try await second.writeLock() }
            #expect(harness.memory() == before)
            #expect(try await second.readNDEF() == SessionMessages.old)
            try await second.writeLock()
            #expect(try await second.queryNDEFStatus().availability == .readOnly)
            await harness.stop()
        }
    }

    @Test("a corrupt NDEF message is invalidNDEF with its byte address, and a write repairs it")
    func corruptMessage() async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: .ntag215, uid: SessionUID.first)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let tag = try await harness.connectToOnlyTag()
            try await tag.writeNDEF(SessionMessages.old)
            let firstUserPage = try #require(ChipTables.spec(for: .ntag215).memory?.firstUserPage)
            // Page 4 holds 03 LEN D1 01: break the record header's type length.
            harness.modifyTag { tag in
                var page = tag.page(firstUserPage)
                page[3] = 0x7F
                tag.setPage(firstUserPage, to: page)
            }
            do throws(NDEFSessionError) {
                _ = try await tag.readNDEF()
                Issue.record("a corrupt message was read")
            } catch {
                guard case .invalidNDEF(let offset, _) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(offset >= firstUserPage * 4, "\(error)")
            }
            try await tag.writeNDEF(SessionMessages.new)
            #expect(try await tag.readNDEF() == SessionMessages.new)
            await harness.stop()
        }
    }

    @Test("an unknown chip is refused at connect with unsupportedTag, and polling goes on")
    func unknownChip() async throws {
        var model = PageTag(uid: Array(SessionUID.first.prefix(4)))
        model.identity = TagIdentity(uid: model.identity.uid, atqa: 0x0F0F, sak: 0x00)
        let harness = try await SessionHarness.start(tags: [model])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let (_, tags) = try await harness.log.detected(count: 1)
            let detected = try #require(tags.first)
            #expect(detected.chip == nil)
            do throws(NDEFSessionError) {
                _ = try await harness.session.connect(to: detected)
                Issue.record("an unidentified chip was connected")
            } catch {
                guard case .unsupportedTag = error else {
                    Issue.record("\(error)")
                    return
                }
            }
            // Refused before polling paused: the session still polls.
            #expect(await harness.session.state == .polling)
            await harness.stop()
        }
    }

    @Test(
        "MIFARE Classic through libnfc: a factory card is formatted (MAD + NDEF sectors), written and read back",
        arguments: [Chip.classic1k, .classic4k])
    func classic(chip: Chip) async throws {
        let harness = try await SessionHarness.start(tags: [try ClassicTag(chip: chip, uid: [0x3E, 0x39, 0xAB, 0x7F])])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 90) {
            let (_, tags) = try await harness.log.detected(count: 1)
            let detected = try #require(tags.first)
            #expect(detected.chip == chip)
            let tag = try await harness.session.connect(to: detected)
            #expect(try await tag.queryNDEFStatus().availability == .notSupported)
            try await #require(tag as? any NFCTagHandle).format()
            let status = try await tag.queryNDEFStatus()
            #expect(status.availability == .readWrite)
            #expect(status.length == 0)
            try await tag.writeNDEF(SessionMessages.new)
            #expect(try await tag.readNDEF() == SessionMessages.new)
            await harness.stop()
        }
    }
}

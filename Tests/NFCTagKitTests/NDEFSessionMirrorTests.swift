import Foundation
import NFCEmulator
@testable import NFCTagKit
import Testing
import TestSupport

/// NTAG21x ASCII mirrors written through the NDEF session, over libnfc and the emulated PN532.
@Suite("NDEF session: URLs with a live UID and counter (NTAG21x mirror)", .tags(.reader), .serialized)
struct NDEFSessionMirrorTests {
    static let uid: [UInt8] = [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]

    func uri(_ message: NDEFMessage) throws -> String {
        try NDEFURIRecord(record: try #require(message.records.first)).uri
    }

    @Test("{uid}x{counter}: every read shows the live UID and the counter, which goes up between two reads")
    func uidAndCounter() async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            let tag = try await harness.connectToOnlyTag()
            let template = try NTAGMirrorTemplate(uri: "https://example.com/t?id={uid}x{counter}", chip: .ntag215)
            #expect(template.placeholderLength == 21)
            try await #require(tag as? NFCType2Tag).writeNDEF(mirroring: template)
            let first = try uri(try await tag.readNDEF())
            #expect(first.hasPrefix("https://example.com/t?id=04475ED29C3980x"), "\(first)")
            // Taken away and presented again: a new activation counts one more read.
            let handle = try #require(harness.emulator.withField { $0.handles.first })
            let removed = try #require(harness.emulator.remove(handle))
            harness.emulator.insert(removed)
            let tagAgain = try await harness.session.connect(to: try #require(await harness.session.detectedTags.first))
            let second = try uri(try await tagAgain.readNDEF())
            #expect(second.hasPrefix("https://example.com/t?id=04475ED29C3980x"))
            let counters = [first, second].compactMap { Int($0.suffix(6), radix: 16) }
            #expect(counters.count == 2 && counters[1] > counters[0], "\(first) → \(second)")
            await harness.stop()
        }
    }

    @Test(
        "refused with nothing written: a chip without a mirror, a layout the chip cannot mirror, a message larger than the tag"
    )
    func refusals() async throws {
        #expect(throws: NTAGMirrorError.chipHasNoMirror(.ultralight)) {
            _ = try NTAGMirrorTemplate(uri: "https://example.com/{uid}", chip: .ultralight)
        }
        #expect(throws: NTAGMirrorError.self) {
            _ = try NTAGMirrorTemplate(uri: "https://example.com/{counter}x{uid}", chip: .ntag215)
        }
        #expect(throws: NTAGMirrorError.self) {
            _ = try NTAGMirrorTemplate(uri: "https://example.com/{uid}/{counter}", chip: .ntag215)
        }
        #expect(throws: NTAGMirrorError.noPlaceholder) {
            _ = try NTAGMirrorTemplate(uri: "https://example.com/", chip: .ntag215)
        }

        // A message that does not fit is refused before anything is written (with a correct CC
        // the capacity check also keeps every mirror inside the user memory).
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: .ntag213, uid: Self.uid)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            let tag = try #require(try await harness.connectToOnlyTag() as? NFCType2Tag)
            try await tag.writeNDEF(NDEFMessage(records: [NDEFURIRecord(uri: "https://example.com/old").record]))
            let before = harness.memory()
            let long = "https://example.com/" + String(repeating: "p", count: 140) + "?u={uid}"
            let template = try NTAGMirrorTemplate(uri: long, chip: .ntag213)
            do throws(NDEFSessionError) {
                try await tag.writeNDEF(mirroring: template)
                Issue.record("a mirror message larger than the tag was written")
            } catch .tagSizeTooSmall {
            } catch {
                Issue.record("unexpected \(error)")
            }
            #expect(harness.memory() == before, "something was written")
            await harness.stop()
        }
    }

    @Test("a configuration write that fails after the message is named as that write, not as a read")
    func configurationWriteFailure() async throws {
        // The EEPROM cycle of CFG0 (page 0x83 on an NTAG215, MIRROR_CONF and AUTH0) fails.
        let configurationPage = try #require(ChipTables.spec(for: .ntag215).memory?.configuration?.pages.first)
        let harness = try await SessionHarness.start(
            tags: [try Type2Tag(chip: .ntag215, uid: Self.uid)],
            faults: FaultPlan(parsing: ["eeprom-fail-page=\(configurationPage)"]))
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            let tag = try #require(try await harness.connectToOnlyTag() as? NFCType2Tag)
            let template = try NTAGMirrorTemplate(uri: "https://example.com/t?id={uid}", chip: .ntag215)
            do throws(NDEFSessionError) {
                try await tag.writeNDEF(mirroring: template)
                Issue.record("the mirror was set on a page whose write fails")
            } catch .readerFailure(let step, let reason) {
                #expect(step == .writeConfiguration(page: configurationPage), "\(String(describing: step))")
                #expect(reason.contains("the message is written and verified"), "\(reason)")
            } catch {
                Issue.record("unexpected \(error)")
            }
            // The message itself is on the tag (the NAK left the tag IDLE: read its memory).
            let memory = try #require(harness.memory())
            #expect(String(decoding: memory, as: UTF8.self).contains("example.com/t?id=00000000000000"))
            await harness.stop()
        }
    }
}

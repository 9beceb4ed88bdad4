import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// NFC Forum Type 4 and MIFARE Ultralight C through the NDEF session, libnfc and the
/// emulated PN532: status, read, write (short and long), and the read-only refusal.
@Suite("NDEFSession on Type 4 and Ultralight C tags", .tags(.reader), .serialized, .timeLimit(.minutes(3)))
struct NDEFSessionType4AndUltralightCTests {
    static let uid: [UInt8] = [0x04, 0x62, 0x19, 0xA3, 0x5B, 0x70, 0x80]

    /// The NDEF file of the emulated Type 4 tag `index`.
    static func type4Message(_ harness: SessionHarness, tag index: Int = 0) -> [UInt8]? {
        harness.emulator.withField { field -> [UInt8]? in
            guard index < field.handles.count else { return nil }
            return (field.tag(field.handles[index]) as? Type4Tag)?.ndefMessage
        }
    }

    @Test("Type 4: an empty tag reads as an empty message, with the CC's capacity (file size minus NLEN)")
    func type4Status() async throws {
        let harness = try await SessionHarness.start(tags: [try Type4Tag(uid: Self.uid)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            let tag = try await harness.connectToOnlyTag()
            #expect(tag.chip == .type4)
            let files = try #require(ChipTables.spec(for: .type4).type4Files)
            let status = try await tag.queryNDEFStatus()
            #expect(
                status
                    == NDEFStatus(
                        availability: .readWrite, capacity: files.ndefFileSize - ChipTables.type4.nlenLength, length: 0)
            )
            #expect(try await tag.readNDEF() == SessionMessages.empty)
            await harness.stop()
        }
    }

    @Test(
        "Type 4: short and long messages (several UPDATE BINARY APDUs) write, verify and read back",
        arguments: [20, 240, 1500])
    func type4Write(size: Int) async throws {
        let harness = try await SessionHarness.start(tags: [try Type4Tag(uid: Self.uid)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            let tag = try await harness.connectToOnlyTag()
            let message = try SessionMessages.sized(size)
            try await tag.writeNDEF(message)
            #expect(Self.type4Message(harness) == (try message.encoded()))
            #expect(try await tag.readNDEF() == message)
            // A shorter message replaces a longer one; NLEN says where it ends.
            try await tag.writeNDEF(SessionMessages.old)
            #expect(try await tag.readNDEF() == SessionMessages.old)
            #expect(try await tag.queryNDEFStatus().length == (try SessionMessages.old.encoded()).count)
            await harness.stop()
        }
    }

    @Test("Type 4: a read-only NDEF file is readOnly, and a write is tagNotWritable with the file untouched")
    func type4ReadOnly() async throws {
        var readOnly = try Type4Tag(uid: Self.uid, readOnly: true)
        readOnly.setNDEFMessage(try SessionMessages.old.encoded())
        let harness = try await SessionHarness.start(tags: [readOnly])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            let tag = try await harness.connectToOnlyTag()
            #expect(try await tag.queryNDEFStatus().availability == .readOnly)
            #expect(try await tag.readNDEF() == SessionMessages.old)
            await #expect(throws: NDEFSessionError.tagNotWritable) { try await tag.writeNDEF(SessionMessages.new) }
            #expect(Self.type4Message(harness) == (try SessionMessages.old.encoded()))
            await harness.stop()
        }
    }

    @Test("Type 4: a message larger than the file is tagSizeTooSmall before anything is written")
    func type4TooLarge() async throws {
        let harness = try await SessionHarness.start(tags: [try Type4Tag(uid: Self.uid)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            let tag = try await harness.connectToOnlyTag()
            let capacity = try await tag.queryNDEFStatus().capacity
            let tooLarge = try SessionMessages.sized(capacity + 40)
            let needed = try tooLarge.encoded().count
            await #expect(throws: NDEFSessionError.tagSizeTooSmall(needed: needed, capacity: capacity)) {
                try await tag.writeNDEF(tooLarge)
            }
            #expect(Self.type4Message(harness) == [])
            await harness.stop()
        }
    }

    @Test("Ultralight C: identified, formatted when blank, then write / read / status through the session")
    func ultralightC() async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: .ultralightC, uid: Self.uid)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            let tag = try await harness.connectToOnlyTag()
            #expect(tag.chip == .ultralightC)
            var status = try await tag.queryNDEFStatus()
            if status.availability == .notSupported {
                try await #require(tag as? any NFCTagHandle).format()
                status = try await tag.queryNDEFStatus()
            }
            #expect(status.availability == .readWrite)
            #expect(status.length == 0)
            let userBytes = try #require(ChipTables.spec(for: .ultralightC).memory?.userBytes)
            #expect(status.capacity > 0 && status.capacity < userBytes)
            #expect(try await tag.readNDEF() == SessionMessages.empty)

            let message = try SessionMessages.sized(status.capacity)
            try await tag.writeNDEF(message)
            #expect(try await tag.readNDEF() == message)
            #expect(try await tag.queryNDEFStatus().length == (try message.encoded()).count)
            try await tag.writeNDEF(SessionMessages.old)
            #expect(try await tag.readNDEF() == SessionMessages.old)
            await harness.stop()
        }
    }
}

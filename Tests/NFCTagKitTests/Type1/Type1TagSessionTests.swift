import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// A Topaz in a tag session and an NDEF session, through real libnfc on the reader kind
/// under test: the Jewel poll and RID that find it, its commands, NDEF on Type 1, the
/// two-tags rule.
@Suite("Type 1 in a tag session", .tags(.reader), .serialized, .timeLimit(.minutes(1)))
struct Type1TagSessionTests {
    static let uid: [UInt8] = [0x3C, 0x56, 0x54, 0x00, 0x11, 0x22, 0x33]
    static let url = NDEFMessage(records: [.wellKnown("U", payload: [0x04] + Array("example.com/topaz".utf8))])

    func withSession(
        _ chip: Type1ChipName = .topaz,
        _ body: @escaping @Sendable (TagSession, EmulatorFixture) async throws -> Void
    ) async throws {
        let fixture = try EmulatorFixture(tags: [Type1Tag(chip: chip, uid: Self.uid)])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            let device = try await fixture.connectedDevice()
            let session = try await TagSession.connect(on: device, timeout: .seconds(5))
            try await body(session, fixture)
            await device.close()
        }
    }

    @Test("connect finds a Topaz when nothing else answers: its header ROM, its UID0-6, its identification")
    func connect() async throws {
        try await withSession { session, _ in
            guard case .type1(let tag) = session.target else {
                Issue.record("target \(session.target)")
                return
            }
            #expect(tag.headerROM == [0x11, 0x48])
            #expect(session.uid == Self.uid)
            #expect(session.identification.description == "topaz (JEWELID 3C565400, HR 1148)")
            let handle = try #require(session.ndefHandle as? NFCType1Tag)
            #expect(try await handle.readIdentification() == [0x11, 0x48] + Self.uid.prefix(4))
            #expect(try await handle.read(address: 8) == 0xE1)
            #expect(try await handle.write(address: 0x50, value: 0xA5) == 0xA5)
            #expect(try await handle.write(address: 0x50, value: 0x5A, erase: false) == 0xFF)
            let all = try await handle.readAll()
            #expect(all.count == 122 && all[2 + 0x50] == 0xFF)
            // The PN532 reaches segment 0 only.
            await #expect(throws: TagSessionError.self) { _ = try await handle.readSegment(1) }
        }
    }

    @Test("NDEF on Type 1: status, write, read, lock for good")
    func ndef() async throws {
        try await withSession { session, _ in
            let tag = try #require(session.ndefHandle)
            #expect(try await tag.queryNDEFStatus() == NDEFStatus(availability: .readWrite, capacity: 90, length: 0))
            try await tag.writeNDEF(Self.url)
            #expect(try await tag.readNDEF() == Self.url)
            try await tag.writeLock()
            #expect(try await tag.queryNDEFStatus().availability == .readOnly)
            await #expect(throws: NDEFSessionError.self) { try await tag.writeNDEF(Self.url) }
        }
    }

    @Test("a Topaz 512: the 80 bytes of its static memory a PN532 reaches; a longer message is refused as too big")
    func topaz512() async throws {
        try await withSession(.topaz512) { session, _ in
            let tag = try #require(session.ndefHandle)
            #expect(try await tag.queryNDEFStatus().capacity == 80)
            let long = NDEFMessage(records: [
                .wellKnown("T", payload: [0x02] + Array("en".utf8) + Array(repeating: 0x61, count: 90))
            ])
            do throws(NDEFSessionError) {
                try await tag.writeNDEF(long)
                Issue.record("a 97-byte message fitted 80 bytes")
            } catch {
                guard case .tagSizeTooSmall = error else {
                    Issue.record("\(error)")
                    return
                }
            }
            try await tag.writeNDEF(Self.url)
            #expect(try await tag.readNDEF() == Self.url)
        }
    }

    @Test("a type A tag beside the Topaz: the write is refused before anything is written")
    func twoTechnologies() async throws {
        try await withSession { session, fixture in
            let tag = try #require(session.ndefHandle)
            let ntag = fixture.emulator.insert(try Type2Tag(chip: .ntag215, uid: TestUID.first))
            await #expect(throws: NDEFSessionError.severalTags(count: 2)) { try await tag.writeNDEF(Self.url) }
            _ = fixture.emulator.remove(ntag)
            #expect(try await tag.readNDEF() == NDEFMessage(records: []), "nothing was written")
        }
    }

    @Test("a FeliCa card, a type B card or an ST25TB beside the Topaz: the write is refused; alone again, it goes")
    func cardsBeside() async throws {
        try await withSession { session, fixture in
            let tag = try #require(session.ndefHandle)
            for card in [
                FeliCaLiteSTag(idm: EmulatedTagFactory.feliCaDefaultIDm(), ndef: true) as any EmulatedTag,
                try Type4Tag(typeBPUPI: [0xB1, 0x22, 0x33, 0x44]), ST25TBTag(uid: ChipTables.st25tb.emulatedUID),
            ] {
                let other = fixture.emulator.insert(card)
                await #expect(throws: NDEFSessionError.severalTags(count: 2)) { try await tag.writeNDEF(Self.url) }
                _ = fixture.emulator.remove(other)
            }
            try await tag.writeNDEF(Self.url)
            #expect(try await tag.readNDEF() == Self.url)
        }
    }

    @Test("an NDEF session reports the Topaz by its UID0-6 and writes and reads it")
    func ndefSession() async throws {
        let fixture = try EmulatorFixture(tags: [Type1Tag(chip: .topaz, uid: Self.uid)])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            let device = try await fixture.connectedDevice()
            let session = NDEFSession(device: device)
            try await session.begin()
            let tags = try await session.waitForTags(timeout: .seconds(10))
            #expect(tags.map(\.uid) == [Self.uid] && tags.first?.chipName == "topaz")
            let tag = try await session.connect(to: try #require(tags.first))
            try await tag.writeNDEF(Self.url)
            #expect(try await tag.readNDEF() == Self.url)
            await session.invalidate()
            await device.close()
        }
    }
}

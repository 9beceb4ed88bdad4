import Foundation
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// One tag model: a ``TagSession``'s family handles answer the NDEF calls of
/// ``NFCNDEFTag`` on the same connection as their chip commands, through libnfc to the
/// emulated reader.
@Suite("TagSession handles are NDEF tags", .tags(.reader), .serialized, .timeLimit(.minutes(2)))
struct TagSessionNDEFTests {
    static let uid: [UInt8] = [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]
    static let password = TagPassword(uncheckedBytes: [0x5A, 0x17, 0xC3, 0x08])
    static let pack = PACK(uncheckedBytes: [0x3C, 0x96])

    @Test("write, verify, protect and lock an NTAG215 on one connection: the NDEF calls present the new password")
    func provisionOnOneConnection() async throws {
        try await withTagSession([try Type2Tag(chip: .ntag215, uid: Self.uid)]) { session, fixture in
            let ntag = try session.type2Tag()
            let first = ntag.memory.firstUserPage
            try await ntag.writeNDEF(NDEFMessage(.uri("https://example.com/1")))
            #expect(try await ntag.readNDEF().records.first?.uri == "https://example.com/1")
            let before = try await ntag.queryNDEFStatus()
            #expect(before.availability == .readWrite && before.length > 0, "\(before)")

            try await ntag.protect(password: Self.password, pack: Self.pack, from: first, readProtected: false)
            // The write's alone check selects the tag again, which ends PWD_AUTH: the session
            // presents the password it protected the tag with, and the write goes through.
            try await ntag.writeNDEF(NDEFMessage(.uri("https://example.com/2")))
            #expect(try await ntag.readNDEF().records.first?.uri == "https://example.com/2")
            try await ntag.writeLock()
            #expect(try await ntag.queryNDEFStatus().availability == .readOnly)

            // The tag itself: the message, the password in force, the lock bits set.
            let tag = try #require(fixture.emulator.tags.first as? Type2Tag)
            let memory = tag.memory
            #expect(String(decoding: memory, as: UTF8.self).contains("example.com/2"))
            let auth0 = try #require(ntag.memory.configuration?.auth0Page)
            #expect(tag.page(auth0)[3] == UInt8(first), "AUTH0 is not the first user page")
        }
    }

    @Test("a URL with a live UID and counter on the tag session's connection; a chip without a mirror writes nothing")
    func mirrorOnOneConnection() async throws {
        try await withTagSession([try Type2Tag(chip: .ntag215, uid: Self.uid)]) { session, fixture in
            let ntag = try session.type2Tag()
            let template = try NTAGMirrorTemplate(uri: "https://example.com/t?id={uid}x{counter}", chip: .ntag215)
            try await ntag.writeNDEF(mirroring: template)
            let uri = try #require(try await ntag.readNDEF().records.first?.uri)
            #expect(uri.hasPrefix("https://example.com/t?id=04475ED29C3980x"), "\(uri)")
            let configuration = try await ntag.readConfiguration()
            #expect(configuration.isNFCCounterEnabled == true)
            #expect(configuration.mirrorConfiguration == template.mirrorConfiguration)
        }
        try await withTagSession([try Type2Tag(chip: .ultralight, uid: Self.uid)]) { session, fixture in
            let ultralight = try session.type2Tag()
            let before = try #require(fixture.emulator.tags.first as? Type2Tag).memory
            let template = try NTAGMirrorTemplate(uri: "https://example.com/t?id={uid}", chip: .ntag215)
            do throws(NDEFSessionError) {
                try await ultralight.writeNDEF(mirroring: template)
                Issue.record("a mirror was written to an Ultralight")
            } catch {
                guard case .unsupportedTag(let reason) = error else { throw error }
                #expect(reason == "ultralight has no ASCII mirror")
            }
            #expect(try #require(fixture.emulator.tags.first as? Type2Tag).memory == before)
        }
    }

    @Test("a protected tag refuses a write until the session authenticates, and nothing is written")
    func protectedUntilAuthenticated() async throws {
        try await withTagSession([try Type2Tag(chip: .ntag215, uid: Self.uid)]) { session, fixture in
            let ntag = try session.type2Tag()
            try await ntag.protect(
                password: Self.password, pack: Self.pack, from: ntag.memory.firstUserPage, readProtected: false)
            let device = session.device
            await device.close()

            // A new connection knows no password.
            let again = NFCDevice()
            _ = try await again.connect(
                to: fixture.reader, configuration: fixture.configuration(reconnect: false, liveness: nil))
            let reconnected = try await TagSession.connect(on: again, timeout: .seconds(5)).type2Tag()
            let before = try #require(fixture.emulator.tags.first as? Type2Tag).memory
            await #expect(throws: NDEFSessionError.self) {
                try await reconnected.writeNDEF(NDEFMessage(.uri("https://example.com/refused")))
            }
            #expect(try #require(fixture.emulator.tags.first as? Type2Tag).memory == before)
            #expect(try await reconnected.queryNDEFStatus().availability == .readOnly)

            try await reconnected.authenticate(password: Self.password, expectedPACK: Self.pack)
            #expect(try await reconnected.queryNDEFStatus().availability == .readWrite)
            try await reconnected.writeNDEF(NDEFMessage(.uri("https://example.com/open")))
            #expect(try await reconnected.readNDEF().records.first?.uri == "https://example.com/open")
            await again.close()
        }
    }

    @Test("a second tag in the field after connect: the write is refused as several tags, nothing written")
    func secondTagRefusesTheWrite() async throws {
        try await withTagSession([try Type2Tag(chip: .ntag215, uid: Self.uid)]) { session, fixture in
            let ntag = try session.type2Tag()
            let before = try #require(fixture.emulator.tags.first as? Type2Tag).memory
            _ = fixture.emulator.insert(try Type2Tag(chip: .ntag213, uid: TestUID.second))
            do throws(NDEFSessionError) {
                try await ntag.writeNDEF(NDEFMessage(.uri("https://example.com/two")))
                Issue.record("written with two tags in the field")
            } catch .severalTags(let count) {
                #expect(count == 2)
            } catch {
                Issue.record("unexpected \(error)")
            }
            let first = try #require(fixture.emulator.tags.first { $0.identity.uid == Self.uid } as? Type2Tag)
            #expect(first.memory == before)
        }
    }

    /// Written once for any NDEF tag.
    static func writeAndRead(_ tag: some NFCNDEFTag, _ uri: String) async throws -> String? {
        try await tag.writeNDEF(NDEFMessage(.uri(uri)))
        return try await tag.readNDEF().records.first?.uri
    }

    @Test("one generic function writes through an NDEF-session tag and a tag-session handle alike")
    func oneProtocolForBothSessions() async throws {
        let fixture = try EmulatorFixture(tags: [try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            try await NFCDevice.withReader(fixture.connectionString) { device in
                let viaNDEF = try await NDEFSession.withTag(on: device) { tag in
                    try await Self.writeAndRead(tag, "https://example.com/ndef")
                }
                #expect(viaNDEF == "https://example.com/ndef")
                let session = try await TagSession.connect(on: device)
                #expect(
                    try await Self.writeAndRead(session.type2Tag(), "https://example.com/tag")
                        == "https://example.com/tag")
            }
        }
    }

    @Test("Type 4 through the ISO-DEP handle; a chip identification did not know is unsupported")
    func type4AndUnknown() async throws {
        try await withTagSession([try Type4Tag(uid: Self.uid)]) { session, _ in
            let tag = try session.isoDEPTag()
            try await tag.writeNDEF(NDEFMessage(.uri("https://example.com/t4")))
            #expect(try await tag.readNDEF().records.first?.uri == "https://example.com/t4")
            #expect(try await tag.queryNDEFStatus().availability == .readWrite)
        }
    }
}

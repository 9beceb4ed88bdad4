import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// An ISO/IEC 14443 Type B card in a tag session and an NDEF session, through real libnfc
/// on the reader kind under test: the connect that finds it, APDUs and Type 4 NDEF exactly
/// as on a type A tag, the two-tags rule across technologies.
@Suite("Type B in a tag session", .tags(.reader), .serialized, .timeLimit(.minutes(1)))
struct TypeBTagSessionTests {
    static let pupi: [UInt8] = [0xB1, 0x22, 0x33, 0x44]
    static let url = NDEFMessage(records: [.wellKnown("U", payload: [0x04] + Array("example.com/type-b".utf8))])
    static let selectNDEFApplication: [UInt8] = [
        0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00,
    ]

    func withSession(
        _ tags: [any EmulatedTag]? = nil,
        _ body: @escaping @Sendable (TagSession, EmulatorFixture) async throws -> Void
    ) async throws {
        let fixture = try EmulatorFixture(tags: try tags ?? [Type4Tag(typeBPUPI: Self.pupi)])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            let device = try await fixture.connectedDevice()
            let session = try await TagSession.connect(on: device, timeout: .seconds(5))
            try await body(session, fixture)
            await device.close()
        }
    }

    @Test(
        "connect finds a type B card when no type A tag or FeliCa card answers: its ATQB, a Type 4 chip, the ISO-DEP handle"
    )
    func connect() async throws {
        try await withSession { session, _ in
            guard case .iso14443B(let card) = session.target else {
                Issue.record("target \(session.target)")
                return
            }
            #expect(card.applicationData == [0x00, 0x00, 0x00, 0x11] && card.protocolInfo == [0x00, 0x81, 0x85])
            #expect(session.uid == Self.pupi)
            #expect(session.chip == .type4)
            #expect(session.identification.description.hasPrefix("type4 on ISO/IEC 14443-4B (PUPI B1223344"))
            let tag = try session.isoDEPTag()
            #expect(try await tag.sendCommand(APDU(bytes: Self.selectNDEFApplication)).statusWord == 0x9000)
            #expect(throws: TagSessionError.self) { try session.feliCaTag() }
        }
    }

    @Test("Type 4 NDEF on B: status, write, read, as on an A tag; a long message goes in chained blocks")
    func ndef() async throws {
        try await withSession { session, _ in
            let tag = try session.isoDEPTag()
            #expect(try await tag.queryNDEFStatus() == NDEFStatus(availability: .readWrite, capacity: 2046, length: 0))
            try await tag.writeNDEF(Self.url)
            #expect(try await tag.readNDEF() == Self.url)
            let long = NDEFMessage(records: [
                .wellKnown("T", payload: [0x02] + Array("en".utf8) + Array(repeating: 0x61, count: 700))
            ])
            try await tag.writeNDEF(long)
            #expect(try await tag.readNDEF() == long)
        }
    }

    @Test("a type A tag beside the card: the write is refused before anything is written, and goes once it left")
    func twoTechnologies() async throws {
        try await withSession { session, fixture in
            let tag = try session.isoDEPTag()
            let ntag = fixture.emulator.insert(try Type2Tag(chip: .ntag215, uid: TestUID.first))
            do throws(NDEFSessionError) {
                try await tag.writeNDEF(Self.url)
                Issue.record("wrote with two tags in the field")
            } catch {
                guard case .severalTags(let count) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(count == 2)
            }
            _ = fixture.emulator.remove(ntag)
            #expect(try await tag.readNDEF() == NDEFMessage(records: []), "nothing was written")
            try await tag.writeNDEF(Self.url)
            #expect(try await tag.readNDEF() == Self.url)
        }
    }

    @Test("the card taken away: the next command says the tag is lost")
    func removed() async throws {
        try await withSession { session, fixture in
            let tag = try session.isoDEPTag()
            _ = try await tag.queryNDEFStatus()
            if let handle = fixture.emulator.withField({ $0.handles.first }) { fixture.emulator.remove(handle) }
            await #expect(throws: NDEFSessionError.self) { try await tag.writeNDEF(Self.url) }
        }
    }

    @Test("an NDEF session reports the card (a Type 4 chip, its PUPI) and writes and reads it")
    func ndefSession() async throws {
        let fixture = try EmulatorFixture(tags: [try Type4Tag(typeBPUPI: Self.pupi)])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            let device = try await fixture.connectedDevice()
            let session = NDEFSession(device: device)
            try await session.begin()
            let tags = try await session.waitForTags(timeout: .seconds(10))
            #expect(tags.map(\.uid) == [Self.pupi] && tags.first?.chip == .type4)
            let tag = try await session.connect(to: try #require(tags.first))
            try await tag.writeNDEF(Self.url)
            #expect(try await tag.readNDEF() == Self.url)
            await session.invalidate()
            await device.close()
        }
    }
}

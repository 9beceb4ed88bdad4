import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// A FeliCa card in a tag session, through real libnfc on the reader kind under test: the
/// connect that finds it, its handle's commands, NDEF on Type 3, and the two-tags rule
/// across technologies.
@Suite("FeliCa in a tag session", .tags(.reader), .serialized, .timeLimit(.minutes(1)))
struct FeliCaTagSessionTests {
    static let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0x2A, 0x31, 0x12, 0x0B, 0x05]
    static let url = NDEFMessage(records: [.wellKnown("U", payload: [0x04] + Array("example.com/session".utf8))])

    static var liteS: FeliCaLiteSTag {
        var tag = FeliCaLiteSTag(idm: idm, ndef: true)
        tag.setNDEFMessage([])
        return tag
    }

    func withSession(
        _ tag: any EmulatedTag = liteS,
        _ body: @escaping @Sendable (TagSession, EmulatorFixture) async throws -> Void
    ) async throws {
        let fixture = try EmulatorFixture(tags: [tag])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            let device = try await fixture.connectedDevice()
            let session = try await TagSession.connect(on: device, timeout: .seconds(5))
            try await body(session, fixture)
            await device.close()
        }
    }

    @Test("connect finds a FeliCa card when no type A tag answers: its target, handle and identification")
    func connect() async throws {
        try await withSession { session, _ in
            guard case .feliCa(let card) = session.target else {
                Issue.record("target \(session.target)")
                return
            }
            #expect(card.idm == Self.idm && card.pmm == ChipTables.felica.liteS.pmm)
            #expect(card.systemCode == ChipTables.felica.systemCodes.liteS && card.bitRate == 212)
            #expect(session.uid == Self.idm)
            #expect(session.chip == nil)
            #expect(session.identification.description.hasPrefix("felica-lite-s (IDm 012E4C2A31120B05"))
            let handle = try session.feliCaTag()
            #expect(handle.target.idm == Self.idm)
            #expect(throws: TagSessionError.self) { try session.type2Tag() }
        }
    }

    @Test("the handle's commands: Read and Write Without Encryption, Polling, a raw command; a refusal is typed")
    func commands() async throws {
        try await withSession { session, _ in
            let card = try session.feliCaTag()
            let data = [UInt8](repeating: 0x3C, count: 16)
            try await card.writeWithoutEncryption(
                serviceCodes: [0x0009], blocks: [FeliCaBlockElement(block: 7)], data: [data])
            #expect(
                try await card.readWithoutEncryption(serviceCodes: [0x000B], blocks: [FeliCaBlockElement(block: 7)])
                    == [data])
            let polled = try await card.polling(systemCode: 0x12FC, requestCode: 1)
            #expect(polled.idm == Self.idm && polled.requestData == [0x12, 0xFC])
            let raw = try await card.sendFeliCaCommand([0x06] + Self.idm + [0x01, 0x0B, 0x00, 0x01, 0x80, 0x07])
            #expect(Array(raw.suffix(16)) == data)
            do throws(TagSessionError) {
                _ = try await card.readWithoutEncryption(
                    serviceCodes: [0x000B], blocks: [FeliCaBlockElement(block: 0x81)])
                Issue.record("the MAC block read without a MAC")
            } catch {
                guard case .command(_, .feliCaStatus(let flag1, let flag2, _)) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect([flag1, flag2] == [0x01, 0xB1])
            }
            // A Lite-S has no Request Response: the silence is a timeout, and the card is still there.
            await #expect(throws: TagSessionError.self) { _ = try await card.requestResponse() }
            #expect(
                try await card.readWithoutEncryption(serviceCodes: [0x000B], blocks: [FeliCaBlockElement(block: 7)])
                    == [data])
        }
    }

    @Test("read with MAC: the factory key (zeros) proves the card and its blocks; another key is refused")
    func mac() async throws {
        try await withSession { session, _ in
            let card = try session.feliCaTag()
            await #expect(throws: TagSessionError.self) { _ = try await card.readWithMAC(blocks: [0]) }
            try await card.authenticate(cardKey: [UInt8](repeating: 0, count: 16))
            let plain = try await card.readWithoutEncryption(
                serviceCodes: [0x000B], blocks: [FeliCaBlockElement(block: 0), FeliCaBlockElement(block: 0x82)])
            #expect(try await card.readWithMAC(blocks: [0, 0x82]) == plain)
            do throws(TagSessionError) {
                try await card.authenticate(cardKey: [UInt8](repeating: 0x11, count: 16))
                Issue.record("another key was accepted")
            } catch {
                guard case .command(_, .verificationFailed) = error else {
                    Issue.record("\(error)")
                    return
                }
            }
        }
    }

    @Test("NDEF on the handle: status, write, read, lock (RWFlag), as on any tag")
    func ndef() async throws {
        try await withSession { session, _ in
            let card = try session.feliCaTag()
            #expect(try await card.queryNDEFStatus() == NDEFStatus(availability: .readWrite, capacity: 208, length: 0))
            try await card.writeNDEF(Self.url)
            #expect(try await card.readNDEF() == Self.url)
            try await card.writeLock()
            #expect(try await card.queryNDEFStatus().availability == .readOnly)
            await #expect(throws: NDEFSessionError.self) { try await card.writeNDEF(Self.url) }
        }
    }

    @Test("a FeliCa Standard: Request System Code through the handle, NDEF in its 12FC system")
    func standard() async throws {
        try await withSession(FeliCaStandardTag(idm: Self.idm)) { session, _ in
            let card = try session.feliCaTag()
            #expect(try await card.requestSystemCode() == [FeliCaStandardTag.plainSystem, 0x12FC])
            #expect(try await card.requestService(nodeCodes: [0x1009, 0x0009]) == [0x0000, 0xFFFF])
            try await card.writeNDEF(Self.url)
            #expect(try await card.readNDEF() == Self.url)
        }
    }

    @Test("a type A tag beside the card: the write is refused before anything is written, and goes once it left")
    func twoTechnologies() async throws {
        try await withSession { session, fixture in
            let card = try session.feliCaTag()
            let ntag = fixture.emulator.insert(try Type2Tag(chip: .ntag215, uid: TestUID.first))
            do throws(NDEFSessionError) {
                try await card.writeNDEF(Self.url)
                Issue.record("wrote with two tags in the field")
            } catch {
                guard case .severalTags(let count) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(count == 2)
            }
            _ = fixture.emulator.remove(ntag)
            #expect(try await card.readNDEF() == NDEFMessage(records: []), "nothing was written")
            try await card.writeNDEF(Self.url)
            #expect(try await card.readNDEF() == Self.url)
        }
    }
}

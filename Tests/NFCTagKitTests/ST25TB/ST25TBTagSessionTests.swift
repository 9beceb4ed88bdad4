import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// An ST25TB512-AC in a tag session and an NDEF session, through real libnfc on the reader
/// kind under test: libnfc's ST select that finds it, its blocks, no NDEF, the two-tags rule.
@Suite("ST25TB in a tag session", .tags(.reader), .serialized, .timeLimit(.minutes(1)))
struct ST25TBTagSessionTests {
    static let uid = ChipTables.st25tb.emulatedUID

    @Test("connect finds the card when nothing else answers: its UID; blocks read and write; no NDEF, and it says so")
    func connect() async throws {
        let fixture = try EmulatorFixture(tags: [ST25TBTag(uid: Self.uid)])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            let device = try await fixture.connectedDevice()
            let session = try await TagSession.connect(on: device, timeout: .seconds(5))
            guard case .st25tb = session.target else {
                Issue.record("target \(session.target)")
                return
            }
            #expect(session.uid == Self.uid)
            let card = try #require(session.ndefHandle as? NFCST25TBTag)
            #expect(try await card.readUID() == Self.uid)
            try await card.writeBlock(12, data: [0xDE, 0xAD, 0xBE, 0xEF])
            #expect(try await card.readBlock(12) == [0xDE, 0xAD, 0xBE, 0xEF])
            await #expect(throws: NDEFSessionError.self) { _ = try await card.queryNDEFStatus() }
            // A type A tag beside it: the alone check counts two.
            let ntag = fixture.emulator.insert(try Type2Tag(chip: .ntag215, uid: TestUID.first))
            #expect(try await device.selectIfAlone(session.target) == .several(count: 2))
            _ = fixture.emulator.remove(ntag)
            #expect(try await device.selectIfAlone(session.target) == .aloneCard)
            #expect(try await card.readBlock(12) == [0xDE, 0xAD, 0xBE, 0xEF])
            await device.close()
        }
    }

    @Test("libnfc 1.8.0 counts an ST card by its UID's first byte: a UID that starts with 00 is not found (ST-4)")
    func uidStartingWithZero() async throws {
        for (first, found) in [(UInt8(0x00), false), (0x01, true)] {
            let uid = [first] + Self.uid.dropFirst()
            let fixture = try EmulatorFixture(tags: [ST25TBTag(uid: uid)])
            defer { fixture.stop() }
            try await withTimeLimit(seconds: 40) {
                let device = try await fixture.connectedDevice()
                #expect((try await device.selectST25TB() != nil) == found, "UID \(uid.hexString())")
                await device.close()
            }
        }
    }

    @Test("an NDEF session reports the card as st25tb; a write is refused: not an NFC Forum tag")
    func ndefSession() async throws {
        let fixture = try EmulatorFixture(tags: [ST25TBTag(uid: Self.uid)])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            let device = try await fixture.connectedDevice()
            let session = NDEFSession(device: device)
            try await session.begin()
            let tags = try await session.waitForTags(timeout: .seconds(10))
            #expect(tags.map(\.uid) == [Self.uid] && tags.first?.chipName == "st25tb")
            await session.invalidate()
            await device.close()
        }
    }
}

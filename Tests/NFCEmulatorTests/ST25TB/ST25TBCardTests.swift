import Foundation
import NFCChips
import Testing
import TestSupport

@testable import NFCEmulator

/// The `st25tb` card behind the PN532: no listing, ST's commands in InCommunicateThru once
/// the CIU frames type B (libnfc's NP_FORCE_ISO14443_B), byte by byte; then unmodified
/// `nfc-list`.
@Suite("ST25TB card (st25tb)")
struct ST25TBCardTests {
    static let uid = ChipTables.st25tb.emulatedUID

    @Test("type A framing: the card hears nothing; type B with the chip's CRC: Initiate, Select, Get_UID, Read_Block")
    func communicateThru() throws {
        var chip = PN532Controller(field: Field(tags: [ST25TBTag(uid: Self.uid)]))
        _ = exchange(&chip, 0x32, [0x01, 0x01])  // RF field on
        #expect(exchange(&chip, 0x4A, [0x01, 0x00]) == [0x00], "no type A tag")
        #expect(exchange(&chip, 0x4A, [0x01, 0x03, 0x00]) == [0x00], "no REQB answer")
        #expect(exchange(&chip, 0x42, [0x06, 0x00]) == [0x01], "type A framing: a time-out")
        // TxMode and RxMode: CRC on, 106 kbit/s, type B framing (what libnfc's B2SR select writes).
        _ = exchange(&chip, 0x08, [0x63, 0x02, 0x83, 0x63, 0x03, 0x83])
        let initiate = try #require(exchange(&chip, 0x42, [0x06, 0x00]))
        #expect(initiate.count == 2 && initiate[0] == 0x00)
        #expect(exchange(&chip, 0x42, [0x0E, initiate[1]]) == initiate)
        #expect(exchange(&chip, 0x42, [0x0B]) == [0x00] + Self.uid)
        #expect(exchange(&chip, 0x42, [0x08, 0xFF]) == [0x00, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(exchange(&chip, 0x42, [0x09, 0x07, 1, 2, 3, 4]) == [0x01], "a write is never answered")
        #expect(exchange(&chip, 0x42, [0x08, 0x07]) == [0x00, 1, 2, 3, 4])
        // The CRC left to the host: not modelled, the card is not reached (assumption ST-3).
        _ = exchange(&chip, 0x08, [0x63, 0x02, 0x03, 0x63, 0x03, 0x03])
        #expect(exchange(&chip, 0x42, [0x08, 0x07]) == [0x01])
        // Field off and on: the card is Ready again, and takes only Initiate.
        _ = exchange(&chip, 0x08, [0x63, 0x02, 0x83, 0x63, 0x03, 0x83])
        _ = exchange(&chip, 0x32, [0x01, 0x00])
        _ = exchange(&chip, 0x32, [0x01, 0x01])
        #expect(exchange(&chip, 0x42, [0x08, 0x07]) == [0x01])
        #expect(exchange(&chip, 0x42, [0x06, 0x00])?.count == 2)
    }

    @Test(
        "nfc-list, unmodified, lists the card as ISO/IEC 14443-2B ST SRx with its UID, as pull request 645's card",
        .enabled(if: LibNFCTool.isInstalled("nfc-list"), "libnfc-bin is not installed (scripts/setup installs it)"))
    func nfcList() throws {
        let emulator = try PN532Emulator(tags: [ST25TBTag(uid: Self.uid)])
        try emulator.start()
        defer { emulator.stop() }
        let result = try LibNFCTool.run("nfc-list", [], device: emulator.connectionString)
        #expect(!result.timedOut, "nfc-list hung:\n\(result.output)")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("1 ISO14443B-2 ST SRx passive target(s) found"), "\(result.output)")
        #expect(result.output.contains("UID: b6  c0  61  a0  00  1b  02  d0"), "\(result.output)")
        #expect(!result.output.contains("ISO14443A passive target"), "\(result.output)")
        #expect(!result.output.contains("ISO14443B passive target"), "\(result.output)")
    }

    @Test("--state keeps the blocks; the factory builds the card by name with the table's UID")
    func snapshot() throws {
        var card = try #require(try EmulatedTagFactory.make(name: "st25tb") as? ST25TBTag)
        #expect(card.identity.uid == Self.uid)
        card.write(0x0A, [0xCA, 0xFE, 0xBA, 0xBE])
        let snapshot = try #require(TagSnapshot(of: card))
        let again = try #require(try snapshot.makeTag() as? ST25TBTag)
        #expect(again.blocks == card.blocks && again.identity == card.identity)
    }
}

import Foundation
import NFCChips
import Testing
import TestSupport

@testable import NFCEmulator

/// The `iso14443b-type4` card and the PN532's BrTy 03 listing, byte by byte.
@Suite("Type B card (iso14443b-type4)")
struct TypeBCardTests {
    static let pupi: [UInt8] = [0xE8, 0x25, 0x3E, 0xEC]
    /// nfcpy's ATQB test vector (datasheets/iso14443b.json).
    static let atqb: [UInt8] = [0x50, 0xE8, 0x25, 0x3E, 0xEC, 0x00, 0x00, 0x00, 0x11, 0x00, 0x81, 0x85]
    /// ATTRIB as the emulated PN532 sends it: Param 1 00, Param 2 FSDI 5 (64 bytes), Param 3
    /// ISO-DEP, CID 1.
    static let attrib: [UInt8] = [0x1D] + pupi + [0x00, 0x05, 0x01, 0x01]

    static func card() throws -> Type4Tag { try Type4Tag(typeBPUPI: pupi) }

    @Test("ATTRIB: the card answers MBLI with the CID it was given; an ATTRIB for another PUPI gets nothing")
    func attrib() throws {
        var card = try Self.card()
        #expect(card.identity.typeB?.atqb == Self.atqb)
        #expect(card.identity.uid == Self.pupi)
        #expect(card.receive([0x1D, 0x11, 0x22, 0x33, 0x44, 0x00, 0x08, 0x01, 0x01]) == .silence)
        #expect(card.receive(Self.attrib) == .bytes([0x01]))
    }

    @Test(
        "ISO-DEP after ATTRIB: every block carries CID 1 both ways; a block without it, or for CID 2, is not for the card"
    )
    func blocksCarryTheCID() throws {
        var card = try Self.card()
        _ = card.receive(Self.attrib)
        #expect(card.receive([0x02] + T4.selectApplication) == .silence)
        #expect(card.receive([0x0A, 0x02] + T4.selectApplication) == .silence)
        #expect(card.receive([0x0A, 0x01] + T4.selectApplication) == .bytes([0x0A, 0x01] + T4.ok))
        // libnfc's presence check of a B card on a PN532: R(NAK) BA 01 gets the last block again.
        #expect(card.receive([0xBA, 0x01]) == .bytes([0x0A, 0x01] + T4.ok))
        let deselect = card.receive([0xCA, 0x01])
        #expect(deselect.reply == .bytes([0xCA, 0x01]) && deselect.leavesActiveState && deselect.entersHalt)
    }

    @Test("a type B card takes no part in type A activation, and a FeliCa poll passes it by")
    func otherTechnologies() throws {
        var field = Field(tags: [try Self.card()])
        field.setPower(true)
        #expect(field.activate(uidFilter: nil, excluding: []) == nil)
        #expect(field.pollFeliCa(systemCode: 0xFFFF, bitRate: 212) == nil)
        #expect(field.pollTypeB() != nil)
    }

    @Test(
        "InListPassiveTarget 4A 01 03 00: Tg, ATQB, ATTRIB_RES length and ATTRIB_RES; an ACTIVE or halted card answers again only after a field reset"
    )
    func listing() throws {
        var controller = PN532Controller(field: Field(tags: [try Self.card()]))
        #expect(controller.listPassiveTargets([0x01, 0x03, 0x00]) == [0x01, 0x01] + Self.atqb + [0x01, 0x01])
        #expect(controller.dataExchange([0x01] + T4.selectApplication) == [0x00] + T4.ok)
        // Still ACTIVE: it ignores REQB.
        #expect(controller.listPassiveTargets([0x01, 0x03, 0x00]) == [0x00])
        controller.field.setPower(false)
        _ = controller.listPassiveTargets([0x01, 0x03, 0x00])
        #expect(controller.deselect([0x00], release: false) == [0x00])
        #expect(controller.listPassiveTargets([0x01, 0x03, 0x00]) == [0x00])
        controller.field.setPower(false)
        #expect(controller.listPassiveTargets([0x01, 0x03, 0x00])?.prefix(2) == [0x01, 0x01])
        // AFI and polling method at most.
        #expect(controller.listPassiveTargets([0x01, 0x03, 0x00, 0x00, 0x00]) == nil)
    }

    @Test("a chained APDU to the card goes in blocks of its FSC (FSCI 8: 256 bytes) less PCB, CID and CRC_B")
    func chaining() throws {
        var controller = PN532Controller(field: Field(tags: [try Self.card()]))
        _ = controller.listPassiveTargets([0x01, 0x03, 0x00])
        _ = controller.dataExchange([0x01] + T4.selectApplication)
        _ = controller.dataExchange([0x01] + T4.selectFile(0xE104))
        let data = [UInt8](repeating: 0x5A, count: 250)
        let before = controller.statistics.framesToTags
        #expect(controller.dataExchange([0x01] + T4.update(2, data)) == [0x00] + T4.ok)
        // 255 APDU bytes: one I-block of 252 INF and one of 3.
        #expect(controller.statistics.framesToTags - before == 2)
        // The answer comes in blocks of the 64 bytes ATTRIB announced: 59 INF each, CID included.
        let read = controller.statistics.framesToTags
        #expect(controller.dataExchange([0x01] + T4.read(2, 250)) == [0x00] + data + T4.ok)
        #expect(controller.statistics.framesToTags - read == 5)
    }

    @Test(
        "nfc-list, unmodified, lists the card as ISO/IEC 14443-4B with its PUPI, application data and protocol info",
        .enabled(if: LibNFCTool.isInstalled("nfc-list"), "libnfc-bin is not installed (scripts/setup installs it)"))
    func nfcList() throws {
        let emulator = try PN532Emulator(tags: [try Self.card()])
        try emulator.start()
        defer { emulator.stop() }
        let result = try LibNFCTool.run("nfc-list", [], device: emulator.connectionString)
        #expect(!result.timedOut, "nfc-list hung:\n\(result.output)")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("1 ISO14443B passive target(s) found"), "\(result.output)")
        #expect(result.output.contains("PUPI: e8  25  3e  ec"), "\(result.output)")
        #expect(result.output.contains("Application Data: 00  00  00  11"), "\(result.output)")
        #expect(result.output.contains("Protocol Info: 00  81  85"), "\(result.output)")
        #expect(!result.output.contains("ISO14443A passive target"), "\(result.output)")
    }
}

import Foundation
import NFCChips
import Testing
@testable import NFCEmulator

@Suite("Tags by name, and their saved state")
struct TagFactoryTests {
    @Test("every CLI tag name builds a model with the chip's ATQA, SAK and UID length; unknown names are refused")
    func everyName() throws {
        for (index, name) in EmulatedTagFactory.tagNames.enumerated() {
            let tag = try EmulatedTagFactory.make(name: name, index: index)
            #expect(EmulatedTagFactory.name(of: tag) == name)
            // A FeliCa card answers Polling, not type A activation.
            if let felica = tag.identity.felica {
                #expect(felica.idm.count == 8 && felica.pmm.count == 8 && tag.identity.uid == felica.idm, "\(name)")
                continue
            }
            // A Type 1 tag: its JEWELID (UID0-3) is its UID.
            if let type1 = tag.identity.type1 {
                #expect(type1.uid.count == 7 && tag.identity.uid == Array(type1.uid.prefix(4)), "\(name)")
                continue
            }
            // An ST25TB answers Initiate, not REQA or REQB: its UID is Get_UID's 8 bytes.
            if let st25tb = tag.identity.st25tb {
                #expect(st25tb.uid.count == 8 && ChipTables.st25tb.chip(uid: st25tb.uid)?.product == "ST25TB512-AC")
                continue
            }
            // A type B card answers REQB: its PUPI is its UID.
            if let typeB = tag.identity.typeB {
                #expect(typeB.atqb.count == 12 && tag.identity.uid == ChipTables.iso14443b.pupi(atqb: typeB.atqb))
                continue
            }
            let spec = ChipTables.spec(for: try #require(Chip(rawValue: name)))
            #expect(tag.identity.atqa == spec.activation.atqa && tag.identity.sak == spec.activation.sak, "\(name)")
            #expect(tag.identity.uid.count == spec.activation.uidLength, "\(name)")
        }
        #expect(throws: EmulatorSetupError.unknownTagName("ntag999")) { try EmulatedTagFactory.make(name: "ntag999") }
        #expect(throws: EmulatorSetupError.uidLength(tag: "classic1k", expected: 4, got: 7)) {
            try EmulatedTagFactory.make(name: "classic1k", uid: ntagUID)
        }
        #expect(
            EmulatedTagFactory.defaultUID(for: .ntag215, index: 0)
                != EmulatedTagFactory.defaultUID(for: .ntag215, index: 1))
    }

    @Test("a snapshot survives JSON and rebuilds memory, counters and signature")
    func snapshotRoundTrip() throws {
        var tag = try Type2Tag(chip: .ntag215, uid: ntagUID)
        _ = tag.receive(NTAG.write(0x10, [9, 8, 7, 6]))
        _ = tag.receive(NTAG.write(0x84, [0x10, 0x05, 0, 0]))
        _ = tag.receive(NTAG.read(0))
        var card = try Classic.card()
        card.setBlock(5, to: Array(0..<16))
        var type4 = try Type4Tag(uid: T4.uid)
        type4.setNDEFMessage([0xD0, 0x00, 0x00])
        let models: [any EmulatedTag] = [tag, card, type4]
        let snapshots = models.compactMap { TagSnapshot(of: $0) }
        let decoded = try JSONDecoder().decode([TagSnapshot].self, from: JSONEncoder().encode(snapshots))
        #expect(decoded == snapshots)
        var rebuilt: [any EmulatedTag] = []
        for snapshot in decoded { rebuilt.append(try snapshot.makeTag()) }
        let ntag = try #require(rebuilt[0] as? Type2Tag)
        #expect(ntag.memory == tag.memory && ntag.nfcCounter == 1 && ntag.signature == tag.signature)
        #expect((rebuilt[1] as? ClassicTag)?.memory == card.memory)
        #expect((rebuilt[2] as? Type4Tag)?.ndefMessage == [0xD0, 0x00, 0x00])
    }
}

import NFCChips
import Testing
@testable import NFCEmulator

@Suite("tear-in-write: a page write cut inside its EEPROM cycle")
struct TearInWriteFaultTests {
    static let write = ChipTables.spec(for: .ntag215).command(.write)!.code
    static let compatibilityWrite = ChipTables.spec(for: .ntag215).command(.compatibilityWrite)!.code

    func chip(_ specs: [String], tags: [any EmulatedTag]? = nil) throws -> PN532Controller {
        var chip = PN532Controller(
            field: Field(tags: try tags ?? [freshNTAG215()]), faults: try FaultPlan(parsing: specs))
        _ = exchange(&chip, 0x4A, [0x01, 0x00])
        return chip
    }

    /// Whether every bit of `torn` is the bit of `old` or of `new` at that place.
    static func isBitMix(_ torn: [UInt8], old: [UInt8], new: [UInt8]) -> Bool {
        zip(torn, zip(old, new)).allSatisfy { torn, pair in (torn ^ pair.0) & (torn ^ pair.1) == 0 }
    }

    @Test("the spec is N or N:SEED, N from 1; anything else is refused")
    func parsing() throws {
        #expect(try FaultPlan(parsing: ["tear-in-write=3"]).tearInWrite == WriteTear(write: 3, seed: 0))
        #expect(try FaultPlan(parsing: ["tear-in-write=0x10:42"]).tearInWrite == WriteTear(write: 16, seed: 42))
        for bad in ["tear-in-write=0", "tear-in-write=3:", "tear-in-write=:4", "tear-in-write=3:x", "tear-in-write"] {
            #expect(throws: FaultSpecError(spec: bad)) { try FaultPlan(parsing: [bad]) }
        }
        #expect(FaultSpecError(spec: "melt=1").description.contains("tear-in-write=N[:SEED]"))
    }

    /// A WRITE of 16 then a torn WRITE of page 16 (`FF FF FF FF` over zeros) with `seed`;
    /// returns the host's status byte and the controller.
    func tornSecondWrite(seed: UInt64) throws -> (status: [UInt8]?, chip: PN532Controller) {
        var chip = try chip(["tear-in-write=2:\(seed)"])
        #expect(exchange(&chip, 0x40, [0x01, Self.write, 0x11, 1, 2, 3, 4]) == [0x00])
        let status = exchange(&chip, 0x40, [0x01, Self.write, 0x10, 0xFF, 0xFF, 0xFF, 0xFF])
        return (status, chip)
    }

    @Test("the Nth WRITE gets no answer, the tag leaves, the page holds a seeded mix of old and new bits")
    func type2Write() throws {
        let (status, chip) = try tornSecondWrite(seed: 7)
        #expect(status == [0x01], "a timeout: the tag never answered")
        #expect(chip.field.handles.isEmpty)
        let tag = try #require(chip.field.departedTags.first as? Type2Tag)
        #expect(tag.page(0x11) == [1, 2, 3, 4], "the first write completed")
        let torn = tag.page(0x10)
        #expect(torn != [0, 0, 0, 0] && torn != [0xFF, 0xFF, 0xFF, 0xFF], "seed 7 mixes: \(torn)")
        // The same N and SEED give the same bits; another seed other bits.
        let again = try #require(try tornSecondWrite(seed: 7).chip.field.departedTags.first as? Type2Tag)
        #expect(again.page(0x10) == torn)
        let other = try #require(try tornSecondWrite(seed: 8).chip.field.departedTags.first as? Type2Tag)
        #expect(other.page(0x10) != torn)
    }

    @Test("a tearing-protected page (NTAG215 CC, page 3) keeps the whole old or the whole new value")
    func tearingProtectedPage() throws {
        let memory = try #require(ChipTables.spec(for: .ntag215).memory)
        #expect(memory.isTearingProtected(memory.capabilityContainer.page))
        let old = memory.capabilityContainer.factoryValue
        var new = old
        new[3] |= 0x0F
        var seen: Set<[UInt8]> = []
        for seed in UInt64(0)..<8 {
            var chip = try chip(["tear-in-write=1:\(seed)"])
            #expect(exchange(&chip, 0x40, [0x01, Self.write, UInt8(memory.capabilityContainer.page)] + new) == [0x01])
            let tag = try #require(chip.field.departedTags.first as? Type2Tag)
            seen.insert(tag.page(memory.capabilityContainer.page))
        }
        #expect(seen == [old, new])
    }

    @Test("a plain page's torn bits come from the old or the new value, never elsewhere")
    func bitsFromOldOrNew() throws {
        let old: [UInt8] = [0x0F, 0xF0, 0x33, 0x00]
        let new: [UInt8] = [0x3C, 0x0F, 0x33, 0xFF]
        for seed in UInt64(0)..<16 {
            let write = EEPROMWrite(address: 16, old: old, new: new, isTearingProtected: false, failureCode: 5)
            let torn = write.tornContent(seed: seed)
            #expect(Self.isBitMix(torn, old: old, new: new), "seed \(seed): \(torn)")
            #expect(torn[2] == 0x33, "bits equal in old and new stay")
        }
    }

    @Test("COMPATIBILITY_WRITE: the first part is ACKed, the second part is the page write that is torn")
    func compatibilityWrite() throws {
        var chip = try chip(["tear-in-write=1:3"])
        let data = [UInt8](repeating: 0xFF, count: 16)
        #expect(exchange(&chip, 0x40, [0x01, Self.compatibilityWrite, 0x10] + data) == [0x01])
        let tag = try #require(chip.field.departedTags.first as? Type2Tag)
        #expect(Self.isBitMix(tag.page(0x10), old: [0, 0, 0, 0], new: [0xFF, 0xFF, 0xFF, 0xFF]))
        #expect(tag.page(0x10) != [0, 0, 0, 0] && tag.page(0x10) != [0xFF, 0xFF, 0xFF, 0xFF])
    }

    @Test("a refused WRITE is no page write: it does not count")
    func refusedWriteDoesNotCount() throws {
        var chip = try chip(["tear-in-write=1:5"])
        // Page 0 is read-only: NAK, no EEPROM cycle.
        #expect(exchange(&chip, 0x40, [0x01, Self.write, 0x00, 1, 2, 3, 4]) == [0x01])
        _ = exchange(&chip, 0x4A, [0x01, 0x00])
        #expect(exchange(&chip, 0x40, [0x01, Self.write, 0x10, 0xFF, 0xFF, 0xFF, 0xFF]) == [0x01])
        #expect(chip.field.handles.isEmpty)
    }

    @Test("Classic WRITE: the data frame is the torn block write; the card leaves with no answer")
    func classicWrite() throws {
        var chip = try chip(["tear-in-write=1:11"], tags: [Classic.card()])
        _ = exchange(&chip, 0x40, [0x01, 0x60, 0x04] + Classic.transportKey + Classic.uid)
        #expect(exchange(&chip, 0x40, [0x01, 0xA0, 0x04] + [UInt8](repeating: 0xFF, count: 16)) == [0x01])
        #expect(chip.field.handles.isEmpty)
        let card = try #require(chip.field.departedTags.first as? ClassicTag)
        #expect(
            card.block(4) != [UInt8](repeating: 0, count: 16) && card.block(4) != [UInt8](repeating: 0xFF, count: 16))
    }
}

import NFCChips
import Testing

/// The FeliCa table against the facts it was written from: the CRC of a real Lite-S
/// Polling, the IC codes of real cards' PMm, and the response times nfcpy derives from PMm.
@Suite("FeliCa table")
struct FeliCaSpecTests {
    let felica = ChipTables.felica

    @Test("the CRC-16 of each vector (a real Lite-S Polling: 06 00 FF FF 00 00 → 09 21)")
    func crcVectors() {
        #expect(!felica.frame.crcTestVectors.isEmpty)
        for vector in felica.frame.crcTestVectors {
            #expect(felica.crc(vector.data) == vector.crc, "\(vector.data)")
        }
    }

    @Test("every answer code is its command's code plus one")
    func answerCodes() {
        for command in felica.commands {
            #expect(command.responseCode == command.code &+ 1, "\(command.name)")
        }
        #expect(felica.command(code: 0x06) == .readWithoutEncryption)
        #expect(felica.command(code: 0x07) == nil)
    }

    @Test("the IC code names the chip: a real Lite-S, a real Suica, and an unknown code")
    func icCodes() {
        #expect(felica.ic(pmm: felica.liteS.pmm) == .feliCaLiteS)
        #expect(felica.ic(pmm: [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00]) == .feliCaLiteS)
        #expect(felica.ic(pmm: [0x10, 0x0B, 0x4B, 0x42, 0x84, 0x85, 0xD0, 0xFF]) == .feliCaStandard)
        #expect(felica.ic(pmm: [0x00, 0xF0, 0, 0, 0, 0, 0, 0]) == .feliCaLite)
        #expect(felica.ic(pmm: [0x00, 0x99, 0, 0, 0, 0, 0, 0]) == nil)
        #expect(felica.ic(pmm: [0x00]) == nil)
        // No code belongs to two kinds.
        let codes = felica.icCodes.flatMap(\.codes)
        #expect(Set(codes).count == codes.count)
    }

    @Test("the response time from PMm: a Lite-S reads one block in 0.91 ms and writes one in 6.04 ms")
    func responseTimes() throws {
        let pmm = felica.liteS.pmm
        let read = try #require(felica.maximumResponseMicroseconds(pmm: pmm, blocks: 1, write: false))
        let write = try #require(felica.maximumResponseMicroseconds(pmm: pmm, blocks: 1, write: true))
        #expect(abs(read - 906.3) < 0.1)
        #expect(abs(write - 6042) < 0.1)
        #expect(felica.maximumResponseMicroseconds(pmm: [0x00], blocks: 1, write: false) == nil)
    }

    @Test("the Attribute Information Block's fields fit its 16 bytes, the checksum last")
    func attributeLayout() {
        let layout = felica.type3.attribute
        #expect(layout.checksum + 2 == felica.type3.blockSize)
        #expect(layout.ln + 3 == layout.checksum)
        #expect(
            [layout.version, layout.nbr, layout.nbw, layout.nmaxb, layout.writeFlag, layout.rwFlag] == [
                0, 1, 2, 3, 9, 10,
            ])
    }

    @Test(
        "the Lite-S's formatted Attribute Information Block: version 10, Nbr 4, Nbw 1, Nmaxb 13, read-write, its checksum right"
    )
    func liteSAttribute() {
        let attribute = felica.liteS.ndefAttribute
        let layout = felica.type3.attribute
        #expect(attribute.count == felica.type3.blockSize)
        #expect(attribute[layout.version] == felica.type3.attributeVersion)
        #expect(Int(attribute[layout.nbr]) == felica.liteS.maximumReadBlocks)
        #expect(Int(attribute[layout.nbw]) == felica.liteS.maximumWriteBlocks)
        #expect(Int(attribute[layout.nmaxb]) << 8 | Int(attribute[layout.nmaxb + 1]) == felica.liteS.userBlocks - 1)
        #expect(attribute[layout.rwFlag] == felica.type3.rwFlagReadWrite)
        let sum = attribute[..<layout.checksum].reduce(0) { $0 + Int($1) }
        #expect(Int(attribute[layout.checksum]) << 8 | Int(attribute[layout.checksum + 1]) == sum)
    }

    @Test("the Lite-S system blocks lie past the user blocks, each once")
    func liteSBlocks() {
        let blocks = felica.liteS.blocks.map(\.block)
        #expect(Set(blocks).count == blocks.count)
        #expect(blocks.allSatisfy { Int($0) >= felica.liteS.userBlocks })
        #expect(felica.liteS.blocks[.mc].block == 0x88)
    }
}

import TestSupport
import Testing
import NFCChips

@Suite("MIFARE Classic access conditions")
struct AccessConditionsTests {
    @Test(
        "well-known trailers decode to the documented conditions",
        arguments: [
            ([0xFF, 0x07, 0x80] as [UInt8], "000", "001"),
            ([0x78, 0x77, 0x88], "100", "011"),
            ([0x7F, 0x07, 0x88], "000", "011"),
            ([0x07, 0x8F, 0x0F], "010", "110"),
        ])
    func wellKnown(bytes: [UInt8], data: String, trailer: String) throws {
        let access = try AccessConditions(accessBytes: bytes)
        #expect(access.groups.map(\.code) == [data, data, data])
        #expect(access.trailer.code == trailer)
        #expect(access.accessBytes == bytes)
    }

    @Test("the tables' trailers and factory trailer decode")
    func tableTrailers() throws {
        let classic = ChipTables.classic
        let factory = try #require(classic.trailer[.accessBits].bytes(in: classic.factoryTrailer))
        #expect(try AccessConditions(accessBytes: factory).trailer.code == "001")
        #expect(try AccessConditions(accessBytes: classic.nfcSectorTrailer.accessBits).trailer.code == "011")
        #expect(try AccessConditions(accessBytes: classic.mad.madSectorTrailer.accessBits).groups[0].code == "100")
        #expect(classic.nfcSectorTrailer.block(keyB: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).count == 16)
    }

    @Test("random conditions round-trip through the access bytes")
    func roundTrip() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var rng = SplitMix64(seed: seed)
        for _ in 0..<1000 {
            let bits = (0..<4).map { _ in
                AccessBits(c1: Bool.random(using: &rng), c2: Bool.random(using: &rng), c3: Bool.random(using: &rng))
            }
            let access = AccessConditions(groups: Array(bits[0..<3]), trailer: bits[3])
            #expect(try AccessConditions(accessBytes: access.accessBytes) == access, "seed \(seed)")
        }
    }

    @Test("any single flipped bit is an inversion mismatch")
    func inversionCheck() {
        let bytes: [UInt8] = [0x78, 0x77, 0x88]
        for byte in 0..<3 {
            for bit in 0..<8 {
                var corrupt = bytes
                corrupt[byte] ^= UInt8(1) << UInt8(bit)
                #expect(throws: AccessConditions.DecodeError.self) { try AccessConditions(accessBytes: corrupt) }
            }
        }
        #expect(throws: AccessConditions.DecodeError.wrongLength(2)) {
            try AccessConditions(accessBytes: [0xFF, 0x07])
        }
    }

    @Test("condition tables are complete and consistent")
    func conditionTables() throws {
        let classic = ChipTables.classic
        let all = ["000", "001", "010", "011", "100", "101", "110", "111"]
        #expect(Set(classic.dataBlockConditions.map(\.bits)) == Set(all))
        #expect(Set(classic.trailerConditions.map(\.bits)) == Set(all))
        let readWrite = try #require(classic.dataBlockCondition(for: AccessBits(c1: true, c2: false, c3: false)))
        #expect(readWrite.read == .keyAOrB && readWrite.write == .keyB)
        #expect(readWrite.write.allows(.b) && !readWrite.write.allows(.a))
        let transport = try #require(classic.trailerCondition(for: AccessBits(code: "001")!))
        #expect(transport.keyBReadable && transport.accessBitsWrite == .keyA)
        for condition in classic.trailerConditions { #expect(condition.keyARead == .never) }
        #expect(classic.accessGroup(blockIndex: 7, blocksInSector: 16) == 1)
        #expect(classic.accessGroup(blockIndex: 15, blocksInSector: 16) == 3)
        #expect(classic.accessGroup(blockIndex: 2, blocksInSector: 4) == 2)
        #expect(AccessBits(code: "12") == nil)
    }

    @Test("keys and block layouts")
    func keys() {
        let classic = ChipTables.classic
        #expect(classic.keys[.factoryDefault].key == Array(repeating: 0xFF, count: 6))
        #expect(classic.keys[.madKeyA].key == [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5])
        #expect(classic.keys[.nfcKeyA].key == [0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7])
        #expect(classic.factoryTrailer.count == 16)
        #expect(classic.manufacturerBlock[.sak].offset == 5)
        let block0: [UInt8] = [0x3E, 0x39, 0xAB, 0x7F, 0xD3, 0x88, 0x04, 0x00] + Array(repeating: 0, count: 8)
        let uid = classic.manufacturerBlock[.uid].bytes(in: block0)!
        #expect([ChipTables.bcc(uid)] == classic.manufacturerBlock[.bcc].bytes(in: block0))
    }
}

@Suite("MIFARE Application Directory")
struct MADTests {
    @Test("CRC-8 of an NDEF-formatted MAD1 is 14")
    func crc() {
        let mad = ChipTables.mad
        let directory: [UInt8] = [0x01] + Array([[UInt8]](repeating: mad.nfcAID, count: 15).joined())
        #expect(mad.crc(directory) == 0x14)
        for vector in mad.crc.testVectors { #expect([mad.crc(vector.data)] == vector.crc) }
        #expect(mad.crc.initialValue == 0xC7 && mad.crc.polynomial == 0x1D)
    }

    @Test("directories, GPB and AIDs")
    func layout() {
        let mad = ChipTables.mad
        #expect(mad.mad1.sector == 0 && mad.mad1.blocks == [1, 2] && mad.mad1.aidCount == 15)
        #expect(mad.mad2.sector == 16 && mad.mad2.blocks == [64, 65, 66] && mad.mad2.aidCount == 23)
        #expect(mad.gpbMAD1 == 0xC1 && mad.gpbMAD2 == 0xC2)
        #expect(mad.nfcAID == [0x03, 0xE1])
        #expect(mad.administrativeAIDs[.free].aid == [0x00, 0x00])
        #expect(mad.madSectorTrailer.accessBits == [0x78, 0x77, 0x88])
        // MAD1 + AIDs fill the two blocks exactly: 2 + 15 × 2 = 32 bytes.
        #expect(mad.firstAIDByte + mad.mad1.aidCount * 2 == mad.mad1.blocks.count * ChipTables.classic.blockSize)
        #expect(mad.firstAIDByte + mad.mad2.aidCount * 2 == mad.mad2.blocks.count * ChipTables.classic.blockSize)
    }
}

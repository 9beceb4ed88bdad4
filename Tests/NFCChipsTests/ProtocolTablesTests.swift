import TestSupport
import Testing
import NFCChips

@Suite("ISO/IEC 14443-3A: CRC_A, BCC and cascade levels")
struct ISO14443ATests {
    @Test(
        "CRC_A test vectors of the reference",
        arguments: [
            ([0x30, 0x00] as [UInt8], [0x02, 0xA8] as [UInt8]), ([0x50, 0x00], [0x57, 0xCD]), ([0x60], [0xF8, 0x32]),
            ([0x3C, 0x00], [0xA2, 0x01]), ([0x1A, 0x00], [0x41, 0x76]), ([0x04], [0xDA, 0x17]), ([0x00], [0xFE, 0x51]),
            ([0x93, 0x70, 0x88, 0x04, 0xB7, 0x80, 0xBB], [0xD6, 0xFA]),
        ])
    func crcVectors(data: [UInt8], crc: [UInt8]) {
        #expect(ChipTables.crcA(data) == crc)
    }

    @Test("the table's own CRC vectors hold")
    func tableVectors() {
        let spec = ChipTables.iso14443a.crcA
        #expect(spec.testVectors.count == 8)
        for vector in spec.testVectors { #expect(ChipTables.crcA(vector.data) == vector.crc, "\(vector.data.hexText)") }
    }

    @Test("a frame followed by its CRC_A has CRC residue zero for random frames")
    func crcResidue() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var rng = SplitMix64(seed: seed)
        for _ in 0..<500 {
            let frame = (0..<Int.random(in: 0...20, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let crc = ChipTables.crcA(frame)
            // Appending a correct CRC_A and recomputing gives 0x0000 with init 0x6363 reflected.
            #expect(ChipTables.crcA(frame + crc) == [0x00, 0x00], "seed \(seed)")
        }
    }

    @Test("BCC and cascade answers of a 7-byte UID")
    func cascade() throws {
        let iso = ChipTables.iso14443a
        for example in iso.bccExamples { #expect([iso.bcc(example.data)] == example.bcc) }
        let answers = try #require(iso.cascadeAnswers(uid: [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]))
        #expect(answers == [[0x88, 0x04, 0x47, 0x5E, 0x95], [0xD2, 0x9C, 0x39, 0x80, 0xF7]])
        #expect(iso.cascadeAnswers(uid: [1, 2, 3, 4])?.first == [1, 2, 3, 4, 4])
        #expect(iso.cascadeAnswers(uid: Array(repeating: 0, count: 10))?.count == 3)
        #expect(iso.cascadeAnswers(uid: [1, 2, 3]) == nil)
        #expect(iso.frames[.reqa].bytes == [0x26] && iso.frames[.reqa].bits == 7)
        #expect(iso.frames[.wupa].bytes == [0x52])
        #expect(iso.frames[.hlta].bytes == [0x50, 0x00])
        #expect(iso.selectCodes == [0x93, 0x95, 0x97] && iso.cascadeTag == 0x88 && iso.ack == 0x0A)
    }
}

@Suite("NFC Forum Type 2 mapping")
struct Type2Tests {
    let type2 = ChipTables.type2

    @Test("CC and TLVs")
    func ccAndTLVs() throws {
        #expect(type2.capabilityContainer.magic == 0xE1)
        #expect(type2.capabilityContainer.formatted(dataAreaBytes: 144) == [0xE1, 0x10, 0x12, 0x00])
        #expect(type2.tlvs[.ndef].type == 0x03)
        #expect(type2.tlvs[.null].lengthField == TLVLengthField.none)
        #expect(type2.tlvs[.terminator].type == 0xFE)
        #expect(type2.tlv(type: 0x01)?.fixedLength == 3)
        #expect(type2.emptyNDEF == [0x03, 0x00, 0xFE])
        #expect(type2.tlvLength.encode(254) == [0xFE])
        #expect(type2.tlvLength.encode(255) == [0xFF, 0x00, 0xFF])
        #expect(type2.tlvLength.encode(65535) == nil)
    }

    @Test("NTAG213's factory Lock Control TLV points at its dynamic lock page")
    func lockControl() throws {
        let spec = ChipTables.spec(for: .ntag213)
        let memory = try #require(spec.memory)
        let page4 = try #require(memory.factoryContent(ofPage: 4))
        #expect(type2.tlv(type: page4[0])?.name == .lockControl)
        let area = try #require(
            type2.lockControlArea(value: [page4[2], page4[3], memory.factoryContent(ofPage: 5)![0]]))
        #expect(area.byteAddress == 160 && area.size == 12 && area.bytesLockedPerBit == 8)
        #expect(area.byteAddress / memory.pageSize == memory.dynamicLock?.page)
        #expect(area.size == memory.dynamicLock?.lockBitCount)
        #expect(area.bytesLockedPerBit == memory.dynamicLock!.pagesPerLockBit * memory.pageSize)
        #expect(type2.lockControlArea(value: [0xA0, 0x0C]) == nil)
    }

    @Test("ACK / NAK codes")
    func acknowledgements() throws {
        #expect(NAKCode(rawValue: 0x0A)?.isACK == true)
        let nak = try #require(NAKCode(rawValue: 0x00))
        #expect(!nak.isACK && nak.name == .invalidArgument)
        #expect(NAKCode(rawValue: 0x01)?.name == .parityOrCRCError)
        #expect(NAKCode(rawValue: 0x05)?.name == .eepromWriteError)
        #expect(NAKCode(rawValue: 0x04)?.spec.caveat?.verified == false)
        #expect(NAKCode(rawValue: 0x07) == nil)
    }
}

@Suite("NFC Forum Type 4 mapping")
struct Type4Tests {
    @Test("AIDs, files, CC fields and status words")
    func type4() throws {
        let type4 = ChipTables.type4
        #expect(type4.application(version: "2.0")?.aid == [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01])
        #expect(type4.application(version: "2.0")?.selectFileP2 == 0x0C)
        #expect(type4.application(version: "1.0")?.aid.last == 0x00)
        #expect(type4.ccFileID == 0xE103 && type4.defaultNDEFFileID == 0xE104)
        let cc = type4.exampleCC
        #expect(type4.ccFields[.ccLength].value(in: cc) == 15)
        #expect(type4.ccFields[.ndefFileID].value(in: cc) == 0xE104)
        #expect(type4.ccFields[.maxNDEFFileSize].value(in: cc) == 0xFFFE)
        #expect(type4.ccFields[.writeAccess].value(in: cc) == Int(type4.accessGranted))
        #expect(type4.ccFields[.writeAccess].value(in: [0x00]) == nil)
        #expect(type4.statusWords[.success].bytes == [0x90, 0x00])
        for code: UInt16 in [0x6700, 0x6982, 0x6A82, 0x6A86] { #expect(type4.statusWord(code: code) != nil) }
        #expect(type4.commands[.readBinary].header == [0x00, 0xB0])
        #expect(type4.commands[.selectApplication].header == [0x00, 0xA4, 0x04, 0x00])
        #expect(type4.isoDep.rNAK == 0xB2)
    }
}

@Suite("Originality keys")
struct URIAndSignatureTests {
    @Test("originality keys are uncompressed secp128r1 points")
    func originalityKeys() throws {
        let table = ChipTables.originalitySignatures
        #expect(table.curve == "secp128r1" && table.signatureLength == 32)
        for key in table.keys {
            #expect(key.publicKey.count == 33 && key.publicKey.first == 0x04, "\(key.name)")
            for vector in key.testVectors { #expect(vector.uid.count == 7 && vector.signature.count == 32) }
        }
        #expect(ChipTables.originalitySignatureKey(for: .ntag215)?.name == .ntag21x)
        #expect(ChipTables.originalitySignatureKey(for: .ultralightEV1MF0UL11)?.name == .ultralightEV1)
        #expect(ChipTables.originalitySignatureKey(for: .classic1k) == nil)
    }
}

import NDEF
import NFCChips
import NFCEmulator
import Testing
@testable import NFCTags

/// MAD1 / MAD2 decoding: the CRC-8, the info byte, the GPB, contiguous NFC sectors — pure,
/// and through the driver on emulated cards, with the tag byte offset of each problem.
@Suite("Classic MAD: CRC-8, info byte, GPB and NFC sectors, with offsets")
struct ClassicMADTests {
    let mad = ChipTables.classic.mad
    var nfc: [UInt8] { mad.nfcAID }

    /// MAD1 naming `sectors` as NFC sectors.
    func mad1(_ sectors: [Int], info: UInt8 = 0x01) -> [UInt8] {
        MADTable.directoryBytes(
            mad.mad1, infoByte: info, applications: Dictionary(uniqueKeysWithValues: sectors.map { ($0, nfc) }),
            spec: mad)
    }

    func mad2(_ sectors: [Int], info: UInt8 = 0x00) -> [UInt8] {
        MADTable.directoryBytes(
            mad.mad2, infoByte: info, applications: Dictionary(uniqueKeysWithValues: sectors.map { ($0, nfc) }),
            spec: mad)
    }

    /// `bytes` with the CRC recomputed (to test a later check in isolation).
    func withCRC(_ bytes: [UInt8]) -> [UInt8] {
        var fixed = bytes
        fixed[mad.crcByte] = mad.crc(Array(bytes[(mad.crcByte + 1)...]))
        return fixed
    }

    @Test("the NDEF-formatted 1K MAD1 is 14 01 03 E1 … (the reference vector) and decodes back")
    func referenceVector() throws {
        let bytes = mad1(Array(1...15))
        #expect(Array(bytes.prefix(4)) == [0x14, 0x01, 0x03, 0xE1])
        let table = try MADTable(mad1: bytes, mad2: nil, spec: mad, blockSize: 16)
        #expect(try table.nfcSectors(spec: mad) == Array(1...15))
        #expect(table.publisherSector == 1)
    }

    @Test("a wrong CRC is reported at byte 16 (block 1, byte 0) with both values")
    func badCRC() throws {
        var bytes = mad1(Array(1...15))
        bytes[5] ^= 0x01
        let expected = mad.crc(Array(bytes[1...]))
        #expect(
            throws: NDEFTagError.invalidApplicationDirectory(
                offset: 16, reason: .crcMismatch(expected: expected, found: 0x14))
        ) {
            try MADTable(mad1: bytes, mad2: nil, spec: mad, blockSize: 16)
        }
    }

    @Test("a MAD2 CRC error is reported at byte 1024 (block 64)")
    func badMAD2CRC() throws {
        var second = mad2(Array(17...39))
        second[0] ^= 0xFF
        #expect(
            throws: NDEFTagError.invalidApplicationDirectory(
                offset: 1024, reason: .crcMismatch(expected: second[0] ^ 0xFF, found: second[0]))
        ) {
            try MADTable(mad1: mad1(Array(1...15)), mad2: second, spec: mad, blockSize: 16)
        }
    }

    @Test(
        "invalid info bytes are reported at byte 17 (MAD1) or 1025 (MAD2)",
        arguments: [(false, UInt8(0x0F)), (false, 0x3F), (false, 0xCF), (true, 0x10), (true, 0x28), (true, 0x3F)])
    func badInfoByte(isMAD2: Bool, info: UInt8) throws {
        if isMAD2 {
            #expect(throws: NDEFTagError.invalidApplicationDirectory(offset: 1025, reason: .invalidInfoByte(info))) {
                try MADTable(mad1: mad1([1]), mad2: mad2([17], info: info), spec: mad, blockSize: 16)
            }
        } else {
            #expect(throws: NDEFTagError.invalidApplicationDirectory(offset: 17, reason: .invalidInfoByte(info))) {
                try MADTable(mad1: mad1([1], info: info), mad2: nil, spec: mad, blockSize: 16)
            }
        }
    }

    @Test(
        "valid info bytes pass: the RFU bits are masked, MAD2 may point past sector 16",
        arguments: [UInt8(0x00), 0x0E, 0xC1])
    func goodInfoByte(info: UInt8) throws {
        #expect(
            try MADTable(mad1: mad1([1], info: info), mad2: mad2([17], info: 0x27), spec: mad, blockSize: 16).hasMAD2)
    }

    @Test("non-contiguous NFC sectors are reported at the AID entry of the first sector out of the run")
    func nonContiguous() throws {
        // Sectors 1, 2, 4: the entry of sector 4 is at 16 + 2 + 2 × 3 = 24.
        let table = try MADTable(mad1: mad1([1, 2, 4]), mad2: nil, spec: mad, blockSize: 16)
        #expect(throws: NDEFTagError.invalidApplicationDirectory(offset: 24, reason: .nonContiguousNDEFSectors)) {
            try table.nfcSectors(spec: mad)
        }
        // 14 and 17 on a 4K: only sector 16 may be jumped; 17 sits at 1024 + 2.
        let gap = try MADTable(mad1: mad1([13, 14]), mad2: mad2([17, 18]), spec: mad, blockSize: 16)
        #expect(throws: NDEFTagError.invalidApplicationDirectory(offset: 1026, reason: .nonContiguousNDEFSectors)) {
            try gap.nfcSectors(spec: mad)
        }
        let across = try MADTable(mad1: mad1([14, 15]), mad2: mad2([17, 18]), spec: mad, blockSize: 16)
        #expect(try across.nfcSectors(spec: mad) == [14, 15, 17, 18])
        // Without MAD2, 15 → 17 is not contiguous (and 17 is not even covered).
        let other = try MADTable(mad1: mad1([5, 6, 7]), mad2: nil, spec: mad, blockSize: 16)
        #expect(try other.nfcSectors(spec: mad) == [5, 6, 7])
    }

    @Test("the GPB: DA clear is no MAD, ADV 01 / 10 is MAD1 / MAD2, anything else is an error at the GPB")
    func gpb() throws {
        #expect(try MADTable.version(gpb: 0x69, address: 57, spec: mad) == nil)
        #expect(try MADTable.version(gpb: 0xC1, address: 57, spec: mad) == .mad1)
        #expect(try MADTable.version(gpb: 0xC2, address: 57, spec: mad) == .mad2)
        #expect(throws: NDEFTagError.invalidApplicationDirectory(offset: 57, reason: .missing)) {
            try MADTable.version(gpb: 0xC3, address: 57, spec: mad)
        }
    }

    @Test("a MAD shorter than its directory is an error at the end of what was read, never a trap")
    func truncated() {
        #expect(throws: NDEFTagError.invalidApplicationDirectory(offset: 16 + 5, reason: .missing)) {
            try MADTable(mad1: [0x14, 0x01, 0x03, 0xE1, 0x03], mad2: nil, spec: mad, blockSize: 16)
        }
    }

    // MARK: through the driver

    /// A formatted 1K with sector 0's blocks 1–2 replaced by `bytes`.
    func card(mad1 bytes: [UInt8], gpb: UInt8? = nil) async throws -> ClassicTag {
        var tag = try await ClassicFixtures.formattedTag(.classic1k)
        tag.setBlock(1, to: Array(bytes[0..<16]))
        tag.setBlock(2, to: Array(bytes[16..<32]))
        if let gpb {
            var trailer = tag.block(3)
            trailer[9] = gpb
            tag.setBlock(3, to: trailer)
        }
        return tag
    }

    func driver(_ tag: ClassicTag) throws -> ClassicNDEFDriver {
        try ClassicFixtures.driver(.classic1k, ClassicTagTransport(tag: tag))
    }

    @Test("through the driver: a corrupt MAD makes status and read fail at the offset; write and lock refuse it")
    func corruptMADThroughDriver() async throws {
        var bad = mad1(Array(1...15))
        bad[0] = 0x00
        let tag = try await card(mad1: bad)
        let error = NDEFTagError.invalidApplicationDirectory(
            offset: 16, reason: .crcMismatch(expected: 0x14, found: 0x00))
        await #expect(throws: error) { try await driver(tag).queryStatus() }
        await #expect(throws: error) { try await driver(tag).readMessage() }
        await #expect(throws: error) { try await driver(tag).writeMessage(Type2Fixtures.message(encodedSize: 20)) }
        await #expect(throws: error) { try await driver(tag).makeReadOnly(force: true) }
        let infoError = NDEFTagError.invalidApplicationDirectory(offset: 17, reason: .invalidInfoByte(0x20))
        await #expect(throws: infoError) {
            try await driver(try await card(mad1: mad1(Array(1...15), info: 0x20))).readMessage()
        }
        let gapError = NDEFTagError.invalidApplicationDirectory(offset: 24, reason: .nonContiguousNDEFSectors)
        await #expect(throws: gapError) { try await driver(try await card(mad1: mad1([1, 2, 4]))).queryStatus() }
    }

    @Test("through the driver: no DA bit or no NFC sector is 'not supported'; reading says why and where")
    func notFormatted() async throws {
        let noDA = try await card(mad1: mad1(Array(1...15)), gpb: 0x41)
        #expect(try await driver(noDA).queryStatus() == NDEFStatus(availability: .notSupported, capacity: 0, length: 0))
        await #expect(throws: NDEFTagError.invalidApplicationDirectory(offset: 57, reason: .missing)) {
            try await driver(noDA).readMessage()
        }
        let noNFC = try await card(mad1: mad1([]))
        #expect(try await driver(noNFC).queryStatus().availability == .notSupported)
        await #expect(throws: NDEFTagError.invalidApplicationDirectory(offset: 18, reason: .noNDEFSectors)) {
            try await driver(noNFC).readMessage()
        }
        let blank = try ClassicFixtures.tag(.classic1k)
        #expect(try await driver(blank).queryStatus().availability == .notSupported)
    }

    @Test("through the driver: a MAD naming sectors 5–7 only gives a 3-sector NDEF area starting at block 20")
    func partialArea() async throws {
        var tag = try await ClassicFixtures.formattedTag(.classic1k)
        let bytes = mad1([5, 6, 7])
        tag.setBlock(1, to: Array(bytes[0..<16]))
        tag.setBlock(2, to: Array(bytes[16..<32]))
        tag.setBlock(20, to: [0x03, 0x00, 0xFE] + [UInt8](repeating: 0, count: 13))
        let transport = ClassicTagTransport(tag: tag)
        let driver = try ClassicFixtures.driver(.classic1k, transport)
        #expect(try await driver.queryStatus() == NDEFStatus(availability: .readWrite, capacity: 3 * 48 - 2, length: 0))
        let message = Type2Fixtures.message(encodedSize: 100)
        try await driver.writeMessage(message)
        let written = await transport.tag
        #expect(written.block(20)[0...1] == [0x03, 100])
        #expect(written.block(4)[0...2] == [0x03, 0x00, 0xFE], "sector 1 is not named by the MAD and stays as it was")
        #expect(try await ClassicFixtures.read(written, chip: .classic1k) == message)
    }
}

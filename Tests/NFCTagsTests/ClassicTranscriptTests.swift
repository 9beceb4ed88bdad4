import NDEF
import NFCChips
import NFCEmulator
import Testing
@testable import NFCTags

/// The exact exchanges of the Classic driver with an emulated card: which keys open which
/// sector, what is read, and the order of writes.
@Suite("Classic NDEF transcripts: status, write, format order, key fallback")
struct ClassicTranscriptTests {
    static func hex(_ bytes: [UInt8]) -> String { ClassicTagTransport.hex(bytes) }

    /// The reads of one NFC sector of a 1K opened with the NFC key A.
    func nfcSectorReads(_ sector: Int) -> [String] {
        let first = sector * 4
        return ["AUTH A \(Self.hex([UInt8(first + 3)])) D3F7D3F7D3F7 ok", Self.hex([0x30, UInt8(first + 3)])]
            + (first..<(first + 3)).map { Self.hex([0x30, UInt8($0)]) }
    }

    @Test("status of a formatted 1K: MAD key A on sector 0 (trailer, blocks 1–2), NFC key A on each NFC sector")
    func status1K() async throws {
        let transport = ClassicTagTransport(tag: try await ClassicFixtures.formattedTag(.classic1k))
        _ = try await ClassicFixtures.driver(.classic1k, transport).queryStatus()
        let expected = ["AUTH A 03 A0A1A2A3A4A5 ok", "30 03", "30 01", "30 02"] + (1...15).flatMap(nfcSectorReads)
        #expect(await transport.log == expected)
    }

    @Test(
        "status of a formatted 4K: MAD2 in sector 16 is read and skipped; a large sector is read block by block to its trailer"
    )
    func status4K() async throws {
        let transport = ClassicTagTransport(tag: try await ClassicFixtures.formattedTag(.classic4k))
        #expect(try await ClassicFixtures.driver(.classic4k, transport).queryStatus().capacity == 3356)
        let log = await transport.log
        #expect(Array(log[0...3]) == ["AUTH A 03 A0A1A2A3A4A5 ok", "30 03", "30 01", "30 02"])
        #expect(Array(log[4...8]) == ["AUTH A 43 A0A1A2A3A4A5 ok", "30 43", "30 40", "30 41", "30 42"])
        let sector32 = try #require(log.firstIndex(of: "AUTH A 8F D3F7D3F7D3F7 ok"))
        let dataReads: [String] = (0x80...0x8E).map { Self.hex([0x30, UInt8($0)]) }
        let sector32Reads: [String] = ["30 8F"] + dataReads
        #expect(Array(log[(sector32 + 1)...(sector32 + 16)]) == sector32Reads)
        #expect(!log.contains("AUTH A 43 D3F7D3F7D3F7 ok"), "sector 16 is not an NFC sector")
    }

    @Test(
        "a blank card: the MAD key is refused, the card is selected again, the transport key opens it; DA is clear: no NFC sector is read"
    )
    func blankCard() async throws {
        let transport = ClassicTagTransport(tag: try ClassicFixtures.tag(.classic1k))
        #expect(try await ClassicFixtures.driver(.classic1k, transport).queryStatus().availability == .notSupported)
        let log = await transport.log
        #expect(
            log == [
                "AUTH A 03 A0A1A2A3A4A5 refused", "RESELECT", "AUTH A 03 FFFFFFFFFFFF ok", "30 03", "30 01", "30 02",
            ], "\(log)")
    }

    @Test(
        "write of an 8-byte URI message on an empty card: the block with length 0, then the length alone, then its read-back"
    )
    func write() async throws {
        let message = NDEFMessage(records: [.wellKnown("U", payload: [0x04] + Array("a.b".utf8))])
        let transport = ClassicTagTransport(tag: try await ClassicFixtures.formattedTag(.classic1k))
        let progress = ClassicRoundTripTests.Counter()
        try await ClassicFixtures.driver(.classic1k, transport).writeMessage(message, options: NDEFWriteOptions()) {
            progress.set($0.written)
        }
        let log = await transport.log
        let afterSnapshot = Array(log.dropFirst(4 + 15 * 5))
        #expect(
            afterSnapshot == [
                "AUTH A 07 D3F7D3F7D3F7 ok",
                "A0 04 03 00 D1 01 04 55 04 61 2E 62 FE 00 00 00 00 00",
                "A0 04 03 08 D1 01 04 55 04 61 2E 62 FE 00 00 00 00 00",
                "30 04",
            ])
        #expect(progress.value == 2)
    }

    @Test(
        "write across a trailer: clear the length in block 4, body blocks 4 (length 0), 5, 6, 8 (block 7 is skipped), commit block 4"
    )
    func writeAcrossTrailer() async throws {
        let old = Type2Fixtures.message(encodedSize: 20, fill: 0x10)
        let new = Type2Fixtures.message(encodedSize: 60, fill: 0x80)
        let transport = ClassicTagTransport(tag: try await ClassicFixtures.tag(.classic1k, holding: old))
        try await ClassicFixtures.driver(.classic1k, transport).writeMessage(new)
        let writes = await transport.log.filter { $0.hasPrefix("A0") }.map { String($0.prefix(5)) }
        #expect(writes == ["A0 04", "A0 04", "A0 05", "A0 06", "A0 08", "A0 04"])
        let log = await transport.log
        let first = try #require(log.firstIndex { $0.hasPrefix("A0 04") })
        #expect(log[first].hasPrefix("A0 04 03 00 "), "the clear sets the length to 0: \(log[first])")
        #expect(try await ClassicFixtures.read(await transport.tag, chip: .classic1k) == new)
    }

    @Test(
        "format of a blank 1K: the TLV, every NFC trailer, then MAD block 2, block 1 (CRC), and the sector 0 trailer last"
    )
    func formatOrder() async throws {
        let transport = ClassicTagTransport(tag: try ClassicFixtures.tag(.classic1k))
        try await ClassicFixtures.driver(.classic1k, transport).format(force: false)
        let writes = await transport.log.filter { $0.hasPrefix("A0") }
        let nfcTrailer = "7F 07 88 40 FF FF FF FF FF FF"
        let tlv: String = "A0 04 03 00 FE" + String(repeating: " 00", count: 13)
        let trailers: [String] = (1...15).map { (sector: Int) -> String in
            "A0 " + Self.hex([UInt8(sector * 4 + 3)]) + " D3 F7 D3 F7 D3 F7 " + nfcTrailer
        }
        let directory: [String] = [
            "A0 02" + String(repeating: " 03 E1", count: 8),
            "A0 01 14 01" + String(repeating: " 03 E1", count: 7),
            "A0 03 A0 A1 A2 A3 A4 A5 78 77 88 C1 FF FF FF FF FF FF",
        ]
        let expected: [String] = [tlv] + trailers + directory
        #expect(writes == expected)
        // Each NFC sector was opened with the transport key before its trailer changed.
        #expect(await transport.log.contains("AUTH A 07 FFFFFFFFFFFF ok"))
    }

    @Test("format of a blank 4K: MAD2 (blocks 66, 65, 64, trailer 67) before MAD1, GPB C2")
    func format4K() async throws {
        let transport = ClassicTagTransport(tag: try ClassicFixtures.tag(.classic4k))
        try await ClassicFixtures.driver(.classic4k, transport).format(force: false)
        let writes = await transport.log.filter { $0.hasPrefix("A0") }.map { String($0.prefix(5)) }
        #expect(Array(writes.suffix(7)) == ["A0 42", "A0 41", "A0 40", "A0 43", "A0 02", "A0 01", "A0 03"])
        let tag = await transport.tag
        #expect(tag.block(3)[9] == 0xC2)
        #expect(tag.block(64)[2...3] == [0x03, 0xE1])
        #expect(
            tag.block(64)[0] == ChipTables.classic.mad.crc(Array((tag.block(64) + tag.block(65) + tag.block(66))[1...]))
        )
    }
}

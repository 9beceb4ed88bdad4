import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

@Suite("nfctag read and write", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls)
struct ReadWriteCommandTests {
    static let chips: [Chip] = [.ntag213, .ntag215, .ntag216, .ultralightEV1MF0UL21]

    @Test("write then read --json gives the records with uid and chip", arguments: chips)
    func writeThenRead(chip: Chip) throws {
        let fixture = try CLITagFixture(chip: chip)
        defer { fixture.stop() }
        try fixture.formatIfBlank(chip)
        let write = try fixture.run([
            "write", "--uri", "https://example.com/x", "--text", "Hallo", "--lang", "de", "--json",
        ])
        #expect(write.status == 0, "\(write.stderr)")
        let written = try CLITagFixture.object(write)
        #expect(written["uid"] as? String == "04a1b2c3d4e5f6")
        #expect(written["chip"] as? String == chip.rawValue)
        #expect(written["verified"] as? Bool == true)
        #expect((written["written"] as? Int).map { $0 > 0 && $0 == written["total"] as? Int } == true, "\(written)")

        let read = try fixture.run(["read", "--json"])
        #expect(read.status == 0, "\(read.stderr)")
        let object = try CLITagFixture.object(read)
        #expect(object["uid"] as? String == "04a1b2c3d4e5f6")
        #expect(object["chip"] as? String == chip.rawValue)
        let records = try #require(object["records"] as? [[String: Any]])
        #expect(records.count == 2)
        #expect(records.first?["uri"] as? String == "https://example.com/x")
        #expect(records.last?["text"] as? String == "Hallo")
        #expect(records.last?["lang"] as? String == "de")
        #expect(object["length"] as? Int == written["length"] as? Int)
    }

    @Test("write --hex, --full and --no-verify; read prints the records for a person")
    func writeHexFull() throws {
        let fixture = try CLITagFixture(chip: .ntag215)
        defer { fixture.stop() }
        let write = try fixture.run(["write", "--hex", "d1010c55046578616d706c652e636f6d", "--full", "--no-verify"])
        #expect(write.status == 0, "\(write.stderr)")
        #expect(write.stdout.hasPrefix("Wrote 16 bytes to ntag215 04a1b2c3d4e5f6"), "\(write.stdout)")
        #expect(!write.stdout.contains("verified"))
        let read = try fixture.run(["read"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("URI https://example.com"), "\(read.stdout)")
    }

    @Test("a message too big exits 1, says the tag was not touched, and leaves it unchanged")
    func writeTooBig() throws {
        let fixture = try CLITagFixture(chip: .ntag213)
        defer { fixture.stop() }
        let before = fixture.memory
        let result = try fixture.run(["write", "--text", String(repeating: "x", count: 400)])
        #expect(result.status == 1)
        #expect(result.stderr.contains("the tag was not touched"), "\(result.stderr)")
        #expect(fixture.memory == before)
    }

    @Test("a write to a tag that is not NDEF-formatted exits 1 and says to format it")
    func writeUnformatted() throws {
        let fixture = try CLITagFixture(chip: .ultralightEV1MF0UL11)
        defer { fixture.stop() }
        let result = try fixture.run(["write", "--uri", "https://example.com"])
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix("nfctag: write failed: the tag is not NDEF-formatted; nothing was written"),
            "\(result.stderr)")
    }

    @Test("usage errors exit 2: no records, records and --hex, malformed --hex")
    func writeUsage() throws {
        let fixture = try CLITagFixture(chip: .ntag215)
        defer { fixture.stop() }
        #expect(try fixture.run(["write"]).status == 2)
        #expect(try fixture.run(["write", "--uri", "https://a.b", "--hex", "d00000"]).status == 2)
        #expect(try fixture.run(["write", "--hex", "zz"]).status == 2)
        #expect(try fixture.run(["write", "--hex", "d101"]).status == 2)
    }

    @Test("read and write with no tag exit 4; with two tags exit 5 and write nothing")
    func noTagAndTwoTags() throws {
        let empty = try CLITagFixture([])
        defer { empty.stop() }
        #expect(try empty.run(["read"], timeout: "1").status == 4)
        #expect(try empty.run(["write", "--uri", "https://a.b"], timeout: "1").status == 4)

        let two = try CLITagFixture([
            try Type2Tag(chip: .ntag215, uid: CLITagFixture.uid),
            try Type2Tag(chip: .ntag215, uid: CLITagFixture.secondUID),
        ])
        defer { two.stop() }
        let memories = two.emulator.withField { field in field.handles.map { (field.tag($0) as? Type2Tag)?.memory } }
        let write = try two.run(["write", "--uri", "https://a.b"])
        #expect(write.status == 5, "\(write.stderr)")
        #expect(write.stderr.hasPrefix("nfctag: 2 tags in the field — remove all but one"), "\(write.stderr)")
        #expect(
            two.emulator.withField { field in field.handles.map { (field.tag($0) as? Type2Tag)?.memory } } == memories)
        #expect(try two.run(["read"]).status == 5)
    }

    @Test("a corrupt message: read exits 1 naming the byte address")
    func readCorrupt() throws {
        let fixture = try CLITagFixture(chip: .ntag215)
        defer { fixture.stop() }
        #expect(try fixture.run(["write", "--uri", "https://example.com"]).status == 0)
        let page = try #require(ChipTables.spec(for: .ntag215).memory?.firstUserPage)
        fixture.emulator.withField { field in
            guard let handle = field.handles.first else { return }
            _ = field.withTag(handle) { tag in
                guard var type2 = tag as? Type2Tag else { return }
                var bytes = type2.page(page)
                bytes[3] = 0x7F
                type2.setPage(page, to: bytes)
                tag = type2
            }
        }
        let read = try fixture.run(["read"])
        #expect(read.status == 1)
        #expect(
            read.stderr.hasPrefix("nfctag: read failed: the NDEF message on the tag is invalid at byte 0x"),
            "\(read.stderr)")
    }
}

import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// The reader-specific paths side by side on every reader kind in one process: the PN532 on
/// a UART, and the ACR122U and PN533 on USB through libnfc's own drivers (`nfctag` in a
/// child process with the USB stand-in preloaded): waits, frame limits, the alone check, and
/// silences that are not lost readers. The whole suites run on each kind too, one test
/// process per kind (scripts/test-reader-kinds).
@Suite(
    "Every reader kind: nfctag writes, reads, protects and reads counters", .serialized, .timeLimit(.minutes(3)),
    .blockingCalls)
struct ReaderKindMatrixTests {
    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    static let secondUID: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
    static let inAutoPoll = ChipTables.pn532.code(.inAutoPoll)
    static let inListPassiveTarget = ChipTables.pn532.code(.inListPassiveTarget)

    static func object(_ result: ToolRunner.Result) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            "\(result.stdout) \(result.stderr)")
    }

    @Test("NDEF session: write then read --json, verified", arguments: ReaderUnderTest.allCases)
    func writeThenRead(kind: ReaderUnderTest) throws {
        let fixture = try ReaderKindFixture(kind, tags: [try Type2Tag(chip: .ntag216, uid: Self.uid)])
        defer { fixture.stop() }
        let write = try fixture.run([
            "write", "--uri", "https://example.com/\(kind.rawValue)", "--text", "Hallo", "--json",
        ])
        #expect(write.status == 0, "\(write.stderr)")
        #expect(try Self.object(write)["verified"] as? Bool == true)
        let read = try fixture.run(["read", "--json"])
        #expect(read.status == 0, "\(read.stderr)")
        let records = try #require(try Self.object(read)["records"] as? [[String: Any]])
        #expect(records.first?["uri"] as? String == "https://example.com/\(kind.rawValue)")
        #expect(records.last?["text"] as? String == "Hallo")
    }

    @Test(
        "the alone check before a write: InAutoPoll only on the PN532 UART, a listing elsewhere; two tags exit 5 with nothing written",
        arguments: ReaderUnderTest.allCases)
    func aloneCheck(kind: ReaderUnderTest) throws {
        let one = try ReaderKindFixture(kind, tags: [try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { one.stop() }
        let before = one.statistics
        let write = try one.run(["write", "--uri", "https://example.com/alone"])
        #expect(write.status == 0, "\(write.stderr)")
        let polls =
            one.statistics.commandsByCode[Self.inAutoPoll, default: 0]
            - before.commandsByCode[Self.inAutoPoll, default: 0]
        if kind == .pn532 {
            #expect(polls > 0)
        } else {
            #expect(polls == 0, "\(kind) was sent InAutoPoll")
            #expect(one.statistics.commandsByCode[Self.inListPassiveTarget, default: 0] > 0)
        }

        let two = try ReaderKindFixture(
            kind,
            tags: [
                try Type2Tag(chip: .ntag215, uid: Self.uid),
                try Type2Tag(chip: .ntag215, uid: Self.secondUID),
            ])
        defer { two.stop() }
        let memories = two.type2Tags.map(\.memory)
        let refused = try two.run(["write", "--uri", "https://example.com/two"])
        #expect(refused.status == 5, "\(refused.stderr)")
        #expect(two.type2Tags.map(\.memory) == memories)
    }

    @Test(
        "tag session: protect, then a write without the password is refused and one with it accepted; the NFC counter reads",
        arguments: ReaderUnderTest.allCases)
    func protectAndCounter(kind: ReaderUnderTest) throws {
        let fixture = try ReaderKindFixture(kind, tags: [try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { fixture.stop() }
        let protect = try fixture.run(["protect", "--password", "12345678", "--pack", "abcd"])
        #expect(protect.status == 0, "\(protect.stderr)")
        let refused = try fixture.run(["write", "--uri", "https://example.com/no"])
        #expect(refused.status == 1, "\(refused.stderr)")
        let accepted = try fixture.run([
            "write", "--uri", "https://example.com/yes", "--password", "12345678", "--pack", "abcd",
        ])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let enable = try fixture.run(["counter", "--enable", "--json", "--password", "12345678", "--pack", "abcd"])
        #expect(enable.status == 0, "\(enable.stderr)")
        let counter = try fixture.run(["counter", "--json", "--password", "12345678", "--pack", "abcd"])
        #expect(counter.status == 0, "\(counter.stderr)")
        let tag = try #require(fixture.type2Tags.first)
        #expect(try Self.object(counter)["nfc_counter"] as? Int == tag.nfcCounter)
        #expect(tag.nfcCounter > 0)
    }

    @Test("provisioning: one tag written, verified and logged", arguments: ReaderUnderTest.allCases)
    func provisionOne(kind: ReaderUnderTest) async throws {
        let fixture = try ReaderKindFixture(kind, tags: [try Type2Tag(chip: .ntag213, uid: Self.uid)])
        defer { fixture.stop() }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nfctag-matrix-\(UUID().uuidString).jsonl"
        ).path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let station = try fixture.start([
            "provision", "--uri", "https://example.com/p/1", "--count", "1", "--log", log, "--json",
        ])
        let status = await station.exitStatus(timeout: .seconds(60))
        #expect(status == 0, "\(station.output) \(station.standardError)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("\"result\":\"ok\""), "\(lines)")
        #expect(lines.first?.contains("\"uid\":\"04a1b2c3d4e5f6\"") == true)
    }

    @Test("a whole NTAG216 dumps in FAST_READ chunks the reader carries", arguments: ReaderUnderTest.allCases)
    func dumpInChunks(kind: ReaderUnderTest) throws {
        let fixture = try ReaderKindFixture(kind, tags: [try Type2Tag(chip: .ntag216, uid: Self.uid)])
        defer { fixture.stop() }
        let dump = try fixture.run(["dump", "--json"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let pages = try #require(try Self.object(dump)["pages"] as? [String])
        #expect(pages.count == ChipTables.spec(for: .ntag216).memory?.pageCount)
        let fastRead = try #require(ChipTables.spec(for: .ntag216).command(.fastRead)?.code)
        #expect(fixture.statistics.tagFramesByCode[fastRead, default: 0] >= 4)
    }

    @Test(
        "a raw command longer than the reader's frame is refused with nothing sent; on the PN53x readers it goes out",
        arguments: ReaderUnderTest.allCases)
    func rawFrameLimit(kind: ReaderUnderTest) throws {
        let fixture = try ReaderKindFixture(kind, tags: [try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { fixture.stop() }
        let write = try #require(ChipTables.spec(for: .ntag215).command(.write)?.code)
        // 252 bytes: one more than an ACR122U's raw frame (253 with CRC_A) carries.
        let long = ([write] + [UInt8](repeating: 0, count: 251)).hexString()
        let before = fixture.statistics.tagFramesByCode[write, default: 0]
        let result = try fixture.run(["raw", long])
        #expect(result.status != 0)
        let sent = fixture.statistics.tagFramesByCode[write, default: 0] - before
        if kind == .acr122u {
            #expect(result.stderr.contains("carries at most 251"), "\(result.stderr)")
            #expect(sent == 0)
        } else {
            #expect(!result.stderr.contains("carries at most"), "\(result.stderr)")
            #expect(sent == 1)
        }
    }

    @Test(
        "a tag that stays silent is a silent tag, not a lost reader (ACR122U: ICC mute; others: the wait runs out)",
        arguments: ReaderUnderTest.allCases)
    func silentTagIsNotALostReader(kind: ReaderUnderTest) throws {
        let readSignature = try #require(ChipTables.spec(for: .ntag215).command(.readSignature)?.code)
        let faults = try FaultPlan(parsing: ["mute-command=" + String(readSignature, radix: 16)])
        let fixture = try ReaderKindFixture(kind, tags: [try Type2Tag(chip: .ntag215, uid: Self.uid)], faults: faults)
        defer { fixture.stop() }
        let signature = try fixture.run(["signature"])
        #expect(signature.status == 1, "\(signature.stderr)")
        #expect(signature.stderr.contains("did not answer"), "\(signature.stderr)")
        #expect(!signature.stderr.lowercased().contains("lost"), "\(signature.stderr)")
        // The same silence inside a longer job: info goes on past it, in the same process.
        let info = try fixture.run(["info", "--json"])
        #expect(info.status == 0, "\(info.stderr)")
        let object = try Self.object(info)
        #expect(object["signature"] is NSNull)
        #expect((object["ndef"] as? [String: Any])?["status"] as? String == "read-write")
    }

    @Test("scan identifies the chip and its NDEF status", arguments: ReaderUnderTest.allCases)
    func scan(kind: ReaderUnderTest) throws {
        let fixture = try ReaderKindFixture(kind, tags: [try Type2Tag(chip: .ntag213, uid: Self.uid)])
        defer { fixture.stop() }
        let result = try fixture.run(["scan", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try Self.object(result)
        #expect(object["chip"] as? String == "ntag213")
        #expect((object["ndef"] as? [String: Any])?["status"] as? String == "read-write")
    }

    @Test(
        "MIFARE Classic 1K: format, write and read back NDEF (Crypto1 in the reader chip)",
        arguments: ReaderUnderTest.allCases)
    func classic(kind: ReaderUnderTest) throws {
        let fixture = try ReaderKindFixture(kind, tags: [try EmulatedTagFactory.make(name: "classic1k", index: 0)])
        defer { fixture.stop() }
        let format = try fixture.run(["format"], timeout: "10")
        #expect(format.status == 0, "\(format.stderr)")
        let write = try fixture.run(["write", "--text", "Classic on \(kind.rawValue)"], timeout: "10")
        #expect(write.status == 0, "\(write.stderr)")
        let read = try fixture.run(["read", "--json"], timeout: "10")
        #expect(read.status == 0, "\(read.stderr)")
        let records = try #require(try Self.object(read)["records"] as? [[String: Any]])
        #expect(records.first?["text"] as? String == "Classic on \(kind.rawValue)")
    }

    @Test("ISO-DEP: APDUs to a Type 4 tag, each with its status word", arguments: ReaderUnderTest.allCases)
    func isoDEP(kind: ReaderUnderTest) throws {
        let fixture = try ReaderKindFixture(
            kind, tags: [try Type4Tag(uid: [0x04, 0x62, 0x19, 0xA3, 0x5B, 0x70, 0x82])])
        defer { fixture.stop() }
        let cc = try #require(ChipTables.spec(for: .type4).type4Files?.capabilityContainer)
        let result = try fixture.run(["apdu", "00A4040007D276000085010100", "00A4000C02E103", "00B000000F", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let answers = try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        #expect(answers.count == 3)
        #expect((answers.last?["data"] as? String)?.lowercased() == cc.hexString(), "\(result.stdout)")
        #expect(answers.allSatisfy { ($0["sw"] as? String)?.lowercased() == "9000" }, "\(result.stdout)")
    }
}

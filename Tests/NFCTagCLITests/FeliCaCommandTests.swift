import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// `nfctag felica` against the emulated reader kind under test, through libnfc: Polling,
/// services, Read and Write Without Encryption on a FeliCa Lite-S and a FeliCa Standard.
@Suite("nfctag felica", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls)
struct FeliCaCommandTests {
    static let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0x2A, 0x31, 0x12, 0x0B, 0x05]

    @Test("poll --json: IDm, PMm, IC and the system codes of each card")
    func poll() throws {
        for (card, ic, codes) in [
            (FeliCaLiteSTag(idm: Self.idm, ndef: true) as any EmulatedTag, "felica-lite-s", ["88b4", "12fc"]),
            (FeliCaStandardTag(idm: Self.idm), "felica-standard", ["8008", "12fc"]),
        ] {
            let emulator = try startEmulator([card])
            defer { emulator.stop() }
            let result = try runTool(["felica", "poll", "--json"], on: emulator)
            #expect(result.status == 0, "\(result.stderr)")
            let json = try jsonObject(result)
            #expect(json["idm"] as? String == Self.idm.hexString())
            #expect(json["ic"] as? String == ic)
            #expect(json["system_codes"] as? [String] == codes)
            let ndef = try jsonObject(try runTool(["felica", "poll", "--system-code", "12fc", "--json"], on: emulator))
            #expect(ndef["request_data"] as? String == "12fc")
        }
    }

    @Test(
        "services: Search Service Code on a Standard; a Lite-S says it has neither command (exit 1); dump reads each's keyless blocks"
    )
    func services() throws {
        let standard = try startEmulator([FeliCaStandardTag(idm: Self.idm)])
        let listed = try runTool(["felica", "services", "--json"], on: standard)
        let standardDump = try jsonObject(try runTool(["dump"], on: standard))
        standard.stop()
        #expect(listed.status == 0, "\(listed.stderr)")
        let json = try jsonObject(listed)
        #expect(json["services"] as? [String] == ["1009", "100b", "104b"])
        let services = standardDump["services"] as? [[String: Any]] ?? []
        #expect(standardDump["chip"] as? String == "felica-standard")
        #expect(services.map { $0["service"] as? String } == ["1009", "100B", "104B"])
        #expect(services.map { ($0["blocks"] as? [Any])?.count } == [8, 8, 4])
        let lite = try startEmulator([FeliCaLiteSTag(idm: Self.idm, ndef: true)])
        defer { lite.stop() }
        let refused = try runTool(["felica", "services"], on: lite)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("0009 (read-write) and 000b (read-only)"), "\(refused.stderr)")
        // The memory map without RC, MAC, CK and MAC_A: blocks 00-0E (REG last) and eight system blocks.
        let liteDump = try jsonObject(try runTool(["dump"], on: lite))
        let blocks = (liteDump["services"] as? [[String: Any]])?.first?["blocks"] as? [[String: Any]] ?? []
        let numbers = blocks.compactMap { $0["block"] as? Int }
        #expect(numbers == Array(0...14) + [0x82, 0x83, 0x84, 0x85, 0x86, 0x88, 0x90, 0x92])
        #expect(
            blocks.first { $0["block"] as? Int == 0x82 }?["data"] as? String
                == (Self.idm + [UInt8](repeating: 0, count: 8)).hexString(uppercase: true))
    }

    @Test("write then read a block; a MAC-only block is refused with its status flags; bad arguments exit 2")
    func readWrite() throws {
        let emulator = try startEmulator([FeliCaLiteSTag(idm: Self.idm, ndef: true)])
        defer { emulator.stop() }
        let data = "00112233445566778899aabbccddeeff"
        let written = try runTool(
            ["felica", "write", "--service", "0009", "--block", "5", "--hex", data, "--json"], on: emulator)
        #expect(written.status == 0, "\(written.stderr)")
        let read = try jsonObject(
            try runTool(["felica", "read", "--service", "000b", "--blocks", "4,5,6,7,8", "--json"], on: emulator))
        #expect((read["blocks"] as? [String])?[1] == data)
        #expect((read["blocks"] as? [String])?.count == 5, "five blocks in two reads of at most four")
        let mac = try runTool(["felica", "read", "--service", "000b", "--blocks", "129"], on: emulator)
        #expect(mac.status == 1)
        #expect(mac.stderr.contains("status flags 01b1"), "\(mac.stderr)")
        for arguments in [
            ["felica", "read", "--service", "b", "--blocks", "1"], ["felica", "read", "--service", "000b"],
            ["felica", "write", "--service", "0009", "--block", "1", "--hex", "00"], ["felica", "scan"],
        ] {
            #expect(try runTool(arguments, on: emulator).status == 2, "\(arguments)")
        }
    }

    @Test("read and write --mac: the card proves the factory key and each block, takes MAC_A; another key exits 1")
    func readWithMAC() throws {
        let emulator = try startEmulator([FeliCaLiteSTag(idm: Self.idm, ndef: true)])
        defer { emulator.stop() }
        let read = try runTool(
            ["felica", "read", "--service", "000b", "--blocks", "0,1,130,131", "--mac", "--json"], on: emulator)
        #expect(read.status == 0, "\(read.stderr)")
        let json = try jsonObject(read)
        #expect(json["mac"] as? Bool == true)
        #expect((json["blocks"] as? [String])?[2] == Self.idm.hexString() + String(repeating: "00", count: 8))
        let wrong = try runTool(
            [
                "felica", "read", "--service", "000b", "--blocks", "0", "--mac", "--card-key",
                String(repeating: "11", count: 16),
            ],
            on: emulator)
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("not a genuine card"), "\(wrong.stderr)")
        #expect(
            try runTool(["felica", "read", "--service", "000b", "--blocks", "0", "--card-key", "00"], on: emulator)
                .status == 2)
        // STATE (146) with 01 through MAC_A: the mutual authentication, read back with the card's MAC.
        let state = [
            "felica", "write", "--service", "0009", "--block", "146", "--hex",
            "01" + String(repeating: "00", count: 15),
        ]
        let written = try runTool(state + ["--mac", "--json"], on: emulator)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try jsonObject(written)["mac"] as? Bool == true)
        let forged = try runTool(state + ["--mac", "--card-key", String(repeating: "11", count: 16)], on: emulator)
        #expect(forged.status == 1 && forged.stderr.contains("not a genuine card"), "\(forged.stderr)")
        let readOnly = [
            "felica", "write", "--service", "000b", "--block", "1", "--hex", String(repeating: "00", count: 16),
        ]
        #expect(try runTool(readOnly + ["--mac"], on: emulator).status == 2)
    }

    @Test("no FeliCa card: exit 4 after --timeout, naming the system polled for")
    func noCard() throws {
        let emulator = try startEmulator([FeliCaLiteSTag(idm: Self.idm, ndef: false)])
        defer { emulator.stop() }
        let result = try runTool(["--timeout", "0.3", "felica", "poll", "--system-code", "12fc"], on: emulator)
        #expect(result.status == 4)
        #expect(result.stderr.contains("Polling for 12fc"), "\(result.stderr)")
    }

    @Test(
        "scan, write, read, lock and format take a FeliCa card as any tag; nfc-read-forum-tag3 reads what write wrote")
    func ndefCommands() throws {
        var card = FeliCaLiteSTag(idm: Self.idm, ndef: true)
        card.setNDEFMessage([])
        let emulator = try startEmulator([card])
        defer { emulator.stop() }
        let scan = try jsonObject(try runTool(["scan", "--json"], on: emulator))
        #expect(scan["technology"] as? String == "felica")
        #expect(scan["chip"] as? String == "felica-lite-s")
        #expect(scan["pmm"] as? String == "00f1000000014300")
        #expect(scan["atqa"] == nil)
        let url = "https://example.com/written-by-nfctag"
        let written = try runTool(["write", "--uri", url], on: emulator)
        #expect(written.status == 0, "\(written.stderr)")
        let read = try jsonObject(try runTool(["read", "--json"], on: emulator))
        #expect((read["records"] as? [[String: Any]])?.first?["uri"] as? String == url)
        if ReaderUnderTest.current == .pn532, LibNFCTool.isInstalled("nfc-read-forum-tag3") {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("nfctag-felica-\(UUID()).ndef")
            defer { try? FileManager.default.removeItem(at: file) }
            let tool = try LibNFCTool.run("nfc-read-forum-tag3", ["-o", file.path], device: emulator.connectionString)
            #expect(tool.status == 0, "\(tool.output)")
            let uri = Array("example.com/written-by-nfctag".utf8)  // "https://" is prefix code 04
            #expect(try [UInt8](Data(contentsOf: file)) == [0xD1, 0x01, UInt8(1 + uri.count), 0x55, 0x04] + uri)
        }
        let format = try runTool(["format"], on: emulator)
        #expect(format.status != 0, "format refuses a formatted card without --force")
        let locked = try runTool(["lock", "--yes"], on: emulator)
        #expect(locked.status == 0, "\(locked.stderr)")
        let refused = try runTool(["write", "--text", "again"], on: emulator)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("read-only"), "\(refused.stderr)")
        let info = try jsonObject(try runTool(["info", "--json"], on: emulator))
        #expect((info["ndef"] as? [String: Any])?["status"] as? String == "read-only")
    }
}

import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// The tag commands on a Topaz, against the emulated reader kind under test, through libnfc;
/// `nfc-jewel` reads what `nfctag write` wrote.
@Suite("nfctag on a Type 1 tag", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls)
struct Type1CommandTests {
    @Test(
        "scan gives technology jewel, the UID0-6 and the header ROM; write, read, format and lock work; nfc-jewel reads the write"
    )
    func commands() throws {
        let emulator = try startEmulator([Type1Tag(chip: .topaz, uid: [0x3C, 0x56, 0x54, 0x00, 0x11, 0x22, 0x33])])
        defer { emulator.stop() }
        let scan = try jsonObject(try runTool(["scan", "--json"], on: emulator))
        #expect(scan["technology"] as? String == "jewel")
        #expect(scan["uid"] as? String == "3c565400112233")
        #expect(scan["chip"] as? String == "topaz")
        #expect(scan["header_rom"] as? String == "1148")
        #expect((scan["ndef"] as? [String: Any])?["capacity"] as? Int == 90)
        let url = "https://example.com/topaz"
        let written = try runTool(["write", "--uri", url], on: emulator)
        #expect(written.status == 0, "\(written.stderr)")
        let read = try jsonObject(try runTool(["read", "--json"], on: emulator))
        #expect((read["records"] as? [[String: Any]])?.first?["uri"] as? String == url)
        if ReaderUnderTest.current == .pn532, LibNFCTool.isInstalled("nfc-jewel") {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("nfctag-jewel-\(UUID()).jwd")
            defer { try? FileManager.default.removeItem(at: file) }
            let tool = try LibNFCTool.run("nfc-jewel", ["r", file.path], device: emulator.connectionString)
            #expect(tool.status == 0, "\(tool.output)")
            let image = try [UInt8](Data(contentsOf: file))
            let uri = Array("example.com/topaz".utf8)
            let tlv: [UInt8] =
                [0x03, UInt8(5 + uri.count), 0xD1, 0x01, UInt8(1 + uri.count), 0x55, 0x04] + uri + [0xFE]
            #expect(Array(image[8..<12]) == [0xE1, 0x10, 0x0E, 0x00] && Array(image[12..<(12 + tlv.count)]) == tlv)
        }
        let dump = try jsonObject(try runTool(["dump"], on: emulator))
        let blocks = dump["blocks"] as? [String] ?? []
        #expect(dump["chip"] as? String == "topaz" && dump["headerROM"] as? String == "1148")
        #expect(blocks.count == 15 && blocks[0].hasPrefix("3C565400112233") && blocks[1].hasPrefix("E1100E00"))
        let formatted = try runTool(["format", "--force"], on: emulator)
        #expect(formatted.status == 0, "\(formatted.stderr)")
        let empty = try jsonObject(try runTool(["read", "--json"], on: emulator))
        #expect((empty["records"] as? [Any])?.isEmpty == true)
        #expect(try runTool(["write", "--uri", url], on: emulator).status == 0)
        let locked = try runTool(["lock", "--yes"], on: emulator)
        #expect(locked.status == 0, "\(locked.stderr)")
        let refused = try runTool(["write", "--text", "again"], on: emulator)
        #expect(refused.status == 1 && refused.stderr.contains("read-only"), "\(refused.stderr)")
    }
}

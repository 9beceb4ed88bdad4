import Foundation
import Testing
import TestSupport

/// `nfctag ndef encode` / `decode` as a script sees them: output, JSON fields, exit codes.
@Suite("nfctag ndef", .blockingCalls)
struct NDEFCommandTests {
    @Test("encode prints the message as lowercase hex with the longest URI prefix")
    func encodeURI() throws {
        let result = try ToolRunner.run(["ndef", "encode", "--uri", "https://www.adafruit.com"])
        #expect(result.status == 0, "\(result.stderr)")
        // https://www. is prefix 0x02.
        #expect(result.stdout == "d1010d550261646166727569742e636f6d\n")
    }

    @Test("encode of the reference Text record is byte-exact")
    func encodeText() throws {
        let result = try ToolRunner.run(["ndef", "encode", "--text", "elephant", "--lang", "en"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "d1010b5402656e656c657068616e74\n")
    }

    @Test("several records keep their order and the MB / ME flags")
    func encodeSeveral() throws {
        let result = try ToolRunner.run(["ndef", "encode", "--uri", "tel:+123", "--empty", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let hex = try #require(object?["hex"] as? String)
        #expect(hex == "91010555052b313233" + "500000")
        let records = try #require(object?["records"] as? [[String: Any]])
        #expect(records.count == 2)
        #expect(records[0]["uri"] as? String == "tel:+123")
        #expect(records[1]["tnf"] as? String == "empty")
    }

    @Test("decode --json gives the contract's record fields, Smart Poster inner records included")
    func decodeSmartPoster() throws {
        // Reference Smart Poster: Text "Libnfc" (en) + URI http://libnfc.org
        let hex = "d1021c5370910109540265" + "6e4c69626e666351010b55036c69626e66632e6f7267"
        let result = try ToolRunner.run(["--json", "ndef", "decode", hex])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let records = try #require(object["records"] as? [[String: Any]])
        #expect(records.count == 1)
        let poster = records[0]
        #expect(poster["tnf"] as? String == "well-known")
        #expect(poster["type"] as? String == "Sp")
        #expect(poster["uri"] as? String == "http://libnfc.org")
        let inner = try #require(poster["records"] as? [[String: Any]])
        #expect(inner.count == 2)
        #expect(inner[0]["text"] as? String == "Libnfc")
        #expect(inner[0]["lang"] as? String == "en")
        #expect(inner[0]["encoding"] as? String == "utf-8")
        #expect(inner[1]["uri"] as? String == "http://libnfc.org")
        #expect(inner[1]["payload"] as? String == "036c69626e66632e6f7267")
    }

    @Test("decode reads hex from stdin with -, and human output names each record")
    func decodeStdin() throws {
        let result = try ToolRunner.run(
            ["ndef", "decode", "-"], stdin: "d1 01 0b 54 02 65 6e 65 6c 65 70 68 61 6e 74\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Text (en, utf-8) \"elephant\""))
    }

    @Test("encode then decode round-trips every record kind through the tool")
    func roundTrip() throws {
        let encoded = try ToolRunner.run([
            "ndef", "encode", "--text", "Grüße", "--lang", "de", "--utf16",
            "--external", "example.com:serial", "--payload-hex", "00ff",
            "--smart-poster", "https://shop.example", "--title", "Shop", "--title", "Laden", "--lang", "de",
            "--uri", "urn:nfc:sn:42",
        ])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let decoded = try ToolRunner.run(["ndef", "decode", encoded.stdout, "--json"])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(decoded.stdout.utf8)) as? [String: Any])
        let records = try #require(object["records"] as? [[String: Any]])
        #expect(records.count == 4)
        #expect(records[0]["text"] as? String == "Grüße")
        #expect(records[0]["encoding"] as? String == "utf-16")
        #expect(records[1]["tnf"] as? String == "external")
        #expect(records[1]["type"] as? String == "example.com:serial")
        #expect(records[1]["payload"] as? String == "00ff")
        #expect(records[2]["uri"] as? String == "https://shop.example")
        #expect((records[2]["records"] as? [Any])?.count == 3)
        #expect(records[3]["uri"] as? String == "urn:nfc:sn:42")
        #expect(records[3]["payload"] as? String == "23" + "736e3a3432")
    }

    @Test(
        "malformed NDEF exits 2 and names the byte offset on the first line",
        arguments: [
            "d101ff55",  // a payload length of 255 runs past the end
            "5101015500",  // MB missing on the first record
            "d1",  // truncated header
        ])
    func malformed(hex: String) throws {
        let result = try ToolRunner.run(["ndef", "decode", hex])
        #expect(result.status == 2)
        let firstLine = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.contains("malformed NDEF at byte"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "input that is not hex, unknown options and missing records are usage errors (exit 2)",
        arguments: [
            ["ndef", "decode", "xyz"],
            ["ndef", "decode", "abc"],
            ["ndef", "encode"],
            ["ndef", "encode", "--bogus"],
            ["ndef", "encode", "--lang", "de"],
            ["ndef", "encode", "--uri"],
            ["ndef", "frobnicate"],
            ["frobnicate"],
            ["ndef", "encode", "--external", "nocolon", "--payload-hex", "00"],
            ["ndef", "encode", "--mime", "not a type", "--payload-hex", "00"],
        ])
    func usageErrors(arguments: [String]) throws {
        let result = try ToolRunner.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stdout) \(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }

    @Test("help for the tool and for each ndef verb exits 0 with examples")
    func help() throws {
        for arguments in [
            ["--help"], ["ndef", "--help"], ["ndef", "encode", "--help"], ["ndef", "decode", "--help"],
        ] {
            let result = try ToolRunner.run(arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.stdout.contains("Example"), "\(arguments)")
        }
    }
}

import Foundation
@testable import NFCEmulator
import NTAG424Crypto
import Testing
import TestSupport

/// `nfctag ntag424 sun-verify` as a web server's script sees it: exit 0 valid, 1 not valid,
/// 2 malformed; `--json` with the UID and counter.
@Suite("nfctag ntag424 sun-verify", .blockingCalls)
struct SUNVerifyCommandTests {
    /// NXP AN12196 §3.4.4.2.1: zero keys, UID 04DE5F1EACC040, SDMReadCtr 61.
    static let nxpURL = "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086"
    static let nxpNames = ["--picc-param", "e", "--cmac-param", "c"]

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A URL as a tag set up in the encrypted layout writes it, made by the emulated card's SDM code.
    static func encryptedURL(uid: [UInt8], counter: UInt32, metaKey: AES128Key, macKey: AES128Key) throws -> String {
        let picc = PICCSDM.encryptPICCData(
            uid: uid, counter: counter, metaReadKey: metaKey.bytes, padding: [0x5A, 0xA5, 0x5A, 0xA5, 0x5A])
        let mac = PICCSDM.mac(fileReadKey: macKey.bytes, uid: uid, counter: counter, input: [])
        return "https://example.com/t?picc_data=\(HexBytes.encode(picc))&cmac=\(HexBytes.encode(mac))"
    }

    @Test("AN12196's example URL is valid: UID and counter, text and --json")
    func nxpExample() throws {
        let text = try ToolRunner.run(["ntag424", "sun-verify", Self.nxpURL] + Self.nxpNames)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == "valid  UID 04de5f1eacc040  counter 61\n")
        let json = try ToolRunner.run(["ntag424", "sun-verify", Self.nxpURL, "--json"] + Self.nxpNames)
        #expect(json.status == 0, "\(json.stderr)")
        let object = try Self.object(json.stdout)
        #expect(object["valid"] as? Bool == true)
        #expect(object["uid"] as? String == "04de5f1eacc040")
        #expect(object["counter"] as? Int == 61)
    }

    @Test("one altered character is not valid (exit 1)")
    func altered() throws {
        let url = Self.nxpURL.replacing("c=94EED9EE65337086", with: "c=94EED9EE65337087")
        let result = try ToolRunner.run(["ntag424", "sun-verify", url, "--json"] + Self.nxpNames)
        #expect(result.status == 1)
        #expect(try Self.object(result.stdout)["valid"] as? Bool == false)
        #expect(result.stderr.contains("not valid"))
    }

    @Test("two reads in a row: counters n and n+1, and the older one is a replay after the newer")
    func consecutiveReadsAndReplay() throws {
        let meta = try AES128Key(hex: "42AFF114F2CB3B6141BE6DC95DFC5416")
        let mac = try AES128Key(hex: "B62A9BAF092439BD43C62AEE96B970C5")
        let uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
        let first = try Self.encryptedURL(uid: uid, counter: 7, metaKey: meta, macKey: mac)
        let second = try Self.encryptedURL(uid: uid, counter: 8, metaKey: meta, macKey: mac)
        #expect(first != second)
        let keys = ["--key", HexBytes.encode(meta.bytes), "--mac-key", HexBytes.encode(mac.bytes), "--json"]
        let one = try ToolRunner.run(["ntag424", "sun-verify", first] + keys)
        let two = try ToolRunner.run(["ntag424", "sun-verify", second, "--last-counter", "7"] + keys)
        #expect(one.status == 0, "\(one.stderr)")
        #expect(two.status == 0, "\(two.stderr)")
        #expect(try Self.object(one.stdout)["counter"] as? Int == 7)
        #expect(try Self.object(two.stdout)["counter"] as? Int == 8)
        let replay = try ToolRunner.run(["ntag424", "sun-verify", first, "--last-counter", "8"] + keys)
        #expect(replay.status == 1)
        #expect(replay.stderr.contains("replay"))
        // The meta-read key alone (as --mac-key's default) does not make the CMAC.
        let wrongKey = try ToolRunner.run(["ntag424", "sun-verify", first, "--key", HexBytes.encode(meta.bytes)])
        #expect(wrongKey.status == 1)
    }

    @Test("a per-tag MAC key from --master-key --diversify")
    func diversified() throws {
        let master = try AES128Key(hex: "00112233445566778899AABBCCDDEEFF")
        let uid: [UInt8] = [0x04, 0xDE, 0x5F, 0x1E, 0xAC, 0xC0, 0x40]
        let url = try Self.encryptedURL(
            uid: uid, counter: 1, metaKey: .zero,
            macKey: KeyDiversification.sunMACKey(masterKey: master, uid: uid))
        let result = try ToolRunner.run([
            "ntag424", "sun-verify", url, "--master-key", HexBytes.encode(master.bytes), "--diversify",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let undiversified = try ToolRunner.run([
            "ntag424", "sun-verify", url, "--mac-key", HexBytes.encode(master.bytes),
        ])
        #expect(undiversified.status == 1)
        let half = try ToolRunner.run(["ntag424", "sun-verify", url, "--master-key", HexBytes.encode(master.bytes)])
        #expect(half.status == 2)
    }

    @Test("the plain layout, with its own parameter names")
    func plainLayout() throws {
        let url = "https://example.com/t?u=041E3C8A2D6B80&n=000006&m=4B00064004B0B3D3"
        let result = try ToolRunner.run([
            "ntag424", "sun-verify", url, "--uid-param", "u", "--counter-param", "n", "--cmac-param", "m", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try Self.object(result.stdout)
        #expect(object["uid"] as? String == "041e3c8a2d6b80")
        #expect(object["counter"] as? Int == 6)
        #expect(object["mode"] as? String == "plain")
    }

    @Test(
        "malformed URLs and options exit 2",
        arguments: [
            ["ntag424", "sun-verify", "https://example.com/t"],
            ["ntag424", "sun-verify", "https://example.com/t?picc_data=EF96&cmac=94EED9EE65337086"],
            ["ntag424", "sun-verify", nxpURL],  // default names: no picc_data=
            ["ntag424", "sun-verify", nxpURL, "--key", "1234"],
            ["ntag424", "sun-verify"],
            ["ntag424", "sun-verify", nxpURL, "--last-counter", "minus one"],
            ["ntag424", "no-such-verb"],
        ])
    func malformed(arguments: [String]) throws {
        let result = try ToolRunner.run(arguments)
        #expect(result.status == 2, "\(arguments) → \(result.status) \(result.stderr)")
    }
}

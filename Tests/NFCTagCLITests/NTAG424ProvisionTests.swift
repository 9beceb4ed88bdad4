import Foundation
import NFCChips
import NFCEmulator
import NTAG424Crypto
import Testing
import TestSupport

/// `nfctag provision --ntag424-sun TEMPLATE`: a station that sets up SUN on tag after tag.
@Suite("nfctag provision --ntag424-sun", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls)
struct NTAG424ProvisionTests {
    static let template = "https://example.com/t?picc_data={picc}&cmac={cmac}"

    @Test(
        "two NTAG 424 DNA tags: each gets the SUN URL and settings (actions sun-setup, verify), with its own diversified MAC key; the log holds no key"
    )
    func twoTags() async throws {
        let bench = try ProvisionBench()
        let master = String(repeating: "7e", count: 16)
        let meta = String(repeating: "21", count: 16)
        let tool = try RunningTool(
            [
                "provision", "--ntag424-sun", Self.template, "--ntag424-meta-key-env", "META",
                "--ntag424-master-key-env", "MASTER", "--count", "2", "--json", "--log", bench.logPath,
                "--device", bench.emulator.connectionString, "--timeout", "3",
            ],
            environment: ["META": meta, "MASTER": master])
        for number: UInt8 in 1...2 {
            let uid = ProvisionBench.uid(number)
            let handle = bench.emulator.insert(NTAG424DNATag(uid: uid))
            let record = try await bench.waitForRecord(tool, uid: number, result: "ok")
            #expect(record["actions"] as? [String] == ["sun-setup", "verify"])
            let tag = try #require(bench.emulator.remove(handle) as? NTAG424DNATag)
            let expectedKey = try KeyDiversification.sunMACKey(masterKey: try AES128Key(hex: master), uid: uid)
            let metaKey = try AES128Key(hex: meta)
            #expect(tag.keys[1] == expectedKey && tag.keys[2] == metaKey)
            #expect(tag.files[1].settings.sdm?.metaRead == 2 && tag.files[1].settings.sdm?.fileRead == 1)
        }
        let summary = try await bench.summary(tool)
        #expect(summary["done"] as? Int == 2)
        #expect(await tool.exitStatus() == 0, "\(tool.standardError)")
        let log = try String(contentsOfFile: bench.logPath, encoding: .utf8)
        #expect(!log.contains(master))
    }

    @Test("--ntag424-sun with records, or a template without {cmac}, is refused before any tag is touched")
    func refusals() throws {
        let withRecords = try ToolRunner.run([
            "provision", "--ntag424-sun", Self.template, "--uri", "https://example.com",
        ])
        #expect(withRecords.status == 2, "\(withRecords.stderr)")
        let noMAC = try ToolRunner.run(["provision", "--ntag424-sun", "https://example.com/t?picc_data={picc}"])
        #expect(noMAC.status == 2, "\(noMAC.stderr)")
    }
}

import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// `write --mirror` and `provision --mirror` against the emulated PN532, through libnfc.
@Suite(
    "nfctag write --mirror and provision --mirror", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls
)
struct MirrorCommandTests {
    static let uid: [UInt8] = [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]

    func uri(_ result: ToolRunner.Result) throws -> String {
        let records = try #require(try jsonObject(result)["records"] as? [[String: Any]])
        return try #require(records.first?["uri"] as? String)
    }

    @Test("write --mirror: each read shows the UID and a counter that goes up from one reader session to the next")
    func writeThenReadTwice() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { emulator.stop() }
        let write = try runTool(
            ["write", "--uri", "https://example.com/t?id={uid}x{counter}", "--mirror", "--json"], on: emulator)
        #expect(write.status == 0, "\(write.stderr)")
        #expect(try jsonObject(write)["mirror"] as? String == "uid+counter")
        let first = try uri(try runTool(["read", "--json"], on: emulator))
        let second = try uri(try runTool(["read", "--json"], on: emulator))
        #expect(first.hasPrefix("https://example.com/t?id=04475ED29C3980x"), "\(first)")
        let counters = [first, second].compactMap { Int($0.suffix(6), radix: 16) }
        #expect(counters.count == 2 && counters[1] == counters[0] + 1, "\(first) → \(second)")
    }

    @Test(
        "write --mirror is refused with nothing written: a layout the chip cannot mirror, a chip without a mirror, no URI"
    )
    func refusals() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { emulator.stop() }
        let before = try type2Tag(emulator).memory
        let layout = try runTool(["write", "--uri", "https://example.com/{counter}x{uid}", "--mirror"], on: emulator)
        #expect(layout.status == 1)
        #expect(layout.stderr.contains("nothing was written"), "\(layout.stderr)")
        #expect(try runTool(["write", "--text", "hi", "--mirror"], on: emulator).status == 2)
        #expect(try type2Tag(emulator).memory == before)

        let ultralight = try startEmulator([try Type2Tag(chip: .ultralight, uid: Self.uid)])
        defer { ultralight.stop() }
        let none = try runTool(["write", "--uri", "https://example.com/{uid}", "--mirror"], on: ultralight)
        #expect(none.status == 1)
        #expect(none.stderr.contains("no ASCII mirror"), "\(none.stderr)")
    }

    @Test("provision --mirror: the tag is written with its mirror set and verified as the chip shows it")
    func provision() async throws {
        let bench = try ProvisionBench()
        let tool = try RunningTool([
            "provision", "--uri", "https://example.com/p/{uid}", "--mirror", "--count", "1", "--json",
            "--log", bench.logPath, "--device", bench.emulator.connectionString, "--timeout", "3",
        ])
        let (record, tag) = try await bench.present(try ProvisionBench.tag(1), number: 1, to: tool, expecting: "ok")
        #expect(record["actions"] as? [String] == ["write", "verify"])
        #expect(await tool.exitStatus() == 0, "\(tool.standardError)")
        // Presented again after the station let it go, the tag shows its own UID in the URL.
        bench.emulator.insert(tag)
        let read = try ToolRunner.run(["read", "--json", "--device", bench.emulator.connectionString, "--timeout", "3"])
        #expect(
            try uri(read) == "https://example.com/p/" + ProvisionBench.uid(1).hexString(uppercase: true),
            "\(read.stdout)")
    }
}

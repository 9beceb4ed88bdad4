import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// `nfctag ntag424 info | auth | change-key | sun-setup` against the emulated NTAG 424 DNA,
/// through libnfc; the SUN URLs `nfctag read` gets afterwards checked by `ntag424 sun-verify`.
@Suite("nfctag ntag424 (tag verbs)", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls)
struct NTAG424CommandTests {
    static let uid: [UInt8] = [0x04, 0x51, 0x2A, 0x7C, 0x90, 0x1B, 0x80]

    func model(_ emulator: EmulatedReader) throws -> NTAG424DNATag {
        try #require(emulator.tags.first as? NTAG424DNATag)
    }

    /// The URL of the NDEF message, read as `nfctag read --json` reads it.
    func readURL(_ emulator: EmulatedReader) throws -> String {
        let read = try runTool(["read", "--json"], on: emulator)
        #expect(read.status == 0, "\(read.stderr)")
        let records = try #require(try jsonObject(read)["records"] as? [[String: Any]])
        return try #require(records.first?["uri"] as? String)
    }

    @Test(
        "read --json and scan --json name the chip ntag424dna (from its native GetVersion), a Type 4 tag of another maker type4"
    )
    func chipName() throws {
        let emulator = try startEmulator([NTAG424DNATag(uid: Self.uid)])
        defer { emulator.stop() }
        for verb in ["read", "scan"] {
            let run = try runTool([verb, "--json"], on: emulator)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try jsonObject(run)["chip"] as? String == "ntag424dna", "\(verb): \(run.stdout)")
        }
        let other = try startEmulator([try Type4Tag(uid: [0x02, 0x8F, 0x10, 0x22, 0x33, 0x44, 0x55])])
        defer { other.stop() }
        let read = try runTool(["read", "--json"], on: other)
        #expect(try jsonObject(read)["chip"] as? String == "type4", "\(read.stdout)")
    }

    @Test(
        "sun-setup (keys from the environment, MAC key diversified), then two reads: two different URLs; sun-verify accepts both with counters n and n+1 and rejects one altered character and a replay"
    )
    func sunSetupAndVerify() throws {
        let emulator = try startEmulator([NTAG424DNATag(uid: Self.uid)])
        defer { emulator.stop() }
        let environment = [
            "META_KEY": String(repeating: "42", count: 16), "MASTER_KEY": String(repeating: "5c", count: 16),
        ]
        let setup = try runTool(
            [
                "ntag424", "sun-setup", "--uri", "https://example.com/t?picc_data={picc}&cmac={cmac}",
                "--meta-key-env", "META_KEY", "--master-key-env", "MASTER_KEY", "--diversify", "--json",
            ],
            on: emulator, environment: environment)
        #expect(setup.status == 0, "\(setup.stderr)")
        #expect(try jsonObject(setup)["layout"] as? String == "encrypted")
        #expect(!setup.stdout.contains(environment["META_KEY"]!) && !setup.stderr.contains(environment["MASTER_KEY"]!))
        let first = try readURL(emulator)
        let second = try readURL(emulator)
        #expect(first != second)
        let verify = [
            "ntag424", "sun-verify", "--key", environment["META_KEY"]!, "--master-key", environment["MASTER_KEY"]!,
            "--diversify", "--json",
        ]
        let one = try ToolRunner.run(verify + [first])
        let two = try ToolRunner.run(verify + [second])
        #expect(one.status == 0 && two.status == 0, "\(one.stdout) \(two.stdout)")
        let n = try #require(try jsonObject(one)["counter"] as? Int)
        #expect(try jsonObject(two)["counter"] as? Int == n + 1)
        #expect(try jsonObject(one)["uid"] as? String == Self.uid.hexString())
        var altered = Array(second)
        let index = altered.index(altered.endIndex, offsetBy: -5)
        altered[index] = altered[index] == "0" ? "1" : "0"
        #expect(try ToolRunner.run(verify + [String(altered)]).status == 1)
        #expect(try ToolRunner.run(verify + [second, "--last-counter", String(n + 1)]).status == 1)
    }

    @Test("sun-setup, plain layout: the URL carries the UID and the counter in clear")
    func sunSetupPlain() throws {
        let emulator = try startEmulator([NTAG424DNATag(uid: Self.uid)])
        defer { emulator.stop() }
        let setup = try runTool(
            ["ntag424", "sun-setup", "--uri", "https://example.com/p?uid={uid}&ctr={counter}&cmac={cmac}"], on: emulator
        )
        #expect(setup.status == 0, "\(setup.stderr)")
        let url = try readURL(emulator)
        #expect(url.contains("uid=\(Self.uid.hexString(uppercase: true))&ctr=000001&cmac="), "\(url)")
        #expect(try ToolRunner.run(["ntag424", "sun-verify", url]).status == 0)
        let bad = try runTool(
            ["ntag424", "sun-setup", "--uri", "https://example.com/p?uid={uid}&cmac={cmac}"], on: emulator)
        #expect(bad.status == 2, "\(bad.stderr)")
    }

    @Test(
        "auth: exit 0 for the right key, 1 for a wrong one; change-key: key 3 with its old value, verified, then auth with it"
    )
    func authAndChangeKey() throws {
        let emulator = try startEmulator([NTAG424DNATag(uid: Self.uid)])
        defer { emulator.stop() }
        let zero = String(repeating: "00", count: 16)
        let three = String(repeating: "33", count: 16)
        #expect(try runTool(["ntag424", "auth", "--key-no", "0", "--key", zero], on: emulator).status == 0)
        let wrong = try runTool(["ntag424", "auth", "--key-no", "3", "--key", three], on: emulator)
        #expect(wrong.status == 1 && wrong.stderr.contains("refused"), "\(wrong.stderr)")
        let missingOld = try runTool(["ntag424", "change-key", "--key-no", "3", "--new-key", three], on: emulator)
        #expect(missingOld.status == 2)
        let change = try runTool(
            [
                "ntag424", "change-key", "--auth-key", zero, "--key-no", "3", "--old-key", zero,
                "--new-key", three, "--version", "5", "--json",
            ], on: emulator)
        #expect(change.status == 0, "\(change.stderr)")
        #expect(try jsonObject(change)["verified"] as? Bool == true)
        #expect(try model(emulator).keyVersions[3] == 5)
        #expect(try runTool(["ntag424", "auth", "--key-no", "3", "--key", three], on: emulator).status == 0)
    }

    @Test(
        "info: version, UID, the three files, key versions, and the signature — valid with the key `emulate --tag ntag424dna --print-signing-key` prints"
    )
    func info() throws {
        let printed = try ToolRunner.run(["emulate", "--tag", "ntag424dna", "--print-signing-key"])
        let key = printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.lowercased() == EmulatorSigningKey.ntag424PublicKey.hexString())
        let emulator = try startEmulator([NTAG424DNATag(uid: Self.uid)])
        defer { emulator.stop() }
        let result = try runTool(["ntag424", "info", "--public-key", key, "--json"], on: emulator)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try jsonObject(result)
        #expect(json["uid"] as? String == Self.uid.hexString())
        #expect((json["files"] as? [Any])?.count == 3)
        #expect((json["key_versions"] as? [Int]) == [0, 0, 0, 0, 0])
        #expect((json["signature"] as? [String: Any])?["valid"] as? Bool == true)
        let nxp = try jsonObject(try runTool(["ntag424", "info", "--json"], on: emulator))
        #expect((nxp["signature"] as? [String: Any])?["valid"] as? Bool == false)
    }
}

import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// `nfctag desfire` against the emulated PN532 with an emulated DESFire, through libnfc:
/// info, an AES application with an enciphered file and a value file, authentication
/// refusals, key changes and the guards of the irreversible verbs.
@Suite("nfctag desfire", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls)
struct DESFireCommandTests {
    static let uid: [UInt8] = [0x04, 0x22, 0x5F, 0x1E, 0xAC, 0xC0, 0x42]
    static let aesKey = "f0e1d2c3b4a5968778695a4b3c2d1e0f"
    static let zeroAES = String(repeating: "00", count: 16)

    func started(_ chip: Chip) throws -> EmulatedReader {
        try startEmulator([try DESFireTag(chip: chip, uid: Self.uid)])
    }

    @Test("info --json: generation, storage, free memory, applications, key settings, the signature on EV3")
    func info() throws {
        let emulator = try started(.desfireEV3)
        defer { emulator.stop() }
        let result = try runTool(["desfire", "info", "--json"], on: emulator)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try jsonObject(result)
        let version = try #require(json["version"] as? [String: Any])
        #expect(version["generation"] as? String == "ev3")
        #expect(version["storage_bytes"] as? Int == 8192)
        #expect(json["free_memory"] as? Int == 8192)
        #expect(json["applications"] as? [String] == [])
        #expect(json["uid"] as? String == Self.uid.hexString())
        #expect((json["signature"] as? [String: Any])?["signature"] as? String != nil)
    }

    @Test("an AES application: enciphered file written and read, value credited, a wrong key refused (exit 1)")
    func applicationRoundTrip() throws {
        let emulator = try started(.desfireEV2)
        defer { emulator.stop() }
        func tool(_ arguments: [String]) throws -> (Int32, String) {
            let result = try runTool(["desfire"] + arguments, on: emulator)
            return (result.status, result.stdout + result.stderr)
        }
        let steps: [[String]] = [
            ["create-app", "a1b2c3", "--keys", "2", "--crypto", "aes"],
            [
                "change-key", "--app", "a1b2c3", "--key-no", "1", "--old-key", Self.zeroAES, "--new-key", Self.aesKey,
                "--key-version", "7",
            ],
            [
                "create-file", "--app", "a1b2c3", "--file", "1", "--type", "std", "--size", "64", "--comm", "full",
                "--access", "1,1,1,0",
            ],
            [
                "create-file", "--app", "a1b2c3", "--file", "2", "--type", "value", "--upper", "500", "--value", "10",
                "--comm", "mac", "--access", "1,1,1,0",
            ],
            [
                "write", "--app", "a1b2c3", "--file", "1", "--hex", "48656c6c6f", "--auth-key-no", "1", "--auth-key",
                Self.aesKey,
            ],
        ]
        for step in steps {
            let (status, output) = try tool(step)
            #expect(status == 0, "\(step): \(output)")
        }
        let read = try runTool(
            [
                "desfire", "read", "--app", "a1b2c3", "--file", "1", "--length", "5", "--auth-key-no", "1",
                "--auth-key", Self.aesKey, "--json",
            ], on: emulator)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(try jsonObject(read)["data"] as? String == "48656c6c6f")
        let value = try runTool(
            [
                "desfire", "value", "--app", "a1b2c3", "--file", "2", "--credit", "15", "--auth-key-no", "1",
                "--auth-key", Self.aesKey, "--json",
            ], on: emulator)
        #expect(value.status == 0, "\(value.stderr)")
        #expect(try jsonObject(value)["value"] as? Int == 25)
        let refused = try runTool(
            ["desfire", "auth", "--app", "a1b2c3", "--key-no", "1", "--key", Self.zeroAES, "--crypto", "aes"],
            on: emulator)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("key 1 was refused"), "\(refused.stderr)")
        let accepted = try runTool(
            ["desfire", "auth", "--app", "a1b2c3", "--key-no", "1", "--key", Self.aesKey, "--crypto", "aes"],
            on: emulator)
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }

    @Test("format and a PICC master-key change need --yes; key-settings --set is a dry run without it")
    func guards() throws {
        let emulator = try started(.desfireEV1)
        defer { emulator.stop() }
        let format = try runTool(["desfire", "format"], on: emulator)
        #expect(format.status == 1 && format.stderr.contains("--yes"), "\(format.stderr)")
        let change = try runTool(
            ["desfire", "change-key", "--key-no", "0", "--new-key", "0011223344556677"], on: emulator)
        #expect(change.status == 1 && change.stderr.contains("--yes"), "\(change.stderr)")
        let dry = try runTool(["desfire", "key-settings", "--set", "09"], on: emulator)
        #expect(dry.status == 0 && dry.stdout.contains("Dry run"), "\(dry.stdout)")
        let unchanged = try runTool(["desfire", "key-settings", "--json"], on: emulator)
        #expect(try jsonObject(unchanged)["settings"] as? String == "0f")
        let created = try runTool(["desfire", "create-app", "010203", "--keys", "1", "--crypto", "des"], on: emulator)
        #expect(created.status == 0, "\(created.stderr)")
        // The new key's version defaults to one more than the current one, so that after a
        // cut GetKeyVersion tells old from new; the current version is refused.
        let changed = try runTool(
            ["desfire", "change-key", "--app", "010203", "--key-no", "0", "--new-key", "0011223344556677", "--json"],
            on: emulator)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(try jsonObject(changed)["version"] as? Int == 1)
        let same = try runTool(
            [
                "desfire", "change-key", "--app", "010203", "--auth-key", "0011223344556677", "--key-no", "0",
                "--new-key", "8899AABBCCDDEEFF", "--key-version", "1",
            ], on: emulator)
        #expect(same.status != 0 && same.stderr.contains("--key-version 1"), "\(same.stderr)")
        let wiped = try runTool(["desfire", "format", "--yes"], on: emulator)
        #expect(wiped.status == 0, "\(wiped.stderr)")
        let apps = try runTool(["desfire", "apps", "--json"], on: emulator)
        #expect(apps.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(apps.stdout)")
    }

    @Test(
        "key settings that freeze: the dry run says FOR GOOD, --yes alone is refused, --yes-irreversible changes and reads back"
    )
    func freezingKeySettings() throws {
        let emulator = try started(.desfireEV2)
        defer { emulator.stop() }
        let created = try runTool(["desfire", "create-app", "0a0b0c", "--keys", "1", "--crypto", "aes"], on: emulator)
        #expect(created.status == 0, "\(created.stderr)")
        let app = ["--app", "0a0b0c", "--auth-crypto", "aes"]
        let dry = try runTool(["desfire", "key-settings", "--set", "07", "--json"] + app, on: emulator)
        #expect(dry.status == 0, "\(dry.stderr)")
        let plan = try jsonObject(dry)["for_good"] as? [String]
        #expect(plan == ["application 0a0b0c: key settings 07 can never be changed again"], "\(dry.stdout)")
        let refused = try runTool(["desfire", "key-settings", "--set", "07", "--yes"] + app, on: emulator)
        #expect(refused.status != 0 && refused.stderr.contains("can never be changed again"), "\(refused.stderr)")
        let same = try runTool(["desfire", "key-settings", "--json"] + app, on: emulator)
        #expect(try jsonObject(same)["settings"] as? String == "0f")
        let frozen = try runTool(
            ["desfire", "key-settings", "--set", "07", "--yes", "--yes-irreversible", "--json"] + app, on: emulator)
        #expect(frozen.status == 0, "\(frozen.stderr)")
        #expect(try jsonObject(frozen)["changed_to"] as? String == "07")
        let now = try runTool(["desfire", "key-settings", "--json"] + app, on: emulator)
        #expect(try jsonObject(now)["settings"] as? String == "07")
    }

    @Test("set-config: a dry run changes nothing; with --yes the ATS and the random UID show at the next activation")
    func setConfiguration() throws {
        let emulator = try started(.desfireEV1)
        defer { emulator.stop() }
        let dry = try runTool(["desfire", "set-config", "--random-uid", "--json"], on: emulator)
        #expect(dry.status == 0, "\(dry.stderr)")
        let plan = try jsonObject(dry)
        #expect(plan["dry_run"] as? Bool == true, "\(dry.stdout)")
        let same = try runTool(["desfire", "info", "--json"], on: emulator)
        #expect(try jsonObject(same)["random_uid"] is NSNull)
        let done = try runTool(
            ["desfire", "set-config", "--random-uid", "--ats", "0675F7B10280", "--yes", "--json"], on: emulator)
        #expect(done.status == 0, "\(done.stderr)")
        let json = try jsonObject(done)
        #expect(json["uid"] as? String == Self.uid.hexString())
        let shown = try #require(json["uid_now_shown"] as? String)
        #expect(shown.count == 8 && shown.hasPrefix("08"), "\(shown)")
        #expect(json["ats_now"] as? String == "75f7b10280")
        // Still a DESFire to nfctag, told by its GetVersion.
        let info = try runTool(["desfire", "info", "--json"], on: emulator)
        #expect(info.status == 0, "\(info.stderr)")
        #expect(try jsonObject(info)["random_uid"] as? String != nil)
    }
}

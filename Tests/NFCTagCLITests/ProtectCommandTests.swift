import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// `nfctag protect` and `unprotect` against the emulated PN532, through libnfc.
@Suite("nfctag protect and unprotect", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls)
struct ProtectCommandTests {
    static let uid: [UInt8] = [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]
    static let spec = ChipTables.spec(for: .ntag215)
    static let memory = spec.memory!

    func hex(_ bytes: [UInt8]) -> String { bytes.hexString() }

    /// `raw` READ of the first user page.
    func readFirstUserPage(_ emulator: EmulatedReader, password: String? = nil) throws -> ToolRunner.Result {
        let read = try #require(Self.spec.command(.read)?.code)
        return try runTool(
            ["raw", hex([read, UInt8(Self.memory.firstUserPage)])] + (password.map { ["--password", $0] } ?? []),
            on: emulator)
    }

    func auth0(_ emulator: EmulatedReader) throws -> Int {
        let field = try #require(Self.memory.configuration?.field(.auth0))
        return Int(try #require(field.value(in: try type2Tag(emulator).page(field.page))))
    }

    @Test(
        "--dry-run prints the plan and writes nothing; protect --read-protect then reads fail without --password and work with it"
    )
    func protectThenRead() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { emulator.stop() }
        let before = try type2Tag(emulator).memory
        let dry = try runTool(
            ["protect", "--password", "12345678", "--pack", "abcd", "--read-protect", "--dry-run", "--json"],
            on: emulator)
        #expect(dry.status == 0, "\(dry.stderr)")
        let plan = try jsonObject(dry)
        #expect(plan["dry_run"] as? Bool == true)
        #expect((plan["steps"] as? [String])?.isEmpty == false)
        #expect(plan["requires_after"] as? String == "password 12345678")
        #expect(try type2Tag(emulator).memory == before, "the dry run wrote to the tag")

        let protect = try runTool(
            ["protect", "--password", "12345678", "--pack", "abcd", "--read-protect"], on: emulator)
        #expect(protect.status == 0, "\(protect.stderr)")
        #expect(try auth0(emulator) == Self.memory.firstUserPage)

        let refused = try readFirstUserPage(emulator)
        #expect(refused.status == 1)
        #expect(refused.stdout.hasPrefix("NAK"), "\(refused.stdout)")
        let opened = try readFirstUserPage(emulator, password: "12345678")
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout.count == 33)
        let fromEnvironment = try runTool(
            ["raw", "3004", "--password-env", "TAG_PWD"], on: emulator, environment: ["TAG_PWD": "12345678"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
    }

    @Test(
        "--password-derive-env: the tag's own PWD / PACK (derivation v1) protect and open it; the secret and the password are never printed"
    )
    func derivedPassword() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { emulator.stop() }
        let secret = ["STATION_SECRET": "Grüße, Station 7"]
        // HMAC-SHA256("Grüße, Station 7", "nfctagkit-pwd-v1" ‖ 04475ed29c3980), by Python's hmac.
        let (password, pack) = ("98733b60", "b03d")
        let protect = try runTool(
            ["protect", "--password-derive-env", "STATION_SECRET", "--read-protect", "--json"],
            on: emulator, environment: secret)
        #expect(protect.status == 0, "\(protect.stderr)")
        #expect(try jsonObject(protect)["pack"] as? String == "derived-v1")
        for text in [protect.stdout, protect.stderr] {
            #expect(!text.contains(password) && !text.contains("Grüße"), "\(text)")
        }
        #expect(try auth0(emulator) == Self.memory.firstUserPage)
        // The bytes are derivation v1's: the plain options open the tag with them, PACK checked.
        #expect(try readFirstUserPage(emulator).status == 1)
        #expect(try runTool(["raw", "3004", "--password", password, "--pack", pack], on: emulator).status == 0)
        #expect(
            try runTool(["raw", "3004", "--password-derive-env", "STATION_SECRET"], on: emulator, environment: secret)
                .status == 0)
        // Another secret derives another password: refused.
        #expect(
            try runTool(
                ["raw", "3004", "--password-derive-env", "STATION_SECRET"], on: emulator,
                environment: ["STATION_SECRET": "another"]
            ).status == 1)
        // Both password options, or a PACK beside the derivation, are usage errors; so is an unset variable.
        #expect(
            try runTool(
                ["raw", "3004", "--password", password, "--password-derive-env", "STATION_SECRET"],
                on: emulator, environment: secret
            ).status == 2)
        #expect(
            try runTool(
                ["raw", "3004", "--pack", pack, "--password-derive-env", "STATION_SECRET"],
                on: emulator, environment: secret
            ).status == 2)
        #expect(
            try runTool(["raw", "3004", "--password-derive-env", "NFCTAG_UNSET_VARIABLE"], on: emulator).status == 2)
        let unprotect = try runTool(
            ["unprotect", "--password-derive-env", "STATION_SECRET"], on: emulator, environment: secret)
        #expect(unprotect.status == 0, "\(unprotect.stderr)")
        #expect(!unprotect.stdout.contains(password), "\(unprotect.stdout)")
        #expect(try readFirstUserPage(emulator).status == 0)
    }

    @Test("unprotect with a wrong password fails (exit 1); with the right one AUTH0 is back and reads need nothing")
    func unprotect() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { emulator.stop() }
        let defaultAuth0 = try auth0(emulator)
        #expect(try runTool(["protect", "--password", "12345678", "--read-protect"], on: emulator).status == 0)
        let wrong = try runTool(["unprotect", "--password", "00000001"], on: emulator)
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("password was refused"), "\(wrong.stderr)")
        let right = try runTool(["unprotect", "--password", "12345678", "--json"], on: emulator)
        #expect(right.status == 0, "\(right.stderr)")
        #expect(try auth0(emulator) == defaultAuth0)
        #expect(try readFirstUserPage(emulator).status == 0)
    }

    @Test("--auth-limit needs --yes-irreversible (exit 2, nothing written); then wrong passwords lock the tag out")
    func authLimitLockOut() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { emulator.stop() }
        let before = try type2Tag(emulator).memory
        let refused = try runTool(["protect", "--password", "12345678", "--auth-limit", "2"], on: emulator)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--yes-irreversible"), "\(refused.stderr)")
        #expect(try type2Tag(emulator).memory == before)

        let protect = try runTool(
            ["protect", "--password", "12345678", "--auth-limit", "2", "--yes-irreversible"], on: emulator)
        #expect(protect.status == 0, "\(protect.stderr)")
        let first = try runTool(["raw", "3004", "--password", "99999999"], on: emulator)
        #expect(first.status == 1)
        #expect(first.stderr.contains("attempts left: at most 1"), "\(first.stderr)")
        _ = try runTool(["raw", "3004", "--password", "99999999"], on: emulator)
        let lockedOut = try runTool(["unprotect", "--password", "12345678"], on: emulator)
        #expect(lockedOut.status == 1)
        #expect(lockedOut.stderr.contains("authentication limit reached"), "\(lockedOut.stderr)")
    }

    @Test("the reader unplugged after AUTH0 is written: exit 1, and the message names the password the tag requires")
    func unplugMidProtect() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { emulator.stop() }
        let field = try #require(Self.memory.configuration?.field(.auth0))
        let lastPage = Self.memory.lastPage
        emulator.observeTagChanges { tags in
            guard let tag = tags.first as? Type2Tag, let value = field.value(in: tag.page(field.page)),
                Int(value) <= lastPage
            else { return }
            Thread.detachNewThread { emulator.unplug() }
            // Hold the emulator's thread until the unplug has woken it, so the next frame is never answered.
            Thread.sleep(forTimeInterval: 0.3)
        }
        let result = try runTool(["protect", "--password", "12345678"], on: emulator)
        #expect(result.status == 1, "\(result.stdout)")
        let first = try #require(result.stderr.split(separator: "\n").first)
        #expect(first.hasPrefix("nfctag: protect interrupted"), "\(result.stderr)")
        #expect(first.contains("requires password 12345678"), "\(result.stderr)")
        #expect(result.stderr.contains("nfctag unprotect --password 12345678"), "\(result.stderr)")
        #expect(try auth0(emulator) <= lastPage)
    }
}

/// `protect` / `unprotect` / `read` / `write` with `--ultralight-c-key` on an emulated Ultralight C.
@Suite("nfctag and the Ultralight C key", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls)
struct UltralightCCommandTests {
    static let uid: [UInt8] = [0x04, 0x5C, 0x11, 0x22, 0x33, 0x44, 0x55]
    static let spec = ChipTables.spec(for: .ultralightC)
    static let factoryKey = spec.ultralightCAuthentication!.defaultKey.hexString()
    static let newKey = "00112233445566778899aabbccddeeff"

    func auth0(_ emulator: EmulatedReader) throws -> Int {
        let field = try #require(Self.spec.memory?.configuration?.field(.auth0))
        return Int(try #require(field.value(in: try type2Tag(emulator).page(field.page))))
    }

    @Test(
        "protect sets AUTH0 with the key proven; write and read need the key; a key change; unprotect with the new key")
    func protectChangeUnprotect() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ultralightC, uid: Self.uid)])
        defer { emulator.stop() }
        let memory = try #require(Self.spec.memory)
        #expect(try runTool(["format"], on: emulator).status == 0, "a blank Ultralight C gets its NDEF structure first")
        let dry = try runTool(["protect", "--ultralight-c-key", Self.factoryKey, "--dry-run"], on: emulator)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try auth0(emulator) > memory.lastPage, "the dry run wrote")
        let protect = try runTool(["protect", "--ultralight-c-key", Self.factoryKey, "--json"], on: emulator)
        #expect(protect.status == 0, "\(protect.stderr)")
        #expect(try jsonObject(protect)["protected_from"] as? Int == memory.firstUserPage)
        #expect(try auth0(emulator) == memory.firstUserPage)
        // Writes need the key now (AUTH1: writes only); with it, an NDEF write and read work.
        let refused = try runTool(["write", "--text", "ulc"], on: emulator)
        #expect(refused.status == 1 && !refused.stderr.contains("not NDEF-formatted"), "\(refused.stderr)")
        // An Ultralight C opens with its key, not a password: the advice names the key option.
        #expect(
            refused.stderr.contains("--ultralight-c-key") && !refused.stderr.contains("--password"), "\(refused.stderr)"
        )
        let write = try runTool(["write", "--text", "ulc", "--ultralight-c-key", Self.factoryKey], on: emulator)
        #expect(write.status == 0, "\(write.stderr)")
        let read = try runTool(["read", "--ultralight-c-key", Self.factoryKey, "--json"], on: emulator)
        #expect(read.status == 0 && read.stdout.contains("ulc"), "\(read.stdout) \(read.stderr)")
        // Key change: the old key is refused afterwards, the new one opens the tag.
        let change = try runTool(
            ["protect", "--ultralight-c-key", Self.factoryKey, "--new-ultralight-c-key", Self.newKey], on: emulator)
        #expect(change.status == 0, "\(change.stderr)")
        #expect(change.stdout.contains("key changed"), "\(change.stdout)")
        #expect(
            try runTool(["write", "--text", "old", "--ultralight-c-key", Self.factoryKey], on: emulator).status == 1)
        #expect(try runTool(["write", "--text", "new", "--ultralight-c-key", Self.newKey], on: emulator).status == 0)
        let unprotect = try runTool(["unprotect", "--ultralight-c-key", Self.newKey], on: emulator)
        #expect(unprotect.status == 0, "\(unprotect.stderr)")
        #expect(try auth0(emulator) > memory.lastPage)
        #expect(try runTool(["write", "--text", "open"], on: emulator).status == 0)
    }

    @Test(
        "a key change cut between two key pages: the tag is tried with each possible key and the error names the one that opens it"
    )
    func keyChangeCut() throws {
        // The second key page refuses its WRITE: pages 1 (new) and 2–4 (old) make a mixed key.
        let secondKeyPage = try #require(Self.spec.ultralightCAuthentication).firstKeyPage + 1
        let emulator = try EmulatedReader(
            tags: [try Type2Tag(chip: .ultralightC, uid: Self.uid)],
            faults: try FaultPlan(parsing: ["nak-page=\(secondKeyPage)"]))
        defer { emulator.stop() }
        let change = try runTool(
            ["protect", "--ultralight-c-key", Self.factoryKey, "--new-ultralight-c-key", Self.newKey], on: emulator)
        #expect(change.status == 1)
        #expect(change.stderr.contains("The tag opens with a mix of both keys' pages"), "\(change.stderr)")
        // The key it names opens the tag.
        let mixed = try #require(change.stderr.components(separatedBy: "pages: ").last?.prefix(32)).description
        #expect(try runTool(["unprotect", "--ultralight-c-key", mixed], on: emulator).status == 0)
    }

    @Test(
        "a wrong key is refused (exit 1) and nothing changes; a malformed key is a usage error; --new-… needs the current key"
    )
    func refusals() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ultralightC, uid: Self.uid)])
        defer { emulator.stop() }
        let before = try type2Tag(emulator).memory
        let wrong = try runTool(["protect", "--ultralight-c-key", Self.newKey], on: emulator)
        #expect(wrong.status == 1)
        #expect(try type2Tag(emulator).memory == before)
        // Said as what it is — the tag's key is another one, nothing was written, not an
        // interrupted protection — with the way to set a new key.
        #expect(wrong.stderr.contains("refused the key given with --ultralight-c-key"), "\(wrong.stderr)")
        #expect(
            wrong.stderr.contains("Nothing was written") && !wrong.stderr.contains("interrupted"), "\(wrong.stderr)")
        #expect(wrong.stderr.contains("--new-ultralight-c-key NEW"), "\(wrong.stderr)")
        #expect(try runTool(["protect", "--ultralight-c-key", "0011"], on: emulator).status == 2)
        #expect(try runTool(["protect", "--new-ultralight-c-key", Self.newKey], on: emulator).status == 2)
        // A PWD / PACK password on an Ultralight C: a usage error that names the key option.
        for command in [["protect", "--password", "12345678"], ["unprotect", "--password", "12345678"]] {
            let password = try runTool(command, on: emulator)
            #expect(password.status == 2, "\(command): \(password.stderr)")
            #expect(password.stderr.contains("--ultralight-c-key HEX32 instead of --password"), "\(password.stderr)")
        }
        #expect(try type2Tag(emulator).memory == before)
    }
}

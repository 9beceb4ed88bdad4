import Foundation
import NFCChips
import NFCEmulator
import Testing

/// `nfctag protect` and `unprotect` against the emulated PN532, through libnfc.
@Suite("nfctag protect and unprotect", .serialized, .timeLimit(.minutes(2)))
struct ProtectCommandTests {
    static let uid: [UInt8] = [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]
    static let spec = ChipTables.spec(for: .ntag215)
    static let memory = spec.memory!

    func hex(_ bytes: [UInt8]) -> String { bytes.hexString() }

    /// `raw` READ of the first user page.
    func readFirstUserPage(_ emulator: PN532Emulator, password: String? = nil) throws -> ToolRunner.Result {
        let read = try #require(Self.spec.command(.read)?.code)
        return try runTool(["raw", hex([read, UInt8(Self.memory.firstUserPage)])] + (password.map { ["--password", $0] } ?? []),
                           on: emulator)
    }

    func auth0(_ emulator: PN532Emulator) throws -> Int {
        let field = try #require(Self.memory.configuration?.field(.auth0))
        return Int(try #require(field.value(in: try type2Tag(emulator).page(field.page))))
    }

    @Test("--dry-run prints the plan and writes nothing; protect --read-protect then reads fail without --password and work with it")
    func protectThenRead() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { emulator.stop() }
        let before = try type2Tag(emulator).memory
        let dry = try runTool(["protect", "--password", "12345678", "--pack", "abcd", "--read-protect", "--dry-run", "--json"], on: emulator)
        #expect(dry.status == 0, "\(dry.stderr)")
        let plan = try jsonObject(dry)
        #expect(plan["dry_run"] as? Bool == true)
        #expect((plan["steps"] as? [String])?.isEmpty == false)
        #expect(plan["requires_after"] as? String == "password 12345678")
        #expect(try type2Tag(emulator).memory == before, "the dry run wrote to the tag")

        let protect = try runTool(["protect", "--password", "12345678", "--pack", "abcd", "--read-protect"], on: emulator)
        #expect(protect.status == 0, "\(protect.stderr)")
        #expect(try auth0(emulator) == Self.memory.firstUserPage)

        let refused = try readFirstUserPage(emulator)
        #expect(refused.status == 1)
        #expect(refused.stdout.hasPrefix("NAK"), "\(refused.stdout)")
        let opened = try readFirstUserPage(emulator, password: "12345678")
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout.count == 33)
        let fromEnvironment = try runTool(["raw", "3004", "--password-env", "TAG_PWD"], on: emulator, environment: ["TAG_PWD": "12345678"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
    }

    @Test("--password-derive-env: the tag's own PWD / PACK (derivation v1) protect and open it; the secret and the password are never printed")
    func derivedPassword() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { emulator.stop() }
        let secret = ["STATION_SECRET": "Grüße, Station 7"]
        // HMAC-SHA256("Grüße, Station 7", "nfctagkit-pwd-v1" ‖ 04475ed29c3980), by Python's hmac.
        let (password, pack) = ("98733b60", "b03d")
        let protect = try runTool(["protect", "--password-derive-env", "STATION_SECRET", "--read-protect", "--json"],
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
        #expect(try runTool(["raw", "3004", "--password-derive-env", "STATION_SECRET"], on: emulator, environment: secret).status == 0)
        // Another secret derives another password: refused.
        #expect(try runTool(["raw", "3004", "--password-derive-env", "STATION_SECRET"], on: emulator,
                            environment: ["STATION_SECRET": "another"]).status == 1)
        // Both password options, or a PACK beside the derivation, are usage errors; so is an unset variable.
        #expect(try runTool(["raw", "3004", "--password", password, "--password-derive-env", "STATION_SECRET"],
                            on: emulator, environment: secret).status == 2)
        #expect(try runTool(["raw", "3004", "--pack", pack, "--password-derive-env", "STATION_SECRET"],
                            on: emulator, environment: secret).status == 2)
        #expect(try runTool(["raw", "3004", "--password-derive-env", "NFCTAG_UNSET_VARIABLE"], on: emulator).status == 2)
        let unprotect = try runTool(["unprotect", "--password-derive-env", "STATION_SECRET"], on: emulator, environment: secret)
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

        let protect = try runTool(["protect", "--password", "12345678", "--auth-limit", "2", "--yes-irreversible"], on: emulator)
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
            guard let tag = tags.first as? Type2Tag, let value = field.value(in: tag.page(field.page)), Int(value) <= lastPage else { return }
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

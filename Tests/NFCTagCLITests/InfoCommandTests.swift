import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

@Suite("nfctag info", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls)
struct InfoCommandTests {
    @Test(
        "info --json adds memory, config, locks and signature to the scan fields",
        arguments: [Chip.ntag215, .ultralightEV1MF0UL11])
    func infoJSON(chip: Chip) throws {
        let fixture = try CLITagFixture(chip: chip)
        defer { fixture.stop() }
        let result = try fixture.run(["info", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try CLITagFixture.object(result)
        let spec = ChipTables.spec(for: chip)
        #expect(object["uid"] as? String == "04a1b2c3d4e5f6")
        #expect(object["chip"] as? String == chip.rawValue)
        // NTAG21x leave the factory NDEF-formatted, Ultralight EV1 blank.
        let expected = chip == .ntag215 ? "read-write" : "not-supported"
        #expect((object["ndef"] as? [String: Any])?["status"] as? String == expected)
        let memory = try #require(object["memory"] as? [String: Any])
        #expect(memory["pages"] as? Int == spec.memory?.pageCount)
        #expect(memory["user_bytes"] as? Int == spec.memory?.userBytes)
        let config = try #require(object["config"] as? [String: Any])
        #expect(config["auth0"] as? Int == spec.memory?.configuration?.field(.auth0).map { Int($0.defaultValue) })
        #expect(config["prot"] as? Bool == false)
        #expect(config["cfglck"] as? Bool == false)
        #expect(config["authlim"] as? Int == 0)
        let locks = try #require(object["locks"] as? [String: Any])
        #expect(locks["static"] as? String == "0000")
        #expect((locks["locked_pages"] as? [Any])?.isEmpty == true)
        let signature = try #require(object["signature"] as? [String: Any])
        #expect((signature["signature"] as? String)?.count == 64)
        // The emulator's factory signature is zeros: not a genuine NXP signature.
        #expect(signature["valid"] as? Bool == false)
        // The reader, at the speed the connection switched the PN532 to.
        let reader = try #require(object["reader"] as? [String: Any])
        #expect(reader["serial_speed"] as? Int == (ReaderUnderTest.current.isUSB ? nil : 460_800), "\(reader)")
    }

    @Test("info in text shows memory, locks, configuration and signature")
    func infoText() throws {
        let fixture = try CLITagFixture(chip: .ntag216)
        defer { fixture.stop() }
        let result = try fixture.run(["info"])
        #expect(result.status == 0, "\(result.stderr)")
        for word in ["ntag216", "memory:", "locks:", "config: AUTH0", "signature:", "reader:"]
            + (ReaderUnderTest.current.isUSB ? [] : ["460800 baud"])
        {
            #expect(result.stdout.contains(word), "\(word) missing in \(result.stdout)")
        }
    }

    @Test("info with no tag exits 4, with two tags 5")
    func infoExitCodes() throws {
        let empty = try CLITagFixture([])
        defer { empty.stop() }
        #expect(try empty.run(["info"], timeout: "1").status == 4)
        let two = try CLITagFixture([
            try Type2Tag(chip: .ntag215, uid: CLITagFixture.uid),
            try Type2Tag(chip: .ntag213, uid: CLITagFixture.secondUID),
        ])
        defer { two.stop() }
        #expect(try two.run(["info"]).status == 5)
    }
}

import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// `nfctag signature` against the emulated PN532, through libnfc.
@Suite("nfctag signature", .tags(.reader), .serialized, .timeLimit(.minutes(1)), .blockingCalls)
struct SignatureCommandTests {
    static let uid: [UInt8] = [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]

    func hex(_ bytes: [UInt8]) -> String { bytes.hexString() }

    @Test("valid with the emulator's own key (given as --public-key), not valid with NXP's")
    func emulatorKey() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { emulator.stop() }
        let own = try runTool(["signature", "--public-key", hex(EmulatorSigningKey.publicKey), "--json"], on: emulator)
        #expect(own.status == 0, "\(own.stderr)")
        let ownJSON = try jsonObject(own)
        #expect(ownJSON["valid"] as? Bool == true)
        #expect(ownJSON["key"] as? String == hex(EmulatorSigningKey.publicKey))
        #expect(ownJSON["signature"] as? String == hex(try type2Tag(emulator).signature))

        let nxp = try jsonObject(try runTool(["signature", "--json"], on: emulator))
        #expect(nxp["valid"] as? Bool == false)
        #expect(nxp["key"] as? String == ChipTables.originalitySignatureKey(for: .ntag215)?.name.rawValue)
    }

    @Test("the key `nfctag emulate --print-signing-key` prints verifies the emulated tag's signature")
    func printedSigningKey() throws {
        let printed = try ToolRunner.run(["emulate", "--print-signing-key"])
        #expect(printed.status == 0, "\(printed.stderr)")
        let key = printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.lowercased() == hex(EmulatorSigningKey.publicKey))
        let emulator = try startEmulator([try Type2Tag(chip: .ntag213, uid: Self.uid)])
        defer { emulator.stop() }
        let result = try runTool(["signature", "--public-key", key], on: emulator)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Valid: yes"), "\(result.stdout)")
    }

    @Test("a replayed genuine NTAG signature (the table's test vector) is valid with NXP's key")
    func replayedGenuine() throws {
        let key = try #require(ChipTables.originalitySignatureKey(for: .ntag215))
        let vector = try #require(key.testVectors.first)
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: vector.uid, signature: vector.signature)])
        defer { emulator.stop() }
        let result = try runTool(["signature"], on: emulator)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Valid: yes (key \(key.name))"), "\(result.stdout)")
    }

    @Test("a chip without READ_SIG fails with exit 1 and says so; a key that is no point exits 2")
    func refusals() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ultralight, uid: Self.uid)])
        defer { emulator.stop() }
        let result = try runTool(["signature"], on: emulator)
        #expect(result.status == 1)
        #expect(result.stderr.contains("ultralight"), "\(result.stderr)")

        let ntag = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { ntag.stop() }
        #expect(try runTool(["signature", "--public-key", "0401020304"], on: ntag).status == 2)
    }
}

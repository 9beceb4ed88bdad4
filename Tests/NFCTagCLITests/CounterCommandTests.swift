import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// `nfctag counter` against the emulated PN532, through libnfc.
@Suite("nfctag counter", .tags(.reader), .serialized, .timeLimit(.minutes(1)), .blockingCalls)
struct CounterCommandTests {
    static let uid: [UInt8] = [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]

    @Test("NTAG: a disabled counter exits 1 with the hint; --enable turns it on and reads it as nfc_counter")
    func nfcCounter() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { emulator.stop() }
        let disabled = try runTool(["counter"], on: emulator)
        #expect(disabled.status == 1)
        #expect(disabled.stderr.contains("--enable"), "\(disabled.stderr)")

        let enabled = try runTool(["counter", "--enable", "--json"], on: emulator)
        #expect(enabled.status == 0, "\(enabled.stderr)")
        #expect(try jsonObject(enabled)["nfc_counter"] as? Int == (try type2Tag(emulator).nfcCounter))
        let again = try jsonObject(try runTool(["counter", "--json"], on: emulator))
        #expect(again["nfc_counter"] as? Int == (try type2Tag(emulator).nfcCounter))
    }

    @Test("Ultralight EV1: the three counters after INCR_CNT, as counters; --enable is a usage error")
    func ev1Counters() throws {
        let spec = ChipTables.spec(for: .ultralightEV1MF0UL21)
        let increment = try #require(spec.command(.incrementCounter)?.code)
        let emulator = try startEmulator([try Type2Tag(chip: .ultralightEV1MF0UL21, uid: Self.uid)])
        defer { emulator.stop() }
        let hex = String(format: "%02x01%02x000000", increment, 9)  // counter 1 += 9
        #expect(try runTool(["raw", hex], on: emulator).status == 0)
        let result = try runTool(["counter", "--json"], on: emulator)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try jsonObject(result)
        #expect(json["counters"] as? [Int] == [0, 9, 0])
        #expect(json["tearing_valid"] as? [Bool] == [true, true, true])
        #expect(try runTool(["counter", "--enable"], on: emulator).status == 2)
    }
}

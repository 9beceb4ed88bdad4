import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// `nfctag apdu` against the emulated PN532 and Type 4 tag, through libnfc.
@Suite("nfctag apdu", .tags(.reader), .serialized, .timeLimit(.minutes(1)), .blockingCalls)
struct APDUCommandTests {
    static let uid: [UInt8] = [0x04, 0x62, 0x19, 0xA3, 0x5B, 0x70, 0x82]
    static let selectApplication = "00A4040007D276000085010100"
    static let selectCC = "00A4000C02E103"
    static let readCC = "00B000000F"

    @Test("several APDUs in order, one line each: data, SW1SW2 and its meaning; exit 0")
    func text() throws {
        let emulator = try startEmulator([try Type4Tag(uid: Self.uid)])
        defer { emulator.stop() }
        let cc = try #require(ChipTables.spec(for: .type4).type4Files?.capabilityContainer)
        let result = try runTool(["apdu", Self.selectApplication, Self.selectCC, Self.readCC], on: emulator)
        #expect(result.status == 0, "\(result.stderr)")
        let meaning = ChipTables.iso7816.statusWords[.normalProcessing].meaning
        #expect(result.stdout == "9000 (\(meaning))\n9000 (\(meaning))\n\(cc.hexString()) 9000 (\(meaning))\n")
    }

    @Test("--json: one object per line and APDU; a 6A82 answer exits 1 after every APDU was sent")
    func json() throws {
        let emulator = try startEmulator([try Type4Tag(uid: Self.uid)])
        defer { emulator.stop() }
        let result = try runTool(
            ["apdu", Self.selectApplication, "00A4000C02E105", Self.selectCC, "--json"], on: emulator)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let objects = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        }
        #expect(
            objects[0] == [
                "apdu": Self.selectApplication.lowercased(), "data": "", "sw": "9000",
                "meaning": ChipTables.iso7816.statusWords[.normalProcessing].meaning,
            ])
        #expect(
            objects[1]["sw"] == "6A82" && objects[1]["meaning"] == ChipTables.iso7816.statusWords[.fileNotFound].meaning
        )
        #expect(objects[2]["sw"] == "9000")
        #expect(result.stderr.contains("1 of 3 APDUs"), "\(result.stderr)")
    }

    @Test("GET RESPONSE is followed: Le 00 on the NDEF file gives 256 bytes and 9000")
    func getResponse() throws {
        let emulator = try startEmulator([try Type4Tag(uid: Self.uid)])
        defer { emulator.stop() }
        let result = try runTool(
            ["apdu", Self.selectApplication, "00A4000C02E104", "00B0000000", "--json"], on: emulator)
        let limit = ReaderUnderTest.current.model.maximumTagAnswer
        guard limit >= 258 else {
            // An ACR122U brings back 250 bytes: the 257-byte answer is lost, and the error says what to ask instead.
            #expect(result.status != 0 && result.stderr.contains("ask for at most \(limit - 2)"), "\(result.stderr)")
            return
        }
        #expect(result.status == 0, "\(result.stderr)")
        let last = try #require(result.stdout.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: String])
        #expect(object["data"]?.count == 512 && object["sw"] == "9000")
    }

    @Test("an NTAG has no ISO-DEP: exit 1 with a clear error; a malformed APDU exits 2")
    func refusals() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { emulator.stop() }
        let ntag = try runTool(["apdu", Self.selectApplication], on: emulator)
        #expect(ntag.status == 1)
        #expect(ntag.stderr.contains("does not speak ISO-DEP"), "\(ntag.stderr)")
        let malformed = try runTool(["apdu", "00A4040007D2"], on: emulator)
        #expect(malformed.status == 2, "\(malformed.stderr)")
        #expect(try runTool(["apdu", "--help"], on: emulator).stdout.contains("nfctag apdu HEX"))
    }
}

import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// Runs the built `nfctag` with `arguments` against `emulator` (libnfc auto-scan off).
func runTool(_ arguments: [String], on emulator: EmulatedReader, environment: [String: String] = [:]) throws
    -> ToolRunner.Result
{
    try ToolRunner.run(
        arguments + ["--device", emulator.connectionString, "--timeout", "3"],
        environment: ["LIBNFC_AUTO_SCAN": "false"].merging(environment) { $1 })
}

/// Starts an emulated PN532 with `tags` in the field.
func startEmulator(_ tags: [any EmulatedTag]) throws -> EmulatedReader {
    let emulator = try EmulatedReader(tags: tags)
    return emulator
}

/// The stdout of a `--json` run as an object.
func jsonObject(_ result: ToolRunner.Result) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
}

/// The one emulated Type 2 tag in the field.
func type2Tag(_ emulator: EmulatedReader) throws -> Type2Tag {
    try #require(emulator.tags.first as? Type2Tag)
}

/// `nfctag raw` against the emulated PN532, through libnfc.
@Suite("nfctag raw", .tags(.reader), .serialized, .timeLimit(.minutes(1)), .blockingCalls)
struct RawCommandTests {
    static let uid: [UInt8] = [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]
    static let ntag215 = ChipTables.spec(for: .ntag215)

    func hex(_ bytes: [UInt8]) -> String { bytes.hexString() }

    @Test("GET_VERSION answers the table's version bytes; --json carries them too")
    func getVersion() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { emulator.stop() }
        let code = try #require(Self.ntag215.command(.getVersion)?.code)
        let version = try #require(Self.ntag215.getVersion?.response)
        let result = try runTool(["raw", hex([code])], on: emulator)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == hex(version) + "\n")
        let json = try jsonObject(try runTool(["raw", hex([code]), "--json"], on: emulator))
        #expect(json["answer"] as? String == hex(version))
    }

    @Test("a WRITE is ACKed; a READ past the end shows the NAK with its code and exits 1")
    func ackAndNak() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { emulator.stop() }
        let write = try #require(Self.ntag215.command(.write)?.code)
        let read = try #require(Self.ntag215.command(.read)?.code)
        let ack = try runTool(["raw", hex([write, 0x04, 0xDE, 0xAD, 0xBE, 0xEF])], on: emulator)
        #expect(ack.status == 0, "\(ack.stderr)")
        #expect(ack.stdout == "ACK\n")
        #expect(try type2Tag(emulator).page(4) == [0xDE, 0xAD, 0xBE, 0xEF])

        let nak = try runTool(["raw", hex([read, 0xFF]), "--json"], on: emulator)
        #expect(nak.status == 1)
        let json = try jsonObject(nak)
        let code = try #require(json["nak"] as? Int)
        #expect(NAKCode(rawValue: UInt8(code)) != nil)
        #expect(nak.stderr.hasPrefix("nfctag raw: the tag answered NAK \(code)"), "\(nak.stderr)")
    }

    @Test("malformed hex exits 2; no tag exits 4; two tags exit 5 and nothing is sent")
    func exitCodes() throws {
        let empty = try startEmulator([])
        defer { empty.stop() }
        #expect(try runTool(["raw", "30zz"], on: empty).status == 2)
        let none = try ToolRunner.run(
            ["raw", "3004", "--device", empty.connectionString, "--timeout", "1"],
            environment: ["LIBNFC_AUTO_SCAN": "false"])
        #expect(none.status == 4, "\(none.stderr)")

        let two = try startEmulator([
            try Type2Tag(chip: .ntag215, uid: Self.uid),
            try Type2Tag(chip: .ntag213, uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]),
        ])
        defer { two.stop() }
        let write = try #require(Self.ntag215.command(.write)?.code)
        let result = try runTool(["raw", hex([write, 0x04, 1, 2, 3, 4])], on: two)
        #expect(result.status == 5, "\(result.stderr)")
        #expect(result.stderr.contains("04475ed29c3980"), "\(result.stderr)")
        #expect(try type2Tag(two).page(4) != [1, 2, 3, 4])
    }
}

import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// An emulated PN532 with tags for the tag-command tests; runs `nfctag` against it.
struct CLITagFixture {
    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    static let secondUID: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
    let emulator: EmulatedReader

    init(_ tags: [any EmulatedTag]) throws {
        emulator = try EmulatedReader(tags: tags)
    }

    init(chip: Chip) throws {
        try self.init([try Type2Tag(chip: chip, uid: Self.uid)])
    }

    /// Runs `nfctag ARGS --device <emulator>` with a short timeout.
    func run(_ arguments: [String], timeout: String = "3") throws -> ToolRunner.Result {
        try ToolRunner.run(
            arguments + ["--device", emulator.connectionString, "--timeout", timeout],
            environment: ["LIBNFC_AUTO_SCAN": "false"])
    }

    /// The memory of the first emulated Type 2 tag.
    var memory: [UInt8]? {
        emulator.withField { field in field.handles.first.flatMap { field.tag($0) as? Type2Tag }?.memory }
    }

    func stop() { emulator.stop() }

    /// Ultralight EV1 leaves the factory without a capability container: format it first.
    func formatIfBlank(_ chip: Chip) throws {
        guard chip == .ultralightEV1MF0UL11 || chip == .ultralightEV1MF0UL21 else { return }
        let result = try run(["format"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The one JSON object on stdout.
    static func object(_ result: ToolRunner.Result) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
    }

    /// One JSON object per stdout line.
    static func objects(_ result: ToolRunner.Result) throws -> [[String: Any]] {
        try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }
}

@Suite("nfctag scan", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls)
struct ScanCommandTests {
    @Test(
        "scan --json prints uid, chip, atqa, sak and the NDEF status of the tag",
        arguments: [Chip.ntag213, .ntag215, .ntag216])
    func scanOneTag(chip: Chip) throws {
        let fixture = try CLITagFixture(chip: chip)
        defer { fixture.stop() }
        let result = try fixture.run(["scan", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try CLITagFixture.object(result)
        let spec = ChipTables.spec(for: chip)
        #expect(object["uid"] as? String == "04a1b2c3d4e5f6")
        #expect(object["chip"] as? String == chip.rawValue)
        #expect(object["atqa"] as? String == String(format: "%04x", spec.activation.atqa))
        #expect(object["sak"] as? String == String(format: "%02x", spec.activation.sak))
        let ndef = try #require(object["ndef"] as? [String: Any])
        #expect(ndef["status"] as? String == "read-write")
        #expect(ndef["length"] as? Int == 0)
        let capacity = try #require(ndef["capacity"] as? Int)
        #expect(capacity > 0 && capacity < (spec.memory?.userBytes ?? 0))
    }

    @Test("scan in text names the chip and the NDEF status")
    func scanText() throws {
        let fixture = try CLITagFixture(chip: .ntag215)
        defer { fixture.stop() }
        let result = try fixture.run(["scan"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("04a1b2c3d4e5f6  ntag215"), "\(result.stdout)")
        #expect(result.stdout.contains("NDEF read-write, 0/"), "\(result.stdout)")
    }

    @Test("scan with two tags lists both (no NDEF query) and exits 0")
    func scanTwoTags() throws {
        let fixture = try CLITagFixture([
            try Type2Tag(chip: .ntag215, uid: CLITagFixture.uid),
            try Type2Tag(chip: .ntag213, uid: CLITagFixture.secondUID),
        ])
        defer { fixture.stop() }
        let result = try fixture.run(["scan", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try CLITagFixture.objects(result)
        #expect(Set(objects.compactMap { $0["uid"] as? String }) == ["04a1b2c3d4e5f6", "04112233445566"])
        #expect(Set(objects.compactMap { $0["chip"] as? String }) == ["ntag215", "ntag213"])
        #expect(objects.allSatisfy { $0["ndef"] is NSNull })
    }

    @Test("scan with no tag exits 4 after --timeout")
    func scanNoTag() throws {
        let fixture = try CLITagFixture([])
        defer { fixture.stop() }
        let result = try fixture.run(["scan"], timeout: "1")
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("nfctag: no tag within 1 s"), "\(result.stderr)")
    }

    @Test("scan without a reader exits 3")
    func scanNoReader() throws {
        let result = try ToolRunner.run(
            ["scan", "--device", "pn532_uart:/nonexistent/tty", "--timeout", "1"],
            environment: ["LIBNFC_AUTO_SCAN": "false"])
        #expect(result.status == 3, "\(result.stderr)")
    }

    @Test("scan --watch streams tagDetected and tagRemoved as tags come and go, until Ctrl-C")
    func scanWatch() async throws {
        let emulator = try EmulatedReader(tags: [])
        defer { emulator.stop() }
        let scan = try RunningTool(["scan", "--watch", "--json", "--device", emulator.connectionString])
        try await Task.sleep(for: .milliseconds(300))
        let handle = emulator.insert(try Type2Tag(chip: .ntag216, uid: CLITagFixture.uid))
        let detected = await scan.waitForLine { $0.contains("tagDetected") }
        #expect(detected?.contains(#""chip":"ntag216""#) == true, "\(scan.output) \(scan.standardError)")
        #expect(detected?.contains(#""status":"read-write""#) == true, "\(scan.output)")
        emulator.remove(handle)
        #expect(
            await scan.waitForLine { $0.contains("tagRemoved") }?.contains("04a1b2c3d4e5f6") == true, "\(scan.output)")
        #expect(await scan.interrupt() == 130, "\(scan.standardError)")
        #expect(scan.output.filter { $0.contains("tagDetected") }.count == 1, "\(scan.output)")
    }
}

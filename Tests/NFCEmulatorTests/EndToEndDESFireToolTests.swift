import Foundation
import NFCChips
import Testing
import TestSupport

@testable import NFCEmulator

/// libfreefare 0.4.0's unmodified DESFire tools against the emulated PN532 with an emulated
/// DESFire in its field: the card model is checked by what others wrote. Each tool
/// authenticates with the zero DES key the legacy way (0x0A) and speaks ISO-wrapped native
/// commands; `-y` skips their prompts. Each test skips, saying so, only when the tools are
/// not installed (`scripts/setup` installs libfreefare-bin).
@Suite("libfreefare's DESFire tools drive the emulated card", .serialized, .blockingCalls)
struct EndToEndDESFireToolTests {
    static func installed(_ tools: String...) -> Bool { tools.allSatisfy(LibNFCTool.isInstalled) }

    static let missing = "libfreefare-bin is not installed (scripts/setup installs it)"

    func started(_ tag: String) throws -> PN532Emulator {
        let emulator = try PN532Emulator(tagNames: [tag])
        try emulator.start()
        return emulator
    }

    func run(_ tool: String, _ arguments: [String] = [], _ emulator: PN532Emulator) throws -> LibNFCTool.Result {
        try LibNFCTool.run(tool, arguments, device: emulator.connectionString, timeout: 60)
    }

    func card(_ emulator: PN532Emulator) throws -> DESFireTag {
        try #require(emulator.tags.first as? DESFireTag)
    }

    @Test(
        "mifare-desfire-info prints GetVersion, the master key settings 0F, version 0, FreeMem and \"Random UID: no\"",
        .enabled(if: installed("mifare-desfire-info"), Comment(rawValue: missing)),
        arguments: [
            ("desfire-ev1", "Version:              1.0", "Free memory: 4864 bytes"),
            ("desfire-ev2", "Version:              18.0", "Free memory: 8192 bytes"),
            ("desfire-ev3", "Version:              51.0", "Free memory: 8192 bytes"),
        ])
    func info(tag: String, hardware: String, free: String) throws {
        let emulator = try started(tag)
        defer { emulator.stop() }
        let result = try run("mifare-desfire-info", [], emulator)
        #expect(result.status == 0 && !result.timedOut, "\(result.output)")
        #expect(result.output.contains("UID:                      0x04e05a11223344"), "\(result.output)")
        #expect(result.output.contains(hardware), "\(result.output)")
        #expect(result.output.contains("Master Key settings (0x0f):"), "\(result.output)")
        #expect(result.output.contains("Master Key version: 0 (0x00)"), "\(result.output)")
        #expect(result.output.contains(free), "\(result.output)")
        #expect(result.output.contains("Use random UID: no"), "\(result.output)")
    }

    @Test(
        "format, create-ndef, write-ndef, read-ndef: the tool's default Smart Poster comes back and sits in file 02",
        .enabled(
            if: installed(
                "mifare-desfire-format", "mifare-desfire-create-ndef", "mifare-desfire-write-ndef",
                "mifare-desfire-read-ndef"), Comment(rawValue: missing)),
        arguments: ["desfire-ev1", "desfire-ev3"])
    func ndefRoundTrip(tag: String) throws {
        let emulator = try started(tag)
        defer { emulator.stop() }
        for tool in ["mifare-desfire-format", "mifare-desfire-create-ndef", "mifare-desfire-write-ndef"] {
            let result = try run(tool, ["-y"], emulator)
            #expect(result.status == 0 && !result.timedOut, "\(tool): \(result.output)")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "desfire-ndef-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: file) }
        let read = try run("mifare-desfire-read-ndef", ["-y", "-o", file.path], emulator)
        #expect(read.status == 0 && read.output.contains("NDEF size: 33 bytes"), "\(read.output)")
        let message = transcriptBytes(
            "D1 02 1C 53 70 91 01 09 54 02 65 6E 4C 69 62 6E 66 63 51 01 0B 55 03 6C 69 62 6E 66 63 2E 6F 72 67")
        #expect([UInt8](try Data(contentsOf: file)) == message)
        let model = try card(emulator)
        let ndef = try #require(model.applications.first { $0.dfName == ChipTables.desfire.ndef.dfName })
        let ndefFile = try #require(ndef.files.first { $0.number == ChipTables.desfire.ndef.ndefFileNumber })
        guard case .data(let bytes) = ndefFile.content else { throw DESFireRefusal(.fileNotFound) }
        #expect(Array(bytes.prefix(35)) == [0x00, 0x21] + message, "NLEN ‖ NDEF in the card's file 02")
    }

    @Test(
        "mifare-desfire-access runs to the end: application F12345, an enciphered file written and read, then FormatPICC",
        .enabled(if: installed("mifare-desfire-access"), Comment(rawValue: missing)))
    func access() throws {
        let emulator = try started("desfire-ev1")
        defer { emulator.stop() }
        let result = try run("mifare-desfire-access", [], emulator)
        #expect(result.status == 0 && !result.timedOut, "\(result.output)")
        let model = try card(emulator)
        #expect(model.applications.isEmpty, "the tool ends with FormatPICC")
        #expect(model.freeMemory == 4864)
    }

    @Test(
        "EV1 configuration tools: the ATS is set, the default key round-trips with version 34, the random UID turns on",
        .enabled(
            if: installed(
                "mifare-desfire-ev1-configure-ats", "mifare-desfire-ev1-configure-default-key",
                "mifare-desfire-ev1-configure-random-uid", "mifare-desfire-info"), Comment(rawValue: missing)))
    func configurationTools() throws {
        let emulator = try started("desfire-ev1")
        defer { emulator.stop() }
        let ats = try run("mifare-desfire-ev1-configure-ats", ["-y"], emulator)
        #expect(ats.status == 0 && !ats.timedOut, "\(ats.output)")
        #expect(try card(emulator).ats == transcriptBytes("06 75 77 81 02 80"))
        let key = try run("mifare-desfire-ev1-configure-default-key", ["-y"], emulator)
        #expect(key.status == 0 && !key.output.contains("Wrong key version"), "\(key.output)")
        #expect(try card(emulator).defaultKey?.bytes == [UInt8](repeating: 0, count: 24), "the tool puts it back")
        let random = try run("mifare-desfire-ev1-configure-random-uid", ["-y"], emulator)
        #expect(random.status == 0, "\(random.output)")
        #expect(try card(emulator).usesRandomUID)
        let again = try run("mifare-desfire-ev1-configure-random-uid", ["-y"], emulator)
        #expect(again.status == 0 && again.output.contains("Old card UID: 04e05a11223344"), "\(again.output)")
        let info = try run("mifare-desfire-info", [], emulator)
        #expect(info.status == 0 && info.output.contains("Use random UID: yes"), "\(info.output)")
    }
}

// MARK: - nfctag and libfreefare, both directions

extension EndToEndDESFireToolTests {
    func nfctag(_ arguments: [String], _ emulator: PN532Emulator) throws -> LibNFCTool.Result {
        try LibNFCTool.run(
            EndToEndOutsideClientTests.nfctag.path, ["--device", emulator.connectionString] + arguments,
            device: emulator.connectionString, timeout: 60)
    }

    @Test(
        "libfreefare writes, nfctag reads: create-ndef and write-ndef, then nfctag read finds the tool's Smart Poster",
        .enabled(
            if: installed("mifare-desfire-create-ndef", "mifare-desfire-write-ndef")
                && EndToEndOutsideClientTests.hasNfctag, Comment(rawValue: missing)))
    func nfctagReadsLibfreefare() throws {
        let emulator = try started("desfire-ev2")
        defer { emulator.stop() }
        for tool in ["mifare-desfire-create-ndef", "mifare-desfire-write-ndef"] {
            let result = try run(tool, ["-y"], emulator)
            #expect(result.status == 0 && !result.timedOut, "\(tool): \(result.output)")
        }
        let read = try nfctag(["read", "--json"], emulator)
        #expect(read.status == 0, "\(read.output)")
        #expect(read.output.contains("libnfc.org"), "\(read.output)")
    }

    @Test(
        "nfctag writes, libfreefare reads: nfctag format creates the NDEF application, write, then read-ndef returns our bytes",
        .enabled(
            if: installed("mifare-desfire-read-ndef") && EndToEndOutsideClientTests.hasNfctag,
            Comment(rawValue: missing)),
        arguments: ["desfire-ev1", "desfire-ev3"])
    func libfreefareReadsNfctag(tag: String) throws {
        let emulator = try started(tag)
        defer { emulator.stop() }
        let format = try nfctag(["format"], emulator)
        #expect(format.status == 0, "\(format.output)")
        let write = try nfctag(["write", "--uri", "https://example.com/desfire"], emulator)
        #expect(write.status == 0, "\(write.output)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "desfire-nfctag-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: file) }
        let read = try run("mifare-desfire-read-ndef", ["-y", "-o", file.path], emulator)
        #expect(read.status == 0, "\(read.output)")
        // D1 01 14 55 04 "example.com/desfire": one URI record, prefix code 04 (https://).
        let expected: [UInt8] = [0xD1, 0x01, 0x14, 0x55, 0x04] + Array("example.com/desfire".utf8)
        #expect([UInt8](try Data(contentsOf: file)) == expected)
    }
}

import Foundation
import NFCChips
import Testing
@testable import NFCEmulator
import TestSupport

/// Outside clients (libfreefare 0.4.0's tools and API, libnfc's examples, mfoc) against the
/// emulated PN532 on a pseudo-terminal: the emulator is checked by what others wrote. Each
/// test skips, saying so, only when its tool is not installed; `scripts/setup` installs them
/// (libfreefare-bin, libfreefare-dev, libnfc-examples, libnfc-pn53x-examples, mfoc).
@Suite("Outside clients drive the emulated PN532", .serialized, .blockingCalls)
struct EndToEndOutsideClientTests {
    static func installed(_ tools: String...) -> Bool { tools.allSatisfy(LibNFCTool.isInstalled) }

    /// The built `nfctag` (the product beside the test bundle), as `Tests/NFCTagCLITests` find it.
    static let nfctag: URL = {
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.pathComponents.count > 1,
            !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("nfctag").path)
        {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("nfctag")
    }()

    static var hasNfctag: Bool { FileManager.default.isExecutableFile(atPath: nfctag.path) }

    func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    }

    func nfctag(_ arguments: [String], _ emulator: PN532Emulator) throws -> LibNFCTool.Result {
        try LibNFCTool.run(
            Self.nfctag.path, ["--device", emulator.connectionString] + arguments,
            device: emulator.connectionString, timeout: 60)
    }

    func started(_ tags: [String]) throws -> PN532Emulator {
        let emulator = try PN532Emulator(tagNames: tags)
        try emulator.start()
        return emulator
    }
}

// MARK: - libfreefare

extension EndToEndOutsideClientTests {
    @Test(
        "libfreefare reads what nfctag wrote: mifare-classic-read-ndef extracts nfctag's message",
        .enabled(
            if: installed("mifare-classic-read-ndef") && hasNfctag,
            "libfreefare-bin is not installed (scripts/setup installs it)"))
    func libfreefareReadsNfctag() throws {
        let emulator = try started(["classic1k"])
        defer { emulator.stop() }
        #expect(try nfctag(["format"], emulator).status == 0)
        let write = try nfctag(["write", "--uri", "https://example.com/lff"], emulator)
        #expect(write.status == 0, "\(write.output)")
        let file = temporaryFile("lff-read.ndef")
        defer { try? FileManager.default.removeItem(at: file) }
        let read = try LibNFCTool.run(
            "mifare-classic-read-ndef", ["-y", "-o", file.path], device: emulator.connectionString)
        #expect(read.status == 0 && !read.timedOut, "\(read.output)")
        let encoded = try nfctag(["ndef", "encode", "--uri", "https://example.com/lff"], emulator).output
        let expected = transcriptBytes(encoded.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect([UInt8](try Data(contentsOf: file)) == expected, "\(read.output)")
    }

    @Test(
        "nfctag reads what libfreefare wrote: mifare-classic-format then mifare-classic-write-ndef",
        .enabled(
            if: installed("mifare-classic-format", "mifare-classic-write-ndef") && hasNfctag,
            "libfreefare-bin is not installed (scripts/setup installs it)"))
    func nfctagReadsLibfreefare() throws {
        let emulator = try started(["classic1k"])
        defer { emulator.stop() }
        let format = try LibNFCTool.run("mifare-classic-format", ["-y"], device: emulator.connectionString, timeout: 60)
        #expect(format.status == 0 && format.output.contains("done"), "\(format.output)")
        let message: [UInt8] = [0xD1, 0x01, 0x05, 0x54, 0x02, 0x65, 0x6E, 0x48, 0x69]  // Text "Hi", en
        let file = temporaryFile("lff-write.ndef")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(message).write(to: file)
        let write = try LibNFCTool.run(
            "mifare-classic-write-ndef", ["-y", "-i", file.path], device: emulator.connectionString, timeout: 60)
        #expect(write.status == 0, "\(write.output)")
        let read = try nfctag(["read", "--json"], emulator)
        #expect(read.status == 0, "\(read.output)")
        #expect(
            read.output.contains("\"text\":\"Hi\"") || read.output.contains("48 69")
                || read.output.contains("\"payload\":\"02656e4869\""), "\(read.output)")
    }

    @Test(
        "mifare-ultralight-info identifies Ultralight and Ultralight C (and authenticates UL-C with the default key)",
        .enabled(
            if: installed("mifare-ultralight-info"), "libfreefare-bin is not installed (scripts/setup installs it)"),
        arguments: [("ultralight", "Mifare UltraLight"), ("ultralight-c", "Mifare UltraLightC")])
    func ultralightInfo(tag: String, name: String) throws {
        let emulator = try started([tag])
        defer { emulator.stop() }
        let result = try LibNFCTool.run("mifare-ultralight-info", [], device: emulator.connectionString)
        #expect(result.status == 0 && !result.timedOut, "\(result.output)")
        #expect(result.output.contains("is a \(name)\n"), "\(result.output)")
        if tag == "ultralight-c" {
            #expect(result.output.contains("Authentication with default key: success"), "\(result.output)")
        }
    }

    /// Tests/OutsideClients/ultralight-pages.c, built here against libfreefare's headers.
    @Test(
        "a C client of libfreefare's mifare_ultralight_* API writes a page and reads it back",
        .enabled(
            if: installed("cc", "pkg-config")
                && (try? LibNFCTool.run("pkg-config", ["--exists", "libfreefare"], device: ""))?.status == 0,
            "cc, pkg-config or libfreefare-dev is not installed (scripts/setup installs libfreefare-dev)"),
        arguments: ["ultralight", "ultralight-c"])
    func cClient(tag: String) throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("OutsideClients/ultralight-pages.c")
        let directory = temporaryFile("lff-client")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = directory.appendingPathComponent("ultralight-pages")
        let build = try LibNFCTool.run(
            "sh",
            [
                "-c", "cc -o \"$1\" \"$2\" $(pkg-config --cflags --libs libfreefare libnfc)", "sh", binary.path,
                source.path,
            ],
            device: "", timeout: 60)
        try #require(build.status == 0, "the C client did not build:\n\(build.output)")
        let emulator = try started([tag])
        defer { emulator.stop() }
        let run = try LibNFCTool.run(binary.path, ["05", "de", "ad", "be", "ef"], device: emulator.connectionString)
        #expect(run.status == 0 && !run.timedOut, "\(run.output)")
        #expect(run.output.contains("page 05 after de ad be ef"), "\(run.output)")
        let model = try #require(emulator.tags.first as? Type2Tag)
        #expect(model.page(0x05) == [0xDE, 0xAD, 0xBE, 0xEF], "written on the tag, not only in libfreefare's cache")
    }
}

// MARK: - libnfc's examples and mfoc

extension EndToEndOutsideClientTests {
    @Test(
        "nfc-anticol runs REQA (7 bits), both cascade levels and HLTA on an NTAG215, one level on a Classic 1K",
        .enabled(if: installed("nfc-anticol"), "libnfc-examples is not installed (scripts/setup installs it)"),
        arguments: [
            ("ntag215", "UID: 04e05a11223344", "ATQA: 0044", "SAK: 00"),
            ("classic1k", "UID: 3ee05a11", "ATQA: 0004", "SAK: 08"),
        ])
    func nfcAnticol(tag: String, uid: String, atqa: String, sak: String) throws {
        let emulator = try started([tag])
        defer { emulator.stop() }
        let result = try LibNFCTool.run("nfc-anticol", [], device: emulator.connectionString)
        #expect(result.status == 0 && !result.timedOut, "\(result.output)")
        #expect(result.output.contains("Sent bits:     26 (7 bits)"), "\(result.output)")
        for line in [uid, atqa, sak] { #expect(result.output.contains(line), "\(result.output)") }
        #expect(
            !result.output.contains("WARNING"), "BCC and cascade tag as ISO/IEC 14443-3 has them:\n\(result.output)")
    }

    @Test(
        "nfc-list -v lists the tag with a clean stderr at LIBNFC_LOG_LEVEL=1",
        .enabled(if: installed("nfc-list"), "libnfc-bin is not installed (scripts/setup installs it)"),
        arguments: ["ntag215", "classic1k"])
    func nfcListVerbose(tag: String) throws {
        let emulator = try started([tag])
        defer { emulator.stop() }
        let result = try LibNFCTool.run(
            "nfc-list", ["-v"], device: emulator.connectionString,
            environment: ["LIBNFC_LOG_LEVEL": "1"], separateErrors: true)
        #expect(result.status == 0 && !result.timedOut, "\(result.output)")
        #expect(result.output.contains("1 ISO14443A passive target(s) found"), "\(result.output)")
        #expect(result.errors.isEmpty, "stderr: \(result.errors)")
    }

    @Test(
        "nfc-mfclassic r reads every block of a blank and of an nfctag-formatted Classic 1K and 4K",
        .enabled(
            if: installed("nfc-mfclassic") && hasNfctag, "libnfc-examples is not installed (scripts/setup installs it)"),
        arguments: [
            ("classic1k", false, 64), ("classic1k", true, 64), ("classic4k", false, 256), ("classic4k", true, 256),
        ])
    func nfcMfclassic(tag: String, formatted: Bool, blocks: Int) throws {
        let emulator = try started([tag])
        defer { emulator.stop() }
        if formatted { #expect(try nfctag(["format"], emulator).status == 0) }
        let dump = temporaryFile("mfclassic.mfd")
        defer { try? FileManager.default.removeItem(at: dump) }
        let result = try LibNFCTool.run(
            "nfc-mfclassic", ["r", "a", "u", dump.path], device: emulator.connectionString, timeout: 120)
        #expect(!result.timedOut, "nfc-mfclassic hung:\n\(result.output)")
        #expect(result.output.contains("Done, \(blocks) of \(blocks) blocks read."), "\(result.output)")
        #expect((try? Data(contentsOf: dump))?.count == blocks * 16)
    }

    @Test(
        "pn53x-diagnose: communication line, ROM and RAM tests pass",
        .enabled(if: installed("pn53x-diagnose"), "libnfc-pn53x-examples is not installed (scripts/setup installs it)"))
    func pn53xDiagnose() throws {
        let emulator = try started(["ntag215"])
        defer { emulator.stop() }
        let result = try LibNFCTool.run("pn53x-diagnose", [], device: emulator.connectionString)
        #expect(result.status == 0 && !result.timedOut, "\(result.output)")
        for test in ["Communication line test: OK", "ROM test: OK", "RAM test: OK"] {
            #expect(result.output.contains(test), "\(result.output)")
        }
    }

    @Test(
        "mfoc dumps a blank Classic 1K with the default keys",
        .enabled(if: installed("mfoc"), "mfoc is not installed (scripts/setup installs it)"))
    func mfoc() throws {
        let emulator = try started(["classic1k"])
        defer { emulator.stop() }
        let dump = temporaryFile("mfoc.mfd")
        defer { try? FileManager.default.removeItem(at: dump) }
        let result = try LibNFCTool.run("mfoc", ["-O", dump.path], device: emulator.connectionString, timeout: 120)
        #expect(result.status == 0 && !result.timedOut, "\(result.output)")
        #expect(result.output.contains("Block 00, type A, key ffffffffffff :3e  e0  5a  11"), "\(result.output)")
        #expect((try? Data(contentsOf: dump))?.count == 1024)
    }

    @Test(
        "nfc-mfultralight r --pw authenticates with PWD_AUTH and reads all 135 pages of an NTAG215",
        .enabled(if: installed("nfc-mfultralight"), "libnfc-examples is not installed (scripts/setup installs it)"))
    func nfcMfultralightPassword() throws {
        let emulator = try started(["ntag215"])
        defer { emulator.stop() }
        let dump = temporaryFile("ntag215-pw.mfd")
        defer { try? FileManager.default.removeItem(at: dump) }
        let result = try LibNFCTool.run(
            "nfc-mfultralight", ["r", dump.path, "--pw", "FFFFFFFF"], device: emulator.connectionString)
        #expect(!result.timedOut, "\(result.output)")
        #expect(result.output.contains("Done, 135 of 135 pages read (0 pages failed)."), "\(result.output)")
    }
}

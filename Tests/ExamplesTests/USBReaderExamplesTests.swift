import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// The library's NDEF and tag sessions on the USB readers: the example programs (each a
/// plain NFCTagKit client) run against an emulated ACR122U and PN533 through libnfc's own
/// `acr122_usb` / `pn53x_usb` drivers. LD_PRELOAD acts at process start, so the program is
/// a child process started with the reader's environment; `ExamplesTests` runs the same
/// programs on the UART PN532.
@Suite("Examples on the USB readers", .serialized, .timeLimit(.minutes(3)), .blockingCalls)
struct USBReaderExamplesTests {
    static let ntag215 = ChipTables.spec(for: .ntag215).memory!

    /// A started USB reader of `kind` with `tags`, and the environment a client needs.
    static func reader(_ kind: USBReaderEmulator.Kind, _ tags: [any EmulatedTag]) throws -> (
        USBReaderEmulator, [String: String]
    ) {
        let reader = try USBReaderEmulator(kind: kind, tags: tags)
        reader.start()
        let library = try #require(
            USBReaderEmulator.libraryPath(besideExecutable: ExampleProcess.executable("WriteAndLockURL").path),
            "the USB stand-in is not built beside the examples")
        return (reader, reader.environment(library: library))
    }

    @Test(
        "WriteAndLockURL (NDEFSession): written, verified and locked through the reader",
        arguments: USBReaderEmulator.Kind.allCases)
    func writeAndLock(kind: USBReaderEmulator.Kind) async throws {
        let (reader, environment) = try Self.reader(kind, [try Type2Tag(chip: .ntag215, uid: ntag215UID)])
        defer { reader.stop() }
        let url = "https://example.com/\(kind.rawValue)"
        let (status, output) = try await ExampleProcess.run(
            "WriteAndLockURL", [reader.connectionString, "--url", url, "--lock"],
            environment: environment)
        #expect(status == 0, "\(output)")
        #expect(output.contains("Read back: \(url) — verified"), "\(output)")
        let tag = try #require(reader.allTags.first as? Type2Tag)
        #expect(tag.page(Self.ntag215.capabilityContainer.page)[3] == 0x0F, "the CC does not say read-only")
    }

    @Test(
        "PasswordProtectNTAG (TagSession): protect, refused read, PWD_AUTH with the PACK, removal",
        arguments: USBReaderEmulator.Kind.allCases)
    func passwordProtect(kind: USBReaderEmulator.Kind) async throws {
        let (reader, environment) = try Self.reader(kind, [try Type2Tag(chip: .ntag215, uid: ntag215UID)])
        defer { reader.stop() }
        let (status, output) = try await ExampleProcess.run(
            "PasswordProtectNTAG", [reader.connectionString], environment: environment)
        #expect(status == 0, "\(output)")
        for expected in [
            "Protected: the tag now requires password 12 34 56 78", "Read without the password: refused",
            "PACK abcd as expected", "Protection removed: the tag now requires no password",
        ] {
            #expect(output.contains(expected), "missing '\(expected)' in \(output)")
        }
    }

    @Test(
        "CountersAndSignature (TagSession): the NFC counter and the originality signature",
        arguments: USBReaderEmulator.Kind.allCases)
    func countersAndSignature(kind: USBReaderEmulator.Kind) async throws {
        let (reader, environment) = try Self.reader(kind, [try Type2Tag(chip: .ntag215, uid: ntag215UID)])
        defer { reader.stop() }
        let key = hex(EmulatorSigningKey.publicKey)
        let (status, output) = try await ExampleProcess.run(
            "CountersAndSignature",
            [reader.connectionString, "--enable-counter", "--public-key", key],
            environment: environment)
        #expect(status == 0, "\(output)")
        #expect(
            output.split(separator: "\n").contains { $0.hasPrefix("NFC counter: ") && Int($0.dropFirst(13)) != nil },
            "\(output)")
        #expect(output.contains("Originality: valid"), "\(output)")
    }

    @Test(
        "ReaderLifecycle (reconnection): the reader unplugged and plugged in again at a new address, by driver name",
        arguments: USBReaderEmulator.Kind.allCases)
    func readerLifecycle(kind: USBReaderEmulator.Kind) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nfctag-usb-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = directory.appendingPathComponent("reader.sock").path
        let tag = try Type2Tag(chip: .ntag215, uid: ntag215UID)
        let first = try USBReaderEmulator(kind: kind, tags: [tag], link: link)
        first.start()
        let library = try #require(
            USBReaderEmulator.libraryPath(besideExecutable: ExampleProcess.executable("ReaderLifecycle").path))
        // The driver name alone (`acr122_usb`): libnfc opens whichever such reader it finds, so
        // the reader is found again at its new USB address without the hot-plug seam.
        let example = try ExampleProcess(
            "ReaderLifecycle", [kind.driver, "--seconds", "30"],
            environment: first.environment(library: library))
        #expect(await example.waitForLine(containing: "Unplug the reader"), "\(example.transcript)")
        first.stop()
        #expect(await example.waitForLine(containing: "event: reconnectStarted"), "\(example.transcript)")
        try await Task.sleep(for: .milliseconds(300))
        let second = try USBReaderEmulator(kind: kind, tags: [tag], link: link)
        second.start()
        defer { second.stop() }
        #expect(second.address != first.address)
        #expect(await example.exitStatus() == 0, "\(example.transcript)")
        let events = example.output.filter { $0.hasPrefix("event: ") }.map { $0.split(separator: " ")[1] }
        #expect(events == ["connected", "reconnectStarted", "reconnectSucceeded"], "\(example.transcript)")
    }
}

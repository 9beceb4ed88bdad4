import Foundation
import Testing
@testable import NFCEmulator
import TestSupport

/// The emulated USB readers through unmodified libnfc. LD_PRELOAD acts at process start,
/// so every libnfc client here is a child process started with the reader's environment:
/// libnfc's `nfc-list`, and the built `nfctag` (the NFCTagKit library end to end).
@Suite(.serialized, .blockingCalls)
struct USBReaderTests {
    /// The test binary sits beside the package's products: the stand-in and `nfctag`.
    static let productsDirectory: URL = {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS" {
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    /// The stand-in: `NFCTAG_USB_EMULATION_LIBRARY` when set (the sanitizer runs build an
    /// uninstrumented one, since libnfc's tools cannot load an ASan-built library), else the
    /// one SwiftPM built beside the test binary.
    static var library: String {
        ProcessInfo.processInfo.environment["NFCTAG_USB_EMULATION_LIBRARY"]
            ?? productsDirectory.appendingPathComponent(USBReaderEmulator.libraryName).path
    }

    static func run(_ arguments: [String], reader: USBReaderEmulator, timeout: Double = 30) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LIBNFC_LOG_LEVEL"] = "0"
        // Other suites in this process turn libnfc's scan off and name devices: the child scans.
        environment["LIBNFC_AUTO_SCAN"] = "true"
        environment["LIBNFC_DEVICE"] = nil
        environment["LIBNFC_DEFAULT_DEVICE"] = nil
        for (key, value) in reader.environment(library: library) { environment[key] = value }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            finished.wait()
        }
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    static func reader(_ kind: USBReaderEmulator.Kind, link: String? = nil) throws -> USBReaderEmulator {
        let reader = try USBReaderEmulator(
            kind: kind, tags: [try EmulatedTagFactory.make(name: "ntag215", index: 0)], link: link)
        reader.start()
        return reader
    }

    @Test("the USB stand-in is built beside the products")
    func libraryIsBuilt() {
        #expect(FileManager.default.isReadableFile(atPath: Self.library), "\(Self.library)")
    }

    @Test("nfc-list lists the emulated reader and its tag", arguments: USBReaderEmulator.Kind.allCases)
    func nfcListSeesReader(kind: USBReaderEmulator.Kind) throws {
        let reader = try Self.reader(kind)
        defer { reader.stop() }
        let result = try Self.run(["nfc-list"], reader: reader)
        #expect(result.status == 0, "\(result.output)")
        let name = kind == .acr122u ? "ACS / ACR122U PICC Interface" : "SCM Micro / SCL3711-NFC&RW"
        #expect(result.output.contains("NFC device: \(name) opened"), "\(result.output)")
        #expect(result.output.contains("1 ISO14443A passive target(s) found"), "\(result.output)")
        #expect(result.output.contains("04  e0  5a  11  22  33  44"), "\(result.output)")
        let scan = try Self.run(["nfc-scan-device"], reader: reader)
        #expect(scan.output.contains(reader.connectionString), "\(scan.output)")
        if kind == .pn533 {
            #expect(try Self.run(["nfc-scan-device", "-v"], reader: reader).output.contains("PN533 v2.7"))
        }
    }

    @Test(
        "NFCTagKit writes and reads a tag through the reader (nfctag in a child process)",
        arguments: USBReaderEmulator.Kind.allCases)
    func libraryReadsThroughReader(kind: USBReaderEmulator.Kind) throws {
        let reader = try Self.reader(kind)
        defer { reader.stop() }
        let nfctag = Self.productsDirectory.appendingPathComponent("nfctag").path
        let write = try Self.run(
            [nfctag, "--device", reader.connectionString, "write", "--uri", "https://example.com/usb"], reader: reader)
        #expect(write.status == 0, "\(write.output)")
        let read = try Self.run([nfctag, "--device", reader.connectionString, "read", "--json"], reader: reader)
        #expect(read.status == 0, "\(read.output)")
        #expect(read.output.contains("\"uri\":\"https://example.com/usb\""), "\(read.output)")
        #expect(read.output.contains("\"chip\":\"ntag215\""), "\(read.output)")
    }

    @Test("the same --link is the same reader plugged in again: a new address, the same serial")
    func replugKeepsSerial() throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("nfctag-usb-test-\(getpid()).sock")
            .path
        defer {
            try? FileManager.default.removeItem(atPath: link + ".address")
            try? FileManager.default.removeItem(atPath: link + ".usb")
        }
        let first = try Self.reader(.pn533, link: link)
        let firstAddress = first.address
        let firstSerial = first.descriptor.serialNumber
        first.stop()
        let second = try Self.reader(.pn533, link: link)
        defer { second.stop() }
        #expect(second.address != firstAddress)
        #expect(second.descriptor.serialNumber == firstSerial)
        #expect(!firstSerial.isEmpty)
    }

    @Test(
        "plugged in, the reader's node is in its USB device directory with its identity; unplugged, it is gone",
        arguments: USBReaderEmulator.Kind.allCases)
    func publishesNode(kind: USBReaderEmulator.Kind) throws {
        let reader = try Self.reader(kind)
        let text = try String(contentsOfFile: reader.nodePath, encoding: .utf8)
        #expect(
            reader.nodePath == reader.deviceDirectory
                + String(format: "/%03u/%03u", UInt32(reader.bus), UInt32(reader.address)))
        #expect(reader.environment(library: "x")[USBReaderEmulator.deviceDirectoryVariable] == reader.deviceDirectory)
        let identity =
            kind == .acr122u
            ? "vendor=072f\nproduct=2200\nserial=\n"
            : "vendor=04e6\nproduct=5591\nserial=\(reader.descriptor.serialNumber)\n"
        #expect(text == identity + "port=\(reader.portPath)\n")
        reader.stop()
        #expect(!FileManager.default.fileExists(atPath: reader.nodePath))
    }

    /// Runs `arguments` in the background with the reader's environment; stdout and stderr
    /// go to files the test reads while it runs.
    final class Background: Sendable {
        let process: Process
        let output: String
        let errors: String

        init(_ arguments: [String], environment extra: [String: String], in directory: String) throws {
            output = directory + "/out.log"
            errors = directory + "/err.log"
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            process = Process()
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
            var environment = ProcessInfo.processInfo.environment
            environment["LIBNFC_LOG_LEVEL"] = "0"
            environment["LIBNFC_AUTO_SCAN"] = "true"
            environment["LIBNFC_DEVICE"] = nil
            environment["LIBNFC_DEFAULT_DEVICE"] = nil
            environment["XDG_CONFIG_HOME"] = directory + "/config"  // the last reader is not remembered elsewhere
            for (key, value) in extra { environment[key] = value }
            process.environment = environment
            process.standardOutput = FileHandle(forWritingAtPath: output)
            process.standardError = FileHandle(forWritingAtPath: errors)
            try process.run()
        }

        var text: String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
        var errorText: String { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }

        /// Waits up to `seconds` for stdout to contain `fragment`.
        func wait(for fragment: String, seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if text.contains(fragment) { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return text.contains(fragment)
        }

        func stop() {
            if process.isRunning { process.interrupt() }
            process.waitUntilExit()
        }
    }

    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nfctag-usb-replug-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        ).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test(
        "nfctag monitor: the USB reader unplugged and plugged in again at a new address is reconnected (issue 14's done-when)",
        arguments: USBReaderEmulator.Kind.allCases)
    func monitorSeesReplug(kind: USBReaderEmulator.Kind) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/reader.sock"
        let first = try Self.reader(kind, link: link)
        let environment = first.environment(library: Self.library)
        let nfctag = Self.productsDirectory.appendingPathComponent("nfctag").path
        let monitor = try Background(
            [nfctag, "monitor", "--json", "--device", first.connectionString],
            environment: environment, in: directory)
        defer { monitor.stop() }
        #expect(monitor.wait(for: "\"tagDetected\"", seconds: 30), "\(monitor.text)\(monitor.errorText)")
        let firstAddress = first.connectionString
        first.stop()
        #expect(monitor.wait(for: "\"reconnectStarted\"", seconds: 20), "\(monitor.text)\(monitor.errorText)")
        let second = try Self.reader(kind, link: link)
        defer { second.stop() }
        #expect(second.connectionString != firstAddress, "a new USB address")
        #expect(
            second.environment(library: Self.library) == environment,
            "the same reader, seen through the same environment")
        #expect(monitor.wait(for: "\"reconnectSucceeded\"", seconds: 30), "\(monitor.text)\(monitor.errorText)")
        let lines = monitor.text.split(separator: "\n")
        let succeeded = try #require(lines.first { $0.contains("\"reconnectSucceeded\"") })
        #expect(succeeded.contains(second.connectionString), "reopened at the new address: \(succeeded)")
        #expect(
            lines.contains { $0.contains("\"reconnectStarted\"") && $0.contains("\"unplugged\"") },
            "the loss is seen as an unplug: \(monitor.text)")
    }

    @Test(
        "nfctag readers finds the emulated USB reader through libnfc's scan and the USB view: serial where it has one",
        arguments: USBReaderEmulator.Kind.allCases)
    func readersSeesUSBView(kind: USBReaderEmulator.Kind) throws {
        let reader = try Self.reader(kind)
        defer { reader.stop() }
        let nfctag = Self.productsDirectory.appendingPathComponent("nfctag").path
        let result = try Self.run([nfctag, "readers", "--json", "--timeout", "5"], reader: reader)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("\"connstring\":\"\(reader.connectionString)\""), "\(result.output)")
        if kind == .pn533 {
            #expect(
                result.output.contains("\"serial\":\"\(reader.descriptor.serialNumber)\""),
                "the serial comes from the USB view: \(result.output)")
        } else {
            #expect(!result.output.contains("\"serial\":\""), "the ACR122U has no serial: \(result.output)")
        }
    }

    @Test("nfctag readers --watch: the emulated ACR122U leaves, then arrives at a new address")
    func readersWatchSeesReplug() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/reader.sock"
        let first = try Self.reader(.acr122u, link: link)
        let nfctag = Self.productsDirectory.appendingPathComponent("nfctag").path
        let watch = try Background(
            [nfctag, "readers", "--watch", "--json"],
            environment: first.environment(library: Self.library), in: directory)
        defer { watch.stop() }
        #expect(watch.wait(for: first.connectionString, seconds: 20), "\(watch.text)\(watch.errorText)")
        first.stop()
        #expect(watch.wait(for: "{\"readers\":[]}", seconds: 20), "\(watch.text)\(watch.errorText)")
        let second = try Self.reader(.acr122u, link: link)
        defer { second.stop() }
        #expect(watch.wait(for: second.connectionString, seconds: 20), "\(watch.text)\(watch.errorText)")
    }

    @Test(
        "--device emulator:KIND:TAG runs the command against an emulated USB reader of that kind",
        arguments: USBReaderEmulator.Kind.allCases)
    func embeddedUSBEmulator(kind: USBReaderEmulator.Kind) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let nfctag = Self.productsDirectory.appendingPathComponent("nfctag").path
        var environment = ["XDG_CONFIG_HOME": directory + "/config"]
        environment["NFCTAG_USB_EMULATION_LIBRARY"] = Self.library
        let info = try Background(
            [nfctag, "info", "--json", "--device", "emulator:\(kind.rawValue):ntag213"],
            environment: environment, in: directory)
        info.process.waitUntilExit()
        #expect(info.process.terminationStatus == 0, "\(info.text)\(info.errorText)")
        #expect(info.text.contains("\"chip\":\"ntag213\""), "\(info.text)")
        #expect(info.text.contains("\"\(kind.driver):001:"), "the reader is the emulated USB one: \(info.text)")
        #expect(
            !FileManager.default.fileExists(atPath: directory + "/config/nfctagkit"),
            "an emulator is not remembered as the last reader")
        let refused = try Background(
            [nfctag, "scan", "--device", "emulator:\(kind.rawValue):nosuchtag"],
            environment: environment, in: directory)
        refused.process.waitUntilExit()
        #expect(refused.process.terminationStatus == 2, "\(refused.errorText)")
    }

    @Test("--device emulator:acr122u: Ctrl-C reaches the command in the child, which ends cleanly")
    func embeddedUSBEmulatorPassesSignals() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let nfctag = Self.productsDirectory.appendingPathComponent("nfctag").path
        let monitor = try Background(
            [nfctag, "monitor", "--json", "--device", "emulator:acr122u"],
            environment: ["NFCTAG_USB_EMULATION_LIBRARY": Self.library], in: directory)
        #expect(monitor.wait(for: "\"tagDetected\"", seconds: 30), "\(monitor.text)\(monitor.errorText)")
        monitor.process.interrupt()
        let deadline = Date().addingTimeInterval(15)
        while monitor.process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let ended = !monitor.process.isRunning
        if !ended { monitor.process.terminate() }
        monitor.process.waitUntilExit()
        #expect(ended, "the parent waits for its child, which got the signal")
        #expect(
            monitor.process.terminationReason == .exit && monitor.process.terminationStatus == 130,
            "\(monitor.errorText)"
        )
        #expect(monitor.text.contains("\"connstring\":\"acr122_usb:"), "\(monitor.text)")
    }

    @Test("ACR122U: firmware string, PICC parameter, and ICC mute when the PN532 inside is silent")
    func acr122uFirmwareAnswers() {
        var reader = ACR122UReader(controller: PN532Controller())
        func xfr(_ apdu: [UInt8]) -> [UInt8] {
            reader.bulkOut([0x6F, UInt8(apdu.count), 0, 0, 0, 0, 7, 0, 0, 0] + apdu).first ?? []
        }
        #expect(Array(xfr([0xFF, 0x00, 0x48, 0x00, 0x00]).dropFirst(10)) == Array("ACR122U215".utf8))
        #expect(Array(xfr([0xFF, 0x00, 0x51, 0x00, 0x00]).dropFirst(10)) == [0x90, 0x00])
        #expect(reader.piccParameter == 0x00)
        // GetFirmwareVersion through Direct Transmit: the PN532 inside answers, 90 00 after.
        #expect(
            Array(xfr([0xFF, 0x00, 0x00, 0x00, 0x02, 0xD4, 0x02]).dropFirst(10)) == [
                0xD5, 0x03, 0x32, 0x01, 0x06, 0x07, 0x90, 0x00,
            ])
        // InAutoPoll with an empty field: the PN532 holds its answer; the firmware says ICC mute.
        let mute = xfr([0xFF, 0x00, 0x00, 0x00, 0x05, 0xD4, 0x60, 0xFF, 0x01, 0x10])  // PollNr FF: poll for ever
        #expect(mute == [0x80, 0, 0, 0, 0, 0, 7, 0x40, 0xFE, 0])
    }

    @Test("PN533: its firmware version, a status byte before register answers, no InAutoPoll")
    func pn533Answers() {
        var reader = PN533Reader(controller: PN532Controller(), serialNumber: "1")
        let encoder = reader.controller.encoder
        func command(_ body: [UInt8]) -> [[UInt8]] { reader.bulkOut(encoder.informationFrame([0xD4] + body)) }
        #expect(command([0x02]) == [encoder.ack, encoder.answer(toCommand: 0x02, data: [0x33, 0x02, 0x07, 0x07])])
        let register = command([0x06, 0x63, 0x02])
        #expect(register.count == 2 && register[1].count == encoder.answer(toCommand: 0x06, data: [0, 0]).count)
        #expect(Array(register[1].dropFirst(7).prefix(1)) == [0x00])
        #expect(command([0x60, 0x01, 0x01, 0x10]) == [encoder.ack, encoder.error])
        #expect(command([0x14, 0x01]) == [encoder.ack, encoder.error])
    }
}

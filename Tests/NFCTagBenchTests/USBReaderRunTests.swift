import Foundation
import Testing
import NFCChips
@testable import NFCEmulator
@testable import nfctag_bench

/// The USB reader kinds in the bench: the emulated readers price a command exactly as the
/// floor model prices it on that kind's link, and `nfctag-bench --reader KIND` measures
/// `nfctag` processes on them.
@Suite("USB reader kinds in the bench", .serialized)
struct USBReaderRunTests {
    /// `nfctag` and the USB stand-in beside the test binary (SwiftPM's products directory).
    static let tool: String = {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("nfctag").path
    }()

    /// A type 2 tag selected through InListPassiveTarget on `transfer`, then one READ of
    /// page 4 through InCommunicateThru: the READ's modelled time and the tag's answer.
    static func readCost(kind: USBReaderEmulator.Kind) throws -> (time: Duration, answer: [UInt8]) {
        let controller = PN532Controller(field: Field(tags: [try EmulatedTagFactory.make(name: "ntag216", index: 0)]))
        var model: any USBReaderModel =
            kind == .acr122u
            ? ACR122UReader(controller: controller)
            : PN533Reader(controller: controller, serialNumber: "1")
        let encoder = controller.encoder
        func send(_ tama: [UInt8]) -> [[UInt8]] {
            switch kind {
            case .pn533:
                return model.transfer(encoder.informationFrame(tama))
            case .acr122u:
                let apdu: [UInt8] = [0xFF, 0x00, 0x00, 0x00, UInt8(tama.count)] + tama
                return model.transfer([0x6F, UInt8(apdu.count), 0, 0, 0, 0, 1, 0, 0, 0] + apdu)
            }
        }
        _ = send([0xD4, 0x4A, 0x01, 0x00])
        let before = model.controller.statistics.modelledTime
        let answers = send([0xD4, 0x42, 0x30, 0x04])
        return (model.controller.statistics.modelledTime - before, answers.last ?? [])
    }

    @Test(
        "a READ through the emulated reader costs what the floor model prices on that kind's USB link",
        arguments: USBReaderEmulator.Kind.allCases)
    func emulatorMatchesFloor(kind: USBReaderEmulator.Kind) throws {
        let (time, answer) = try Self.readCost(kind: kind)
        // The answer carries D5 43, the status byte and 16 bytes (PN533: inside a frame; ACR122U: 90 00 after).
        #expect(answer.count >= 19)
        let floor = PhysicalFloor(link: .usbFullSpeed(kind == .acr122u ? .acr122u : .pn533))
            .tagCommand(request: 2, answer: .bytes(16))
        let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
        #expect(abs(seconds - floor.seconds) < 1e-9, "emulator \(seconds * 1000) ms, floor \(floor.milliseconds) ms")
        // Not the UART: there the READ's 44 bytes (12 out, ACK, 26 back) cost 86.8 µs each, 3.8 ms.
        #expect(floor.seconds < PhysicalFloor().tagCommand(request: 2, answer: .bytes(16)).seconds - 0.003)
    }

    @Test("--reader takes a USB kind; the PN532 is the default run, not a --reader value")
    func options() throws {
        #expect(try BenchOptions(arguments: ["--reader", "acr122u"]).reader == .acr122u)
        #expect(try BenchOptions(arguments: ["--reader", "pn533", "--json"]).reader == .pn533)
        #expect(try BenchOptions(arguments: []).reader == nil)
        #expect(throws: BenchOptions.UsageError.self) { try BenchOptions(arguments: ["--reader", "pn532"]) }
        #expect(throws: BenchOptions.UsageError.self) { try BenchOptions(arguments: ["--reader"]) }
    }

    @Test("the JSON names each row's reader; the per-kind table holds the USB rows, the UART table the others")
    func reportSplitsKinds() throws {
        var sample = BenchSample()
        sample.commands = 3
        sample.modelledTime = .milliseconds(12)
        sample.modelledTimeByCode = [0x4A: .milliseconds(5), 0x42: .milliseconds(4), 0x32: .milliseconds(3)]
        let floor = PhysicalFloor(link: .usbFullSpeed(.pn533)).command(dataOut: 0, dataIn: 4)
        var usb = BenchResult(name: "read_ndef_800", sample: sample, floor: floor)
        usb.reader = "pn533"
        let uart = BenchResult(name: "identify", sample: sample, floor: PhysicalFloor().command(dataOut: 0, dataIn: 4))
        let report = BenchReport(results: [uart, usb])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        let operations = try #require(object["operations"] as? [[String: Any]])
        #expect(operations.map { $0["reader"] as? String } == ["pn532-uart", "pn533"])
        #expect(operations[1]["tag_commands_modeled_ms"] as? Double == 9)  // InListPassiveTarget + InCommunicateThru
        #expect(report.uartResults.map(\.name) == ["identify"])
        #expect(report.readerKindTable.contains("| pn533 | read_ndef_800 |"))
        #expect(!report.table.contains("read_ndef_800"))
    }

    @Test("nfctag-bench --reader pn533: nfctag processes on the emulated PN533, each at or above its USB floor")
    func measuresPN533() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.tool), "no nfctag at \(Self.tool)")
        let results = try await USBReaderRun(tool: Self.tool, kind: .pn533).run()
        #expect(
            results.map(\.name) == [
                "identify_signature", "write_ndef_100_fresh", "read_ndef_800", "nfctag_write_then_read_103_uri",
            ])
        for result in results {
            #expect(result.reader == "pn533")
            #expect(
                result.floorsByLink.contains {
                    $0.link == .usbFullSpeed(.pn533) && abs($0.floor.seconds - result.floor.seconds) < 1e-12
                })
            // The floor is a lower bound of the tag work; the process opens and closes the reader on top.
            let tagWork =
                Double(result.sample.tagWorkTime.components.attoseconds) / 1e18
                + Double(result.sample.tagWorkTime.components.seconds)
            #expect(
                tagWork >= result.floor.seconds * 0.999,
                "\(result.name): \(tagWork) s < floor \(result.floor.seconds) s")
            #expect(result.sample.modelledTime > result.sample.tagWorkTime, "\(result.name)")
        }
    }
}

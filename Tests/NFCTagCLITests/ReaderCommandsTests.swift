import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// `nfctag readers` and `nfctag monitor` against the emulated PN532, through real libnfc.
@Suite("nfctag readers and monitor", .tags(.reader), .serialized, .timeLimit(.minutes(1)), .blockingCalls)
struct ReaderCommandsTests {
    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]

    @Test("readers --device names the emulated reader with its firmware")
    func readersListsNamedEmulator() throws {
        let emulator = try EmulatedReader(tags: [])
        defer { emulator.stop() }
        let result = try ToolRunner.run(
            ["readers", "--device", emulator.connectionString, "--json", "--timeout", "3"],
            environment: ["LIBNFC_AUTO_SCAN": "false"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let readers = try #require(object["readers"] as? [[String: Any]])
        let reader = try #require(readers.first { $0["connstring"] as? String == emulator.connectionString })
        #expect(reader["kind"] as? String == ReaderUnderTest.current.model.driver)
        // The ACR122U names the PN532 inside it.
        #expect((reader["firmware"] as? String)?.contains(ReaderUnderTest.current.model.chip) == true, "\(reader)")
    }

    @Test("reset reopens the reader and reports its firmware and the time; --json as the contract says")
    func resetReportsFirmware() throws {
        let emulator = try EmulatedReader(tags: [])
        defer { emulator.stop() }
        let text = try ToolRunner.run(["reset", "--device", emulator.connectionString, "--timeout", "3"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("Reset \(emulator.connectionString) in "), "\(text.stdout)")
        // The emulated chips' firmware (the ACR122U's is the PN532 inside it).
        let firmware =
            ReaderUnderTest.current.emulatedFirmware.ic + " v" + ReaderUnderTest.current.emulatedFirmware.version
        #expect(text.stdout.contains("firmware \(firmware)"), "\(text.stdout)")
        let json = try ToolRunner.run(["reset", "--device", emulator.connectionString, "--json", "--timeout", "3"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["reset"] as? Bool == true)
        #expect(object["firmware"] as? String == firmware)
        #expect((object["ms"] as? Int).map { $0 >= 0 } == true, "\(object)")
    }

    @Test("reset of a reader that goes away while it resets exits 1 and says so")
    func resetOfVanishingReader() throws {
        // Unplugged after libnfc's open sequence, before the reopen of the reset.
        var faults = FaultPlan()
        faults.unplugAfterFrames = 16  // libnfc's open sequence of a PN532 on a UART
        let emulator = try EmulatedReader(kind: .pn532, tags: [], faults: faults)
        defer { emulator.stop() }
        let result = try ToolRunner.run(["reset", "--device", emulator.connectionString, "--timeout", "2"])
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(
            result.stderr.hasPrefix("nfctag reset: \(emulator.connectionString) could not be reset"), "\(result.stderr)"
        )
    }

    @Test("readers with nothing to find exits 3 and says how to get a reader")
    func readersNoneFound() throws {
        let result = try ToolRunner.run(["readers", "--timeout", "1"], environment: ["LIBNFC_AUTO_SCAN": "false"])
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("nfctag: no NFC reader found"))
        #expect(result.stderr.contains("--device emulator"))
    }

    @Test("monitor --json streams connected, tagDetected, tagRemoved, the reconnection and stops on Ctrl-C")
    func monitorStreamsEvents() async throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("nfctag-monitor-\(getpid())").path
        let emulator = try EmulatedReader(tags: [], link: link)
        defer { emulator.stop() }
        let monitor = try RunningTool(["monitor", "--json", "--device", emulator.connectionString])

        let connected = await monitor.waitForLine { $0.contains(#""event":"connected""#) }
        #expect(connected != nil, "\(monitor.standardError)")

        let handle = emulator.insert(try Type2Tag(chip: .ntag215, uid: Self.uid))
        let detected = await monitor.waitForLine { $0.contains("tagDetected") }
        #expect(detected?.contains(#""uid":"04a1b2c3d4e5f6""#) == true, "\(monitor.output)")
        #expect(detected?.contains(#""chip":"ntag215""#) == true, "\(monitor.output)")

        emulator.remove(handle)
        #expect(await monitor.waitForLine { $0.contains("tagRemoved") } != nil, "\(monitor.output)")

        emulator.unplug()
        let started = await monitor.waitForLine { $0.contains("reconnectStarted") }
        #expect(started?.contains(#""reason":"#) == true, "\(monitor.output)")
        try emulator.plug()
        #expect(await monitor.waitForLine { $0.contains("reconnectSucceeded") } != nil, "\(monitor.output)")

        // 128 + SIGINT: a script tells a stopped monitor from one that ended by itself.
        #expect(await monitor.interrupt() == 130, "\(monitor.standardError)")
        let names = monitor.output.compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return nil
            }
            return object["event"] as? String
        }
        #expect(names == ["connected", "tagDetected", "tagRemoved", "reconnectStarted", "reconnectSucceeded"])
    }

    @Test("monitor without any reader exits 3")
    func monitorNoReader() throws {
        let result = try ToolRunner.run(
            ["monitor", "--device", "pn532_uart:/nonexistent/tty", "--timeout", "1"],
            environment: ["LIBNFC_AUTO_SCAN": "false"])
        #expect(result.status == 3, "\(result.stderr)")
    }
}

/// `--device emulator[:TAG,…]`: the embedded emulated reader, reached through libnfc.
@Suite("nfctag --device emulator", .tags(.reader), .timeLimit(.minutes(1)), .blockingCalls)
struct EmbeddedEmulatorTests {
    @Test("readers --device emulator lists a PN532 on a pseudo-terminal")
    func readers() throws {
        let result = try ToolRunner.run(
            ["readers", "--device", "emulator", "--json"], environment: ["LIBNFC_AUTO_SCAN": "false"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""kind":"pn532_uart""#), "\(result.stdout)")
        #expect(result.stdout.contains("PN532"), "\(result.stdout)")
    }

    @Test("monitor --device emulator:ntag213,classic1k sees a tag at once")
    func monitorSeesEmbeddedTag() async throws {
        let monitor = try RunningTool(["monitor", "--json", "--device", "emulator:ntag213,classic1k"])
        #expect(await monitor.waitForLine { $0.contains("tagDetected") } != nil, "\(monitor.standardError)")
        #expect(await monitor.interrupt() == 130)
    }

    @Test(
        "monitor stopped by SIGTERM exits 143, by SIGHUP 129, each after closing the reader",
        arguments: [
            (SIGTERM, Int32(143)), (SIGHUP, Int32(129)),
        ])
    func monitorSignals(signal: Int32, status: Int32) async throws {
        let monitor = try RunningTool(["monitor", "--json", "--device", "emulator:ntag213"])
        #expect(await monitor.waitForLine { $0.contains("tagDetected") } != nil, "\(monitor.standardError)")
        #expect(await monitor.send(signal) == status, "\(monitor.standardError)")
    }

    @Test("an unknown emulated tag name is a usage error (exit 2) that lists the names")
    func unknownTag() throws {
        let result = try ToolRunner.run(["readers", "--device", "emulator:ntag999"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("ntag215"), "\(result.stderr)")
    }
}

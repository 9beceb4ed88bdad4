import Foundation
import NFCEmulator
import NFCTagKit
import Testing
import TestSupport

extension HardwareInTheLoop {
    /// One scenario per emulator assumption that no source confirms (the DocC article
    /// "What the emulator assumes" lists them with their ids). On the emulator they pass by
    /// construction; on a real reader each one settles its assumption: it passes when the
    /// reader behaves as the emulator does, and prints what it measured (`[hil] A…`).
    @Suite("Emulator assumptions, settled on a real reader", .blockingCalls)
    struct Assumptions {
        /// A2: with a tag in the field, libnfc's InAutoPoll (ISO 14443-4A slot, then MIFARE)
        /// answers after about one activation per slot — the 14443-4A slot does not last its
        /// Period × 150 ms before an NTAG is found. Every NDEF write asks it once.
        @Test(
            "A2 InAutoPoll with a non-ISO-DEP tag answers without waiting out the ISO 14443-4A slot (150 ms)",
            arguments: HardwareBench.tags)
        func autoPollSlotWithTag(tag name: String) async throws {
            let reader = try HardwareReader(tag: name)
            try await reader.withDevice { device in
                let first = try await device.waitForTarget(timeout: .seconds(10))
                guard first.sak & ChipTables.iso14443a.sakISO14443_4Bit == 0 else {
                    try Test.cancel("an ISO-DEP tag answers in the first slot")
                }
                var times: [Duration] = []
                for _ in 0..<7 {
                    let clock = ContinuousClock()
                    let start = clock.now
                    guard case .alone = try await device.selectIfAlone(uid: first.uid) else {
                        Issue.record("the tag was not found alone")
                        return
                    }
                    times.append(clock.now - start)
                }
                let median = times.sorted()[times.count / 2]
                print(
                    "[hil] A2 selectIfAlone (InAutoPoll, two slots) with \(first.uid.hexString()): median \(median), all \(times)"
                )
                // 150 ms is the slot's Period × 150 ms; the whole exchange at 115 200 baud is ~12 ms modelled.
                #expect(median < .milliseconds(100), "the ISO 14443-4A slot seems to last its period: \(median)")
            }
        }

        /// T2: with NFC_CNT_PWD_PROT set, an NTAG21x refuses READ_CNT until PWD_AUTH.
        /// Needs a tag whose password is still the factory one; the configuration is put back.
        @Test(
            "T2 NFC_CNT_PWD_PROT: READ_CNT is refused before PWD_AUTH and answered after it",
            .enabled(if: HardwareBench.allowsWrite, HardwareBench.writeSkipMessage), arguments: HardwareBench.tags)
        func counterPasswordProtection(tag name: String) async throws {
            let reader = try HardwareReader(tag: name)
            try await reader.withDevice { device in
                let session = try await TagSession.connect(on: device, timeout: .seconds(10))
                guard case .type2(let ntag) = session.tag, ntag.memory.configuration?.password != nil,
                    let before = try? await ntag.readConfiguration(), let enabled = before.isNFCCounterEnabled
                else {
                    try Test.cancel("\(session.chip?.rawValue ?? "this chip") has no password-protectable NFC counter")
                }
                guard !before.isProtectionActive else { try Test.cancel("the tag is password-protected already") }
                try await ntag.setNFCCounter(enabled: true, passwordProtected: true)
                try await session.reselect()
                let refused: Bool
                do {
                    _ = try await ntag.readNFCCounter()
                    refused = false
                } catch { refused = true }
                try await ntag.authenticate(password: .factoryDefault)
                let value = try await ntag.readNFCCounter()
                print("[hil] T2 READ_CNT before PWD_AUTH \(refused ? "refused" : "ANSWERED"), after: \(value)")
                try await ntag.setNFCCounter(
                    enabled: enabled, passwordProtected: before.isNFCCounterPasswordProtected ?? false)
                #expect(refused, "READ_CNT answered without PWD_AUTH while NFC_CNT_PWD_PROT is set")
            }
        }

        /// P3: an empty InCommunicateThru (libnfc's NFC Barcode probe in every `nfc-list`)
        /// answers status 01 (timeout), so `nfc-list -v` at `LIBNFC_LOG_LEVEL=1` prints no
        /// "Application level error".
        @Test("P3 nfc-list -v leaves stderr clean at LIBNFC_LOG_LEVEL=1 (the empty InCommunicateThru times out)")
        func emptyCommunicateThru() throws {
            let reader = try HardwareReader()
            let run = try LibNFCToolRun("nfc-list", ["-v"], device: reader.connectionString, logLevel: 1)
            print("[hil] P3 nfc-list -v stderr: \(run.standardError.isEmpty ? "(empty)" : run.standardError)")
            #expect(run.output.contains("UID"), "nfc-list found no tag: \(run.output)")
            #expect(!run.standardError.contains("Application level error"), "\(run.standardError)")
        }

        /// P4: InDeselect leaves a MIFARE / Type 2 target selectable by UID right away, as
        /// libfreefare needs (its `mifare-ultralight-info` lists, deselects, then selects by UID).
        @Test(
            "P4 libfreefare identifies the tag after libnfc's list (InDeselect leaves a Type 2 target in the field)",
            arguments: HardwareBench.tags)
        func libfreefareAfterList(tag name: String) async throws {
            let reader = try HardwareReader(tag: name)
            try await TagOnReader.on(reader, named: name).require(.type2, for: "P4")
            let run = try LibNFCToolRun("mifare-ultralight-info", [], device: reader.connectionString, logLevel: 0)
            guard run.launched else { try Test.cancel("libfreefare-bin is not installed") }
            print("[hil] P4 mifare-ultralight-info: \(run.output)")
            #expect(run.output.contains("UID"), "libfreefare found no tag: \(run.output) \(run.standardError)")
        }

        /// P5: a genuine MIFARE Classic refuses a WRITE of block 0 with a NAK and keeps its
        /// Crypto1 session, so `nfc-mfclassic`'s direct-write probe does not spoil its read.
        @Test(
            "P5 nfc-mfclassic reads a whole Classic card after its block-0 write probe", arguments: HardwareBench.tags)
        func classicDirectWriteProbe(tag name: String) async throws {
            let reader = try HardwareReader(tag: name)
            try await TagOnReader.on(reader, named: name).require(.classic, for: "P5")
            let dump = FileManager.default.temporaryDirectory.appendingPathComponent("hil-\(UUID().uuidString).mfd")
                .path
            defer { try? FileManager.default.removeItem(atPath: dump) }
            let run = try LibNFCToolRun(
                "nfc-mfclassic", ["r", "a", "u", dump], device: reader.connectionString, logLevel: 0)
            guard run.output.contains("MIFARE Classic") else {
                try Test.cancel("not a MIFARE Classic card: \(run.output)")
            }
            print("[hil] P5 nfc-mfclassic: \(run.output.split(separator: "\n").suffix(2).joined(separator: " / "))")
            #expect(run.output.contains("Done,"), "\(run.output)")
            #expect(!run.output.contains("failed"), "\(run.output)")
        }

        /// S1: a PN532 board on a USB-serial adapter follows SetSerialBaudRate to 460 800 baud
        /// (else 230 400), and the reader works there; at close it goes back to 115 200.
        @Test("S1 a UART PN532 runs at the fastest speed libnfc drives, and is back at 115 200 after close")
        func serialSpeed() async throws {
            let reader = try HardwareReader()
            guard reader.connectionString.hasPrefix("pn532_uart:") else { try Test.cancel("not a PN532 on a UART") }
            let device = try await reader.connect()
            let speed = await device.readerInfo?.serialSpeed
            print("[hil] S1 serial speed after connect: \(speed.map(String.init) ?? "unknown")")
            let target = try await device.waitForTarget(timeout: .seconds(10))
            #expect(!target.uid.isEmpty)
            await device.close()
            #expect(speed.map { [460_800, 230_400, 115_200].contains($0) } == true)
            // Back at 115 200: libnfc's own tool opens the plain connection string.
            let list = try LibNFCToolRun("nfc-list", [], device: reader.connectionString, logLevel: 0)
            #expect(list.output.contains("UID"), "nfc-list after close: \(list.output) \(list.standardError)")
        }

        /// S2: a PN532 on a UART keeps the speed SetSerialBaudRate gave it when the program
        /// that switched it dies: the adapter closing its port neither resets nor powers it
        /// off. libnfc's tools then get no answer at 115 200, and the next connect finds the
        /// chip at the fast speed and switches it back when it closes.
        @Test("S2 a UART PN532 left at 460 800 by a killed program: nfc-list fails, the next connect finds it")
        func speedLeftBehind() async throws {
            let reader = try HardwareReader()
            guard reader.connectionString.hasPrefix("pn532_uart:") else { try Test.cancel("not a PN532 on a UART") }
            guard let tool = Self.nfctagExecutable else { try Test.cancel("nfctag is not built next to the tests") }
            let monitor = Process()
            monitor.executableURL = tool
            monitor.arguments = ["monitor", "--json", "--device", reader.connectionString]
            let out = Pipe()
            monitor.standardOutput = out
            monitor.standardError = FileHandle.nullDevice
            try monitor.run()
            // Its first line is the connected event: the chip has been switched by then.
            let first = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
            kill(monitor.processIdentifier, SIGKILL)
            monitor.waitUntilExit()
            #expect(first.contains("connected"), "nfctag monitor: \(first)")
            let before = try LibNFCToolRun("nfc-list", [], device: reader.connectionString, logLevel: 0)
            print(
                "[hil] S2 nfc-list straight after the kill: \(before.output.contains("UID") ? "REACHED the chip" : "no answer")"
            )
            // The killed program's claim on the port (libnfc's flag in the port settings): the
            // emulator clears it once the port is closed everywhere; whether a real port keeps it shows here.
            var device: NFCDevice?
            for attempt in 1...10 where device == nil {
                do { device = try await reader.connect() } catch {
                    print("[hil] S2 connect attempt \(attempt) after the kill: \(error)")
                    try await Task.sleep(for: .milliseconds(500))
                }
            }
            let speed = await device?.readerInfo?.serialSpeed
            await device?.close()
            #expect(device != nil, "the reader stayed unreachable after the kill")
            let after = try LibNFCToolRun("nfc-list", [], device: reader.connectionString, logLevel: 0)
            print(
                "[hil] S2 connect after the kill: speed \(speed.map(String.init) ?? "unknown"); nfc-list after close: \(after.output.contains("UID") ? "reached" : "NO ANSWER")"
            )
            if reader.emulator == nil {
                #expect(!before.output.contains("UID"), "the chip answered at 115 200: it does not keep its speed")
            }
            #expect(after.output.contains("UID"), "\(after.output) \(after.standardError)")
        }

        /// `nfctag` built next to this test binary, if it is.
        private static var nfctagExecutable: URL? {
            var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            while directory.pathComponents.count > 1 {
                let candidate = directory.appendingPathComponent("nfctag")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
            return nil
        }

        /// A3: the timing model leaves out the PN532's own processing time: a raw READ costs
        /// its UART bytes (115 200 baud), its air time and the tag's answer time, plus little.
        @Test(
            "A3 a raw READ takes about its modelled time (UART + air), within 2× on a real PN532",
            arguments: HardwareBench.tags)
        func readTakesModelledTime(tag name: String) async throws {
            let reader = try HardwareReader(tag: name)
            try await reader.withDevice { device in
                let first = try await device.waitForTarget(timeout: .seconds(10))
                guard first.sak == 0x00 else { try Test.cancel("not a Type 2 tag: READ needs authentication") }
                let clock = ContinuousClock()
                let rounds = 20
                let start = clock.now
                for _ in 0..<rounds { _ = try await device.transceive([0x30, 0x04], framing: .raw(crc: .byReader)) }
                let perRead = (clock.now - start) / rounds
                // Modelled: InCommunicateThru frames (10 + 2 host bytes, ACK 6, answer 9 + 16
                // chip bytes) at 86.8 µs a byte, plus ~2 ms of air and answer time.
                let modelled = Duration.microseconds(Int((10.0 + 2 + 6 + 25) * 86.8)) + .milliseconds(2)
                print("[hil] A3 READ 04: \(perRead) per exchange, modelled \(modelled)")
                if reader.emulator == nil {
                    #expect(
                        perRead < modelled * 2, "the PN532 adds more than the model: \(perRead) against \(modelled)")
                }
            }
        }
    }
}

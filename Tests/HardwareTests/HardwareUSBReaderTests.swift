import Foundation
import NFCEmulator
import NFCTagKit
import Testing
import TestSupport

extension HardwareInTheLoop {
    /// The reader-specific assumptions of the emulated USB readers (ids U1–U12 in the DocC
    /// article "What the emulator assumes", facts in `datasheets/readers/`). Each runs only
    /// when `NFC_TEST_DEVICE` names a reader of its kind — decided from the connection
    /// string's libnfc driver, `acr122_usb` or `pn53x_usb` — and compares the real reader
    /// with the emulated one of the same kind, through libnfc's own tools and drivers.
    ///
    /// ```sh
    /// NFC_TEST_DEVICE=acr122_usb swift test --filter USBReaderAssumptions
    /// NFC_TEST_DEVICE=pn53x_usb swift test --filter USBReaderAssumptions
    /// ```
    @Suite(
        "USB reader assumptions, settled on a real ACR122U or PN533", .serialized, .timeLimit(.minutes(3)),
        .blockingCalls)
    struct USBReaderAssumptions {
        /// U1: the ACR122U's USB identity and endpoints as the emulator presents them: bulk
        /// OUT 02, bulk IN 82, interrupt IN 81; "ACS" / "ACR122U PICC Interface"; no serial
        /// string. Read from sysfs for the real reader.
        @Test("U1 the ACR122U's endpoints and strings match the emulated one's (sysfs)")
        func acr122uDescriptors() throws {
            let twin = try EmulatedTwin(of: .acr122USB)
            let claim = try #require(twin.descriptor)
            let reader = try RealReader.required(for: "U1", kinds: [.acr122USB])
            let seen = try SysfsUSBDevice.required(for: "U1", reader: reader, modelled: claim)
            print(
                "[hil] U1 real: \(seen)  emulator: endpoints \(claim.endpoints.map { String(format: "%02x", $0.address) }), \(claim.manufacturer) / \(claim.product), bcdDevice \(String(format: "%04x", claim.deviceRelease))"
            )
            #expect(
                seen.endpoints == Set(claim.endpoints.map(\.address)),
                "U1 disproved: the ACR122U's endpoints are \(seen.endpoints.sorted().map { String(format: "%02x", $0) }), the emulator's \(claim.endpoints.map { String(format: "%02x", $0.address) })"
            )
            #expect(
                seen.manufacturer == claim.manufacturer && seen.product == claim.product,
                "U1 disproved: the ACR122U calls itself \(seen.manufacturer ?? "-") / \(seen.product ?? "-"), the emulator \(claim.manufacturer) / \(claim.product)"
            )
        }

        /// U2: the PN533 (SCL3711) answers a command outside its set (InAutoPoll,
        /// SAMConfiguration) as the emulated one does, GetGeneralStatus with the same layout,
        /// and has the same bcdDevice.
        @Test(
            "U2 the PN533 answers InAutoPoll, SAMConfiguration and GetGeneralStatus as the emulated one (and its bcdDevice)"
        )
        func pn533CommandSet() throws {
            let script = ["60 01 01 10", "14 01", "04"]
            let twin = try EmulatedTwin(of: .pn53xUSB)
            let claim = try twin.tamaShell(script)
            try #require(claim.steps.count == 3, "the emulator: \(claim.steps)")
            let reader = try RealReader.required(for: "U2", kinds: [.pn53xUSB])
            let seen = try reader.tamaShell(script)
            print("[hil] U2 real: \(seen.steps)  emulator: \(claim.steps)")
            try #require(
                seen.steps.count == 3, "the real reader ran \(seen.steps.count) of 3 commands: \(seen.run.output)")
            for index in 0..<2 {
                #expect(
                    seen.steps[index].outcome == claim.steps[index].outcome,
                    "U2 disproved: the PN533 answers \(seen.steps[index].command.hexString()) with \(seen.steps[index].outcome), the emulator with \(claim.steps[index].outcome)"
                )
            }
            #expect(
                seen.steps[2].answer?.count == claim.steps[2].answer?.count,
                "U2 disproved: GetGeneralStatus is \(seen.steps[2].outcome) on the PN533, \(claim.steps[2].outcome) on the emulator (layout)"
            )
            if let descriptor = twin.descriptor,
                let device = SysfsUSBDevice.find(
                    vendor: descriptor.vendorID, product: descriptor.productID,
                    connectionString: reader.connectionString),
                device.vendorID == descriptor.vendorID, device.productID == descriptor.productID
            {
                #expect(
                    device.deviceRelease == descriptor.deviceRelease,
                    "U2 disproved: bcdDevice \(device.deviceRelease.map { String(format: "%04x", $0) } ?? "-") on the reader, \(String(format: "%04x", descriptor.deviceRelease)) on the emulator"
                )
            }
        }

        /// U3: the ACR122U's firmware passes InAutoPoll (libnfc's two types, ISO 14443-4A
        /// then MIFARE) to the PN532 inside and answers as the emulated one; NFCTagKit's
        /// alone check (one InAutoPoll) then selects the tag and a raw READ reaches it.
        @Test(
            "U3 the ACR122U runs InAutoPoll: one tag found, as on the emulated ACR122U, and the alone check selects it")
        func acr122uInAutoPoll() async throws {
            let script = ["60 01 01 20 10"]
            let reader = try RealReader.required(for: "U3", kinds: [.acr122USB])
            // The twin holds the same tag: an ISO-DEP tag is found as type 20, a Type 2 as 10.
            let twin = try await EmulatedTwin.ofRealTag(kind: .acr122USB)
            let claim = try twin.tamaShell(script)
            let claimed = try #require(claim.step(0)?.answer, "the emulator: \(claim.steps)")
            let seen = try reader.tamaShell(script)
            print("[hil] U3 real: \(seen.steps)  emulator: \(claim.steps)")
            // NbTg and the first target's type: the rest holds the tag's own identity.
            #expect(
                seen.step(0)?.answer?.prefix(2) == claimed.prefix(2),
                "U3 disproved: InAutoPoll on the ACR122U gives \(seen.step(0)?.outcome ?? "nothing"), the emulator \(claim.step(0)?.outcome ?? "nothing")"
            )
            try await HardwareReader().withDevice { device in
                let first = try await device.waitForTarget(timeout: .seconds(10))
                guard case .alone(let target) = try await device.selectIfAlone(uid: first.uid) else {
                    Issue.record(
                        "U3 disproved: NFCTagKit's alone check (InAutoPoll) on the ACR122U did not find the one tag")
                    return
                }
                if target.sak == 0x00 {
                    let answer = try await device.transceive([0x30, 0x00], framing: .raw(crc: .byReader))
                    #expect(
                        answer.bytes.count == 16,
                        "U3 disproved: READ right after InAutoPoll on the ACR122U answered \(answer)")
                }
            }
        }

        /// U4: when the PN532 inside the ACR122U holds its answer (InAutoPoll for type B
        /// with endless polls, while only a type A tag is in the field), the reader sends its
        /// empty "ICC mute" block; libnfc reports the same error as for the emulated ACR122U
        /// (which sends it at once), about as soon, and the reader answers the next command.
        /// Should the real reader stay silent, the tool is stopped after 20 s (the reader may
        /// then need plugging in again).
        @Test(
            "U4 the ACR122U's ICC-mute answer to a held command: the same error, about as soon as from the emulated reader"
        )
        func acr122uICCMute() throws {
            let script = ["60 FF 01 03", "02"]
            let twin = try EmulatedTwin(of: .acr122USB)
            let claim = try twin.tamaShell(script)
            try #require(claim.steps.count == 2 && claim.steps[0].answer == nil, "the emulator: \(claim.steps)")
            let reader = try RealReader.required(for: "U4", kinds: [.acr122USB])
            let seen = try TamaShellRun(script, device: reader.connectionString, seconds: 20)
            print(
                "[hil] U4 real: \(seen.steps) in \(seen.run.elapsed)\(seen.run.timedOut ? " (stopped after 20 s)" : "")  emulator: \(claim.steps) in \(claim.run.elapsed)"
            )
            #expect(!seen.run.timedOut, "U4 disproved: the ACR122U sent no ICC-mute answer within 20 s")
            #expect(
                seen.step(0)?.outcome == claim.step(0)?.outcome,
                "U4 disproved: libnfc reports \(seen.step(0)?.outcome ?? "nothing") for the ACR122U's answer to a held command, \(claim.step(0)?.outcome ?? "nothing") for the emulator's"
            )
            #expect(
                seen.step(1)?.answer != nil,
                "U4 disproved: after the ICC-mute answer the ACR122U did not answer GetFirmwareVersion: \(seen.steps)")
            #expect(
                seen.run.elapsed < claim.run.elapsed + .seconds(1),
                "U4 disproved: the ACR122U waits \(seen.run.elapsed - claim.run.elapsed) longer than the emulator before its ICC-mute answer"
            )
        }

        /// U5: the ACR122U carries answers up to its frame limit as the emulated one does:
        /// FAST_READ through InCommunicateThru for 240, 248, 252 and 256 bytes (an NTAG215
        /// or NTAG216 on the reader); the emulated ACR122U refuses what does not fit in
        /// 255 bytes of APDU.
        @Test("U5 the ACR122U's frame limit: FAST_READ answers of 240–256 bytes pass or fail as on the emulated reader")
        func acr122uFrameLimit() throws {
            // GET_VERSION to know the chip, then pages 4… for 60, 62, 63 and 64 pages.
            let script = ["4A 01 00", "42 60", "42 3A 04 3F", "42 3A 04 41", "42 3A 04 42", "42 3A 04 43"]
            let twin = try EmulatedTwin(of: .acr122USB)
            let claim = try twin.tamaShell(script)
            try #require(claim.steps.count == 6, "the emulator: \(claim.steps)")
            let reader = try RealReader.required(for: "U5", kinds: [.acr122USB])
            let seen = try reader.tamaShell(script)
            print(
                "[hil] U5 real: \(seen.steps.map { "\($0.command.hexString()): \($0.answer.map { "\($0.count) bytes" } ?? $0.outcome)" })  emulator: \(claim.steps.map { "\($0.command.hexString()): \($0.answer.map { "\($0.count) bytes" } ?? $0.outcome)" })"
            )
            // GET_VERSION's storage-size byte (after the chip's status byte): 11 NTAG215, 13 NTAG216.
            guard let version = seen.step(1)?.answer, version.count >= 8, [0x11, 0x13].contains(version[7]) else {
                try Test.cancel("U5 reads 64 pages: it needs an NTAG215 or NTAG216 on the reader")
            }
            for index in 2..<6 {
                #expect(
                    seen.step(index)?.answer?.count == claim.step(index)?.answer?.count,
                    "U5 disproved: FAST_READ \(seen.step(index)?.command.hexString() ?? "") gives \(seen.step(index)?.answer.map { "\($0.count) bytes" } ?? seen.step(index)?.outcome ?? "nothing") on the ACR122U, \(claim.step(index)?.answer.map { "\($0.count) bytes" } ?? claim.step(index)?.outcome ?? "nothing") on the emulator"
                )
            }
        }

        /// U6: with libnfc's USB drivers taking 200 ms off every wait, NFCTagKit's waits
        /// still let each command through, and a tag that stays silent (HLTA gets no answer)
        /// is a failed command, not a lost reader: the device stays connected and the next
        /// READ works, as on the emulated readers (`nfctag` in a child process there).
        @Test(
            "U6 on a USB reader NFCTagKit's waits survive the driver's 200 ms, and a silent tag does not lose the reader"
        )
        func usbWaitsAndSilentTag() async throws {
            let reader = try RealReader.required(for: "U6", kinds: [.acr122USB, .pn53xUSB])
            try await HardwareReader().withDevice { device in
                let target = try await device.waitForTarget(timeout: .seconds(10))
                guard target.sak == 0x00 else { try Test.cancel("U6 sends Type 2 READs: it needs a Type 2 tag") }
                let clock = ContinuousClock()
                var times: [Duration] = []
                for _ in 0..<20 {
                    let start = clock.now
                    let answer = try await device.transceive([0x30, 0x04], framing: .raw(crc: .byReader))
                    times.append(clock.now - start)
                    #expect(answer.bytes.count == 16)
                }
                await #expect(throws: NFCDeviceError.self, "HLTA answered") {
                    _ = try await device.transceive([0x50, 0x00], framing: .raw(crc: .byReader))
                }
                let status = await device.status
                print(
                    "[hil] U6 \(reader.connectionString): READ median \(times.sorted()[10]), after a silent HLTA the device is \(status)"
                )
                #expect(
                    status == .connected,
                    "U6 disproved: a silent tag on \(reader.kind.rawValue) left the device \(status)")
                try await device.resetField()
                _ = try await device.waitForTarget(timeout: .seconds(5))
                let after = try await device.transceive([0x30, 0x04], framing: .raw(crc: .byReader))
                #expect(after.bytes.count == 16, "U6 disproved: no READ after the silent tag: \(after)")
            }
        }

        /// U7: a PN533 has no InAutoPoll, so NFCTagKit's alone check lists the field instead:
        /// with one tag it finds the tag alone and leaves it selected for a raw READ.
        @Test("U7 on a PN533 the alone check without InAutoPoll finds the one tag and leaves it selected")
        func pn533AloneCheck() async throws {
            let twin = try EmulatedTwin(of: .pn53xUSB)
            let claim = try twin.tamaShell(["60 01 01 10"])
            #expect(claim.step(0)?.answer == nil, "the emulated PN533 answered InAutoPoll: \(claim.steps)")
            let reader = try RealReader.required(for: "U7", kinds: [.pn53xUSB])
            let seen = try reader.tamaShell(["60 01 01 10"])
            print("[hil] U7 InAutoPoll on the PN533: \(seen.steps)")
            #expect(
                seen.step(0)?.answer == nil,
                "U7 disproved: the PN533 answers InAutoPoll (\(seen.step(0)?.outcome ?? "")): the alone check could use it"
            )
            try await HardwareReader().withDevice { device in
                let first = try await device.waitForTarget(timeout: .seconds(10))
                guard case .alone(let target) = try await device.selectIfAlone(uid: first.uid) else {
                    Issue.record(
                        "U7 disproved: the listing alone check on \(reader.connectionString) did not find the one tag")
                    return
                }
                if target.sak == 0x00 {
                    let answer = try await device.transceive([0x30, 0x00], framing: .raw(crc: .byReader))
                    #expect(
                        answer.bytes.count == 16, "U7 disproved: READ after the listing alone check answered \(answer)")
                }
            }
        }

        /// U8: the firmware a USB reader reports (GetFirmwareVersion through libnfc) and
        /// libnfc's name for it (from the USB strings, as its scan lists it) are the emulated
        /// reader's: PN532 v1.6 inside the ACR122U, PN533 v2.7 in the SCL3711.
        @Test("U8 the USB reader's firmware and libnfc name match the emulated one's")
        func usbFirmwareAndName() throws {
            let reader = try RealReader.required(for: "U8", kinds: [.acr122USB, .pn53xUSB])
            let twin = try EmulatedTwin(of: reader.kind)
            let claim = try twin.tamaShell(["02"], logLevel: 3)
            let seen = try reader.tamaShell(["02"], logLevel: 3)
            // The ACR122U's own firmware string, where libnfc's log shows one (ASCII in an answer).
            let readerString =
                LibNFCLog(seen.run.standardError).frames.filter { !$0.sent }
                .map { String(decoding: $0.bytes.filter { (0x20...0x7E).contains($0) }, as: UTF8.self) }
                .first { $0.contains("ACR122") } ?? "not in libnfc's log"
            let claimedName = try scannedReaderName(twin.connectionString, environment: twin.environment)
            let seenName = try scannedReaderName(reader.connectionString)
            print(
                "[hil] U8 real: \(seenName ?? "not listed"), \(seen.steps), reader's own string: \(readerString)  emulator: \(claimedName ?? "not listed"), \(claim.steps)"
            )
            #expect(
                seen.step(0)?.outcome == claim.step(0)?.outcome,
                "U8 disproved: GetFirmwareVersion is \(seen.step(0)?.outcome ?? "nothing") on the real \(reader.kind.rawValue), \(claim.step(0)?.outcome ?? "nothing") on the emulator"
            )
            #expect(
                seenName == claimedName,
                "U8 disproved: libnfc names the reader \(seenName ?? "nothing"), the emulated one \(claimedName ?? "nothing")"
            )
        }

        /// U9: serial numbers — the ACR122U has no serial string (so a replugged one is found
        /// again by product, not serial); the SCL3711's serial string is present and stays
        /// the same across a replug (the emulator makes one from its socket path).
        @Test("U9 the USB reader's serial number is there (SCL3711) or missing (ACR122U) as on the emulated one")
        func usbSerialNumber() throws {
            let reader = try RealReader.required(for: "U9", kinds: [.acr122USB, .pn53xUSB])
            let twin = try EmulatedTwin(of: reader.kind)
            let claim = try #require(twin.descriptor)
            let seen = try SysfsUSBDevice.required(for: "U9", reader: reader, modelled: claim)
            print(
                "[hil] U9 real serial: \(seen.serial ?? "none")  emulator: \(claim.serialNumber.isEmpty ? "none" : claim.serialNumber)"
            )
            #expect(
                (seen.serial ?? "").isEmpty == claim.serialNumber.isEmpty,
                "U9 disproved: the real \(reader.kind.rawValue) has \(seen.serial.map { "serial \($0)" } ?? "no serial"), the emulated one \(claim.serialNumber.isEmpty ? "none" : claim.serialNumber)"
            )
        }

        /// U10: a USB reader plugged out and back into the same socket keeps its serial string
        /// (where it has one) and its port path, as the emulated readers do (both fixed by
        /// `--link`); the ACR122U's relocation between two attached units rests on the port.
        /// A person replugs the reader while the scenario waits (`NFC_TEST_REPLUG=1`).
        @Test("U10 a USB reader plugged out and into the same socket keeps its serial and port (sysfs)")
        func usbReplugKeepsIdentity() async throws {
            let reader = try RealReader.required(for: "U10", kinds: [.acr122USB, .pn53xUSB])
            guard HardwareBench.personSetUp("NFC_TEST_REPLUG") else {
                try Test.cancel(
                    "U10 needs a person to plug the reader out and back into the same socket: set NFC_TEST_REPLUG=1")
            }
            let claim = try #require(try EmulatedTwin(of: reader.kind).descriptor)
            let before = try SysfsUSBDevice.required(for: "U10", reader: reader, modelled: claim)
            func present() -> SysfsUSBDevice? {
                SysfsUSBDevice.find(vendor: claim.vendorID, product: claim.productID, connectionString: "")
            }
            print("[hil] U10: plug the reader out, then back into the same socket, within 60 s")
            let deadline = ContinuousClock.now + .seconds(60)
            while present() != nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(200)) }
            try #require(present() == nil, "U10: the reader was not plugged out within 60 s")
            var after: SysfsUSBDevice?
            while after == nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
                after = present()
            }
            let back = try #require(after, "U10: the reader was not plugged back in within 60 s")
            print(
                "[hil] U10 before: port \(before.port), serial \(before.serial ?? "none")  after: port \(back.port), serial \(back.serial ?? "none")"
            )
            #expect(
                back.serial == before.serial,
                "U10 disproved: the serial changed across a replug (\(before.serial ?? "none") → \(back.serial ?? "none"))"
            )
            #expect(
                back.port == before.port, "U10 disproved: the same socket gave port \(back.port), before \(before.port)"
            )
        }

        /// U12: a random-ID tag (ISO/IEC 14443-3 single-size UID `08 …`: a bank card, a
        /// passport, a phone, an NTAG 424 DNA with its random ID on) draws a new ID when the
        /// field comes back. On a reader without InAutoPoll the alone check lists the field
        /// and the listing ends with a field reset, so NFCTagKit selects the lone tag as it
        /// answers after it, not by the ID the listing saw. The emulated half is
        /// `NTAG424DNATests.randomID`, run on each USB kind by scripts/test-reader-kinds. A
        /// person lays such a tag on the reader (`NFC_TEST_RANDOM_ID_TAG=1`).
        @Test("U12 a random-ID tag on a USB reader: a new ID after each field reset, and TagSession connects to it")
        func usbRandomIDTag() async throws {
            let reader = try RealReader.required(for: "U12", kinds: [.acr122USB, .pn53xUSB])
            guard HardwareBench.personSetUp("NFC_TEST_RANDOM_ID_TAG") else {
                try Test.cancel(
                    "U12 needs a tag with a random ID (UID 08…) on the reader: set NFC_TEST_RANDOM_ID_TAG=1")
            }
            try await HardwareReader().withDevice { device in
                let first = try await device.waitForTarget(timeout: .seconds(10))
                try #require(
                    first.hasRandomUID,
                    "U12: the tag on \(reader.connectionString) has UID \(first.uidHex), not a random ID")
                try await device.resetField()
                let second = try #require(
                    try await device.selectTarget(), "U12: the tag did not answer after a field reset")
                print("[hil] U12 random IDs across a field reset: \(first.uidHex) → \(second.uidHex)")
                #expect(second.hasRandomUID, "U12 disproved: after a field reset the tag answers \(second.uidHex)")
                let session = try await TagSession.connect(on: device, timeout: .seconds(10))
                #expect(
                    session.uid.count == 4 && session.uid.first == 0x08, "U12 disproved: connected to \(session.uid)")
            }
        }
    }
}

/// A USB device as Linux shows it in `/sys/bus/usb/devices`: plain files, read without
/// opening the device (libnfc may hold it).
struct SysfsUSBDevice: CustomStringConvertible {
    var vendorID: UInt16
    var productID: UInt16
    var manufacturer: String?
    var product: String?
    var serial: String?
    var deviceRelease: UInt16?
    /// Endpoint addresses of its interfaces (`ep_82` → 0x82), endpoint 0 left out.
    var endpoints: Set<UInt8>
    /// The kernel's name for the socket it is plugged into (`1-4.2`): its sysfs directory.
    var port: String = ""

    /// The device at the bus and device number of a connection string `driver:BBB:DDD`;
    /// for a connection string without them, the first `vendor:product`.
    static func find(
        vendor: UInt16, product: UInt16, connectionString: String,
        root: URL = URL(fileURLWithPath: "/sys/bus/usb/devices")
    ) -> SysfsUSBDevice? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root.path) else { return nil }
        let parts = connectionString.split(separator: ":").dropFirst().compactMap { Int($0) }
        func read(_ directory: URL, _ file: String) -> String? {
            (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        for name in names.sorted() where !name.contains(":") {
            let directory = root.appendingPathComponent(name)
            guard let vendorID = read(directory, "idVendor").flatMap({ UInt16($0, radix: 16) }),
                let productID = read(directory, "idProduct").flatMap({ UInt16($0, radix: 16) })
            else { continue }
            if parts.count == 2 {
                guard read(directory, "busnum").flatMap({ Int($0) }) == parts[0],
                    read(directory, "devnum").flatMap({ Int($0) }) == parts[1]
                else { continue }
            } else if vendorID != vendor || productID != product {
                continue
            }
            var endpoints: Set<UInt8> = []
            for interface in names where interface.hasPrefix(name + ":") {
                let entries =
                    (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(interface).path))
                    ?? []
                for entry in entries where entry.hasPrefix("ep_") {
                    if let address = UInt8(entry.dropFirst(3), radix: 16), address != 0 { endpoints.insert(address) }
                }
            }
            return SysfsUSBDevice(
                vendorID: vendorID, productID: productID, manufacturer: read(directory, "manufacturer"),
                product: read(directory, "product"),
                serial: read(directory, "serial"),
                deviceRelease: read(directory, "bcdDevice").flatMap { UInt16($0, radix: 16) },
                endpoints: endpoints, port: name)
        }
        return nil
    }

    var description: String {
        String(format: "%04x:%04x ", vendorID, productID)
            + "\(manufacturer ?? "-") / \(product ?? "-"), serial \(serial ?? "none"), bcdDevice \(deviceRelease.map { String(format: "%04x", $0) } ?? "-"), endpoints \(endpoints.sorted().map { String(format: "%02x", $0) })"
    }
}

extension SysfsUSBDevice {
    /// The real reader's sysfs entry, required to be the product the emulator models
    /// (an NXP PN533 board is `04cc:2533`, the emulated PN533 is an SCL3711): cancels otherwise.
    static func required(for id: String, reader: RealReader, modelled: NFCEmulator.USBDeviceDescriptor) throws
        -> SysfsUSBDevice
    {
        let product = String(format: "%04x:%04x", modelled.vendorID, modelled.productID)
        if HardwareBench.environment["NFCTAG_USB_EMULATION"] != nil {
            try Test.cancel(
                "\(id) needs a USB reader on the bus (its sysfs entry); an emulated reader behind the USB stand-in has none"
            )
        }
        let device = try #require(
            find(vendor: modelled.vendorID, product: modelled.productID, connectionString: reader.connectionString),
            "\(reader.connectionString) is not in /sys/bus/usb/devices (is it plugged in?)")
        guard device.vendorID == modelled.vendorID, device.productID == modelled.productID else {
            try Test.cancel(
                "\(id) compares with the emulated \(product) (\(modelled.product)); this reader is \(String(format: "%04x:%04x", device.vendorID, device.productID))"
            )
        }
        return device
    }
}

/// The sysfs reader the USB scenarios rely on, against a tree laid out as Linux lays out
/// `/sys/bus/usb/devices` (a machine without USB has none to read).
@Suite("sysfs USB devices as the USB scenarios read them", .blockingCalls)
struct SysfsUSBDeviceTests {
    static func tree() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hil-sysfs-\(UUID().uuidString)")
        func device(_ name: String, _ files: [String: String], interfaces: [String: [String]]) throws {
            let directory = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("ep_00"), withIntermediateDirectories: true)
            for (file, text) in files {
                try (text + "\n").write(to: directory.appendingPathComponent(file), atomically: true, encoding: .utf8)
            }
            for (interface, endpoints) in interfaces {
                for endpoint in endpoints {
                    try FileManager.default.createDirectory(
                        at: root.appendingPathComponent("\(name):\(interface)/\(endpoint)"),
                        withIntermediateDirectories: true)
                }
            }
        }
        try device(
            "usb1", ["idVendor": "1d6b", "idProduct": "0002", "busnum": "1", "devnum": "1"],
            interfaces: ["1.0": ["ep_81"]])
        try device(
            "1-1",
            [
                "idVendor": "072f", "idProduct": "2200", "busnum": "1", "devnum": "4", "bcdDevice": "0214",
                "manufacturer": "ACS", "product": "ACR122U PICC Interface",
            ],
            interfaces: ["1.0": ["ep_02", "ep_82", "ep_81"]])
        try device(
            "1-1.2",
            [
                "idVendor": "04e6", "idProduct": "5591", "busnum": "1", "devnum": "7", "bcdDevice": "0100",
                "manufacturer": "SCM Micro", "product": "SCL3711-NFC&RW", "serial": "1234ABCD",
            ],
            interfaces: ["1.0": ["ep_04", "ep_84"]])
        return root
    }

    @Test("a reader is found by the connection string's bus and device number, with its strings and endpoints")
    func byAddress() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let acr = try #require(
            SysfsUSBDevice.find(vendor: 0x072F, product: 0x2200, connectionString: "acr122_usb:001:004", root: root))
        #expect(acr.endpoints == [0x02, 0x82, 0x81])
        #expect(acr.manufacturer == "ACS" && acr.product == "ACR122U PICC Interface" && acr.serial == nil)
        #expect(acr.deviceRelease == 0x0214)
        // The address wins over the product asked for: a PN533 board at 001:007 is what it is.
        let other = try #require(
            SysfsUSBDevice.find(vendor: 0x04CC, product: 0x2533, connectionString: "pn53x_usb:001:007", root: root))
        #expect(
            other.vendorID == 0x04E6 && other.productID == 0x5591 && other.serial == "1234ABCD"
                && other.endpoints == [0x04, 0x84])
        #expect(
            SysfsUSBDevice.find(vendor: 0x072F, product: 0x2200, connectionString: "acr122_usb:001:009", root: root)
                == nil)
    }

    @Test("without an address, the first device of the product")
    func byProduct() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(
            SysfsUSBDevice.find(vendor: 0x04E6, product: 0x5591, connectionString: "pn53x_usb", root: root)?
                .deviceRelease == 0x0100)
        #expect(SysfsUSBDevice.find(vendor: 0x04CC, product: 0x2533, connectionString: "pn53x_usb", root: root) == nil)
    }
}

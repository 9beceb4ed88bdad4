import Foundation
import NFCEmulator
import NFCTagKit
import Testing
import TestSupport

extension HardwareInTheLoop {
    /// Reads only: the reader, the tag's identity, its NDEF message, counters and signature,
    /// and getting the reader back after a loss. Safe on any tag.
    @Suite("Hardware in the loop: reader, identification, reads", .serialized, .timeLimit(.minutes(2)), .blockingCalls)
    struct HardwareReaderTests {
        @Test("connect: the reader answers with its name and firmware, status connected, a connected event")
        func connect() async throws {
            let reader = try HardwareReader()
            let device = NFCDevice()
            let events = device.events
            var configuration = ConnectionConfiguration()
            configuration.lastReaderStore = nil
            let info = try await device.connect(
                toConnectionString: reader.connectionString, configuration: configuration)
            #expect(!info.name.isEmpty)
            #expect(await device.status == .connected)
            var iterator = events.makeAsyncIterator()
            let first = await iterator.next()
            #expect(first?.name == "connected", "\(String(describing: first))")
            await device.close()
            #expect(await device.status == .notConnected)
        }

        @Test(
            "scan and identify: one tag, its UID, a chip from GET_VERSION / ATQA / SAK; the NDEF session sees the same tag",
            arguments: HardwareBench.tags)
        func identify(tag name: String) async throws {
            let reader = try HardwareReader(tag: name)
            let device = try await reader.connect()
            let session = try await TagSession.connect(on: device, timeout: .seconds(10))
            #expect(!session.uid.isEmpty)
            print(
                "[hil] \(reader.connectionString): tag \(session.uid.hexString()) identified as \(session.chip?.rawValue ?? "unknown") (\(session.identification))"
            )
            if reader.emulator != nil {
                #expect(
                    session.chip?.rawValue == name,
                    "the emulated \(name) was identified as \(String(describing: session.chip))")
            }
            let ndef = NDEFSession(device: device)
            try await ndef.begin()
            let tags = try await ndef.waitForTags(timeout: .seconds(10))
            #expect(tags.map(\.uid) == [session.uid])
            #expect(tags.first?.chip == session.chip)
            await ndef.invalidate()
            await device.close()
        }

        @Test(
            "alone in the field: one reader command selects the tag, and a raw READ answers at once (InCommunicateThru right after the PN532's InAutoPoll)",
            arguments: HardwareBench.tags)
        func selectIfAloneThenRaw(tag name: String) async throws {
            let reader = try HardwareReader(tag: name)
            try await reader.withDevice { device in
                let first = try await device.waitForTarget(timeout: .seconds(10))
                guard case .alone(let target) = try await device.selectIfAlone(uid: first.uid) else {
                    Issue.record("the tag on the reader was not found alone")
                    return
                }
                #expect(target.uid == first.uid)
                guard target.sak == 0x00 else {
                    try Test.cancel("not a Type 2 tag (SAK \(target.sak)): READ needs more than a select")
                }
                // Every NDEF write relies on this: the selected tag answers raw frames without another select.
                let answer = try await device.transceive([0x30, 0x00], framing: .raw(crc: .byReader))
                #expect(answer.bytes.count == 16, "READ 00 after selectIfAlone answered \(answer.bytes.count) bytes")
            }
        }

        @Test(
            "read NDEF: status, capacity, and the message (skipped on a tag without NDEF)",
            arguments: HardwareBench.tags)
        func readNDEF(tag name: String) async throws {
            let reader = try HardwareReader(tag: name)
            try await reader.withDevice { device in
                let session = NDEFSession(device: device)
                try await session.begin()
                let tags = try await session.waitForTags(timeout: .seconds(10))
                let tag = try await session.connect(to: try #require(tags.first))
                let status = try await tag.queryNDEFStatus()
                print("[hil] NDEF \(status.availability), capacity \(status.capacity), length \(status.length)")
                if case .notSupported = status.availability {
                    await session.invalidate()
                    try Test.cancel("the tag holds no NDEF structure (format it to run this scenario)")
                }
                #expect(status.capacity > 0)
                let message = try await tag.readNDEF()
                #expect(try message.records.isEmpty ? status.length == 0 : message.encoded().count == status.length)
                await session.invalidate()
            }
        }

        @Test(
            "originality signature: READ_SIG verifies (NXP's key on a real tag, the emulator's key otherwise)",
            arguments: HardwareBench.tags)
        func signature(tag name: String) async throws {
            let reader = try HardwareReader(tag: name)
            try await reader.withDevice { device in
                let session = try await TagSession.connect(on: device, timeout: .seconds(10))
                guard case .type2(let ntag) = session.tag, let chip = ntag.chip,
                    ChipTables.spec(for: chip).command(.readSignature) != nil
                else {
                    try Test.cancel("\(session.chip?.rawValue ?? "this chip") has no READ_SIG")
                }
                let report = try await ntag.verifyOriginality(publicKey: reader.signingKey)
                print("[hil] signature \(report.signature.hexString()): \(report.verification)")
                #expect(report.uid == session.uid)
                if case .noKeyKnown = report.verification {
                    try Test.cancel("no originality key is known for \(chip.rawValue)")
                }
                if !report.verification.isValid, reader.emulator == nil, reader.signingKey == nil {
                    // NXP's key does not verify it: information about the tag (a clone, a UID
                    // changed), not a failure of the library, which read and checked it.
                    try Test.cancel(
                        "outcome: not a genuine NXP chip — the signature of \(chip.rawValue) \(session.uid.hexString()) does not verify with NXP's key"
                    )
                }
                #expect(report.verification.isValid, "not an original chip for this key, or the UID was changed")
            }
        }

        @Test(
            "counters: the NTAG NFC counter (switched on for the read, off again after) or the Ultralight EV1 counters",
            arguments: HardwareBench.tags)
        func counters(tag name: String) async throws {
            let reader = try HardwareReader(tag: name)
            try await reader.withDevice { device in
                let session = try await TagSession.connect(on: device, timeout: .seconds(10))
                guard case .type2(let ntag) = session.tag else {
                    try Test.cancel("\(session.chip?.rawValue ?? "this chip") is not an NTAG21x / Ultralight EV1")
                }
                switch ntag.counterAddresses.count {
                case 0:
                    try Test.cancel("\(session.chip?.rawValue ?? "this chip") has no counter READ_CNT reads")
                case 1:
                    let wasEnabled = try await ntag.readConfiguration().isNFCCounterEnabled != false
                    if !wasEnabled {
                        guard HardwareBench.allowsWrite else {
                            try Test.cancel(
                                "the NFC counter is disabled; enabling it writes the configuration: set NFC_TEST_ALLOW_WRITE=1"
                            )
                        }
                        _ = try await ntag.setNFCCounter(enabled: true)
                    }
                    let first = try await ntag.readNFCCounter()
                    #expect(first >= 0)
                    // The counter counts the first read after each power-up: select the tag afresh.
                    try await device.resetField()
                    try await session.reselect()
                    _ = try await ntag.read(page: ntag.memory.firstUserPage)
                    let second = try await ntag.readNFCCounter()
                    #expect(second >= first, "the NFC counter went down: \(first) → \(second)")
                    print("[hil] NFC counter \(first) → \(second)")
                    // Leave the tag as it was found: the counter off again when it was off.
                    if !wasEnabled { _ = try await ntag.setNFCCounter(enabled: false) }
                default:
                    let values = try await ntag.readCounters()
                    #expect(values.count == ntag.counterAddresses.count)
                    #expect(values.allSatisfy { $0 >= 0 && $0 < 1 << 24 })
                    print("[hil] counters \(values)")
                }
            }
        }

        @Test(
            "the reader lost and back: reconnectStarted then reconnectSucceeded (unplugged on the emulator, reset on a real reader)"
        )
        func reconnect() async throws {
            let reader = try HardwareReader()
            let device = try await reader.connect()
            let events = device.events
            let watcher = Task { () -> [String] in
                var names: [String] = []
                for await event in events {
                    names.append(event.name)
                    if event.name == "reconnectSucceeded" || event.name == "disconnected" { break }
                }
                return names
            }
            if let emulator = reader.emulator {
                emulator.unplug()
                try await Task.sleep(for: .milliseconds(700))  // the liveness check notices the idle reader
                try emulator.plug()
            } else {
                try await device.reset()
            }
            let names = await watcher.value
            #expect(names.suffix(2) == ["reconnectStarted", "reconnectSucceeded"], "\(names)")
            #expect(await device.status == .connected)
            // The tag is there again.
            let session = try await TagSession.connect(on: device, timeout: .seconds(10))
            #expect(!session.uid.isEmpty)
            await device.close()
        }
    }
}

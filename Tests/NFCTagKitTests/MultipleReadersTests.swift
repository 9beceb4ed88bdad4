import Foundation
import NFCEmulator
@testable import NFCTagKit
import Testing
import TestSupport

@Suite("Several readers on one host, and reconnect-at-start", .tags(.reader))
struct MultipleReadersTests {
    @Test("two emulated readers, each with its own device actor, work in parallel")
    func twoReadersInParallel() async throws {
        let first = try EmulatorFixture(tags: [PageTag(uid: TestUID.first)])
        let second = try EmulatorFixture(tags: [PageTag(uid: TestUID.second)])
        defer {
            first.stop()
            second.stop()
        }
        try await withTimeLimit(seconds: 30) {
            let devices = (NFCDevice(), NFCDevice())
            try await devices.0.connect(to: first.reader, configuration: first.configuration(liveness: nil))
            try await devices.1.connect(to: second.reader, configuration: second.configuration(liveness: nil))
            async let a: [[UInt8]] = Self.readLoop(devices.0)
            async let b: [[UInt8]] = Self.readLoop(devices.1)
            let (uidsA, uidsB) = try await (a, b)
            #expect(Set(uidsA) == [TestUID.first])
            #expect(Set(uidsB) == [TestUID.second])
            // Unplugging one reader leaves the other alone.
            first.emulator.unplug()
            await #expect(throws: NFCDeviceError.connectionLost(.unplugged)) { try await devices.0.selectTarget() }
            #expect(try await devices.1.selectTarget()?.uid == TestUID.second)
            await devices.0.close()
            await devices.1.close()
        }
    }

    static func readLoop(_ device: NFCDevice) async throws -> [[UInt8]] {
        var uids: [[UInt8]] = []
        for _ in 0..<10 {
            let target = try await device.waitForTarget(timeout: .seconds(5))
            uids.append(target.uid)
            _ = try await device.transceive([0x30, 0x00])
            // Deselect halts the tag; a field reset brings it back for the next round.
            try await device.deselectTarget()
            try await device.resetField()
        }
        return uids
    }

    @Test("connectToLastReader finds the saved reader and connects; status goes discovering, connecting, connected")
    func connectToLastReader() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let store = LastReaderStore(path: fixture.directory.file("last-reader.json"))
            // A first session saves the reader.
            let earlier = NFCDevice()
            try await earlier.connect(to: fixture.reader, configuration: fixture.configuration(liveness: nil))
            await earlier.close()
            #expect(store.load()?.connectionString == fixture.connectionString)

            let device = NFCDevice()
            let statuses = device.statusUpdates
            var discovery = DiscoveryOptions()
            discovery.libnfcScan = false
            discovery.usbHotPlug = nil
            discovery.rescanInterval = .milliseconds(100)
            let info = try await device.connectToLastReader(
                timeout: .seconds(10), configuration: fixture.configuration(liveness: nil),
                store: store, discovery: discovery)
            #expect(info.connectionString == fixture.connectionString)
            var seen: [ConnectionStatus] = []
            for await status in statuses {
                seen.append(status)
                if status == .connected { break }
            }
            #expect(seen == [.notConnected, .discovering, .connecting, .connected])
            #expect(try await device.selectTarget()?.uid == TestUID.first)
            await device.close()
        }
    }

    @Test("connectToLastReader stops discovering at the timeout when the saved reader is absent")
    func lastReaderAbsent() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let store = LastReaderStore(path: fixture.directory.file("last-reader.json"))
            try store.save(
                .init(connectionString: "pn532_uart:" + fixture.directory.file("gone"), name: "old bench reader"))
            var discovery = DiscoveryOptions()
            discovery.libnfcScan = false
            discovery.usbHotPlug = nil
            discovery.rescanInterval = .milliseconds(50)
            let device = NFCDevice()
            do {
                try await device.connectToLastReader(timeout: .milliseconds(400), store: store, discovery: discovery)
                Issue.record("connected to a reader that is not there")
            } catch let error as NFCDeviceError {
                guard case .readerNotFound(let what) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(what.contains("old bench reader"))
            }
            #expect(await device.status == .notConnected)
            let empty = NFCDevice()
            await #expect(
                throws: NFCDeviceError.readerNotFound("no reader saved in \(fixture.directory.file("none.json"))")
            ) {
                try await empty.connectToLastReader(
                    timeout: .seconds(1), store: LastReaderStore(path: fixture.directory.file("none.json")))
            }
        }
    }

    @Test("watchTags reports a tag arriving and leaving")
    func watchTags() async throws {
        let fixture = try EmulatorFixture(tags: [])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = NFCDevice()
            let log = EventLog(device)
            try await device.connect(to: fixture.reader, configuration: fixture.configuration(liveness: nil))
            let watch = Task { try await device.watchTags(interval: .milliseconds(30), identifyChips: false) }
            let handle = fixture.emulator.insert(PageTag(uid: TestUID.second))
            try await log.wait(for: "tagDetected")
            fixture.emulator.remove(handle)
            try await log.wait(for: "tagRemoved")
            watch.cancel()
            _ = await watch.result
            let expected: [ReaderEvent] = [
                .connected(try #require(await device.readerInfo)),
                .tagDetected(uid: TestUID.second, chip: nil), .tagRemoved(uid: TestUID.second),
            ]
            #expect(log.all.map(\.description) == expected.map(\.description))
            await device.close()
        }
    }

    @Test("watchTags reports a FeliCa card, a type B card and a Topaz arriving and leaving, one after another")
    func watchOtherTechnologies() async throws {
        let fixture = try EmulatorFixture(tags: [])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = NFCDevice()
            let log = EventLog(device)
            try await device.connect(to: fixture.reader, configuration: fixture.configuration(liveness: nil))
            let watch = Task { try await device.watchTags(interval: .milliseconds(30)) }
            let cards: [any EmulatedTag] = [
                FeliCaLiteSTag(idm: EmulatedTagFactory.feliCaDefaultIDm(), ndef: true),
                try Type4Tag(typeBPUPI: [0xB1, 0x22, 0x33, 0x44]),
                Type1Tag(chip: .topaz, uid: [0x3C, 0x56, 0x54, 0x00, 0x11, 0x22, 0x33]),
            ]
            for (index, card) in cards.enumerated() {
                let handle = fixture.emulator.insert(card)
                try await log.wait(for: "tagDetected", count: index + 1)
                fixture.emulator.remove(handle)
                try await log.wait(for: "tagRemoved", count: index + 1)
            }
            watch.cancel()
            _ = await watch.result
            let expected: [ReaderEvent] = [
                .connected(try #require(await device.readerInfo)),
                .tagDetected(uid: EmulatedTagFactory.feliCaDefaultIDm(), chip: nil),
                .tagRemoved(uid: EmulatedTagFactory.feliCaDefaultIDm()),
                .tagDetected(uid: [0xB1, 0x22, 0x33, 0x44], chip: .type4), .tagRemoved(uid: [0xB1, 0x22, 0x33, 0x44]),
                .tagDetected(uid: [0x3C, 0x56, 0x54, 0x00, 0x11, 0x22, 0x33], chip: nil),
                .tagRemoved(uid: [0x3C, 0x56, 0x54, 0x00, 0x11, 0x22, 0x33]),
            ]
            #expect(log.all.map(\.description) == expected.map(\.description))
            await device.close()
        }
    }
}

import Foundation
import NFCEmulator
@testable import NFCTagKit
import Testing
import TestSupport

@Suite("Reader discovery")
struct ReaderDiscoveryTests {
    static func options(_ connectionStrings: [String], usb: (any USBHotPlugBackend)? = nil) -> DiscoveryOptions {
        var options = DiscoveryOptions()
        options.connectionStrings = connectionStrings
        options.usbHotPlug = usb
        options.libnfcScan = false
        options.rescanInterval = .milliseconds(100)
        return options
    }

    static let noHolders = ReaderInUse.SystemFacts(
        loadedModules: { [] }, processNames: { [] }, portClaimed: { _ in false })

    @Test("a named emulator link is found by opening it, with firmware; unplug and plug update the list")
    func namedEmulatorLink() async throws {
        let fixture = try EmulatorFixture(kind: .pn532)
        defer { fixture.stop() }
        let missing = fixture.directory.file("no-reader-here")
        let lists = try await withTimeLimit(seconds: 30) {
            var lists: [[NFCReader]] = []
            let stream = NFCDevice.discoverReaders(
                timeout: .seconds(20), options: Self.options([fixture.connectionString, "pn532_uart:" + missing]))
            for await readers in stream {
                lists.append(readers)
                switch lists.count {
                case 1: fixture.emulator.unplug()
                case 2: try fixture.emulator.plug()
                default: break
                }
                if lists.count == 3 { break }
            }
            return lists
        }
        #expect(
            lists.map { $0.map(\.connectionString) } == [[fixture.connectionString], [], [fixture.connectionString]])
        let reader = try #require(lists.first?.first)
        #expect(reader.kind == .pn532UART)
        #expect(reader.info?.firmware == ReaderFirmware(ic: "PN532", version: "1.6"))
        #expect(reader.inUse == nil)
    }

    @Test("a reader open in this process is listed from the registry, not reopened")
    func openReaderListed() async throws {
        let fixture = try EmulatorFixture(kind: .pn532)
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 20) {
            let device = NFCDevice()
            let info = try await device.connect(to: fixture.reader, configuration: fixture.configuration(liveness: nil))
            var first: [NFCReader] = []
            for await readers in NFCDevice.discoverReaders(
                timeout: .seconds(5), options: Self.options([fixture.connectionString]))
            {
                first = readers
                break
            }
            #expect(first.map(\.info) == [info])
            #expect(await device.status == .connected)
            #expect(try await device.listTargets().count == 1, "discovery left the open device alone")
            await device.close()
        }
    }

    @Test("USB readers from hot-plug are listed with serial; one held by the kernel says so, with the fix")
    func usbReaders() async throws {
        let backend = RecordedHotPlug(presentAtStart: [RecordedUSB.acr122])
        let heldByKernel = ReaderInUse.SystemFacts(
            loadedModules: { ["pn533_usb", "pn533", "nfc"] },
            processNames: { [] }, portClaimed: { _ in false })
        let lists = try await withTimeLimit(seconds: 20) {
            var lists: [[NFCReader]] = []
            let stream = NFCDevice.discoverReaders(
                timeout: .seconds(10), options: Self.options([], usb: backend),
                facts: heldByKernel)
            for await readers in stream {
                lists.append(readers)
                if lists.count == 1 { backend.fire(.arrived(RecordedUSB.pn533)) }
                if lists.count == 2 { backend.fire(.left(RecordedUSB.acr122)) }
                if lists.count == 3 { break }
            }
            return lists
        }
        #expect(
            lists.map { $0.map(\.connectionString) } == [
                ["acr122_usb:001:004"], ["acr122_usb:001:004", "pn53x_usb:002:009"], ["pn53x_usb:002:009"],
            ])
        let pn533 = try #require(lists.last?.first)
        #expect(pn533.serialNumber == "PN533-7")
        #expect(pn533.name == "NXP / PN533")
        guard case .kernelModules(let modules)? = pn533.inUse?.holder else {
            Issue.record("no in-use diagnosis: \(String(describing: pn533.inUse))")
            return
        }
        #expect(modules == ["pn533_usb", "pn533", "nfc"])
        try await withTimeLimit(seconds: 10) {
            while backend.stops == 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(backend.stops == 1, "discovery stops hot-plug when it ends")
    }

    @Test("discovery ends at its timeout, and on cancel")
    func endsAtTimeoutAndCancel() async throws {
        try await withTimeLimit(seconds: 20) {
            var count = 0
            for await _ in NFCDevice.discoverReaders(timeout: .milliseconds(300), options: Self.options([])) {
                count += 1
            }
            #expect(count == 1, "one (empty) list, then the end")
            let backend = RecordedHotPlug()
            let task = Task {
                for await _ in NFCDevice.discoverReaders(timeout: nil, options: Self.options([], usb: backend)) {}
            }
            // Running: hot-plug started.
            while backend.starts == 0 { try await Task.sleep(for: .milliseconds(5)) }
            task.cancel()
            await task.value
            while backend.stops == 0 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(backend.stops == 1)
        }
    }
}

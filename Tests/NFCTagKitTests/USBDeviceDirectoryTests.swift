import Foundation
@testable import NFCTagKit
import Locking
import Testing

/// The USB view a bus other than the system's provides (`NFCTAGKIT_USB_DEVICES`): nodes
/// at `BBB/DDD` that come and go, read by the liveness check and by hot-plug alike.
@Suite("USB device directory: liveness and hot-plug from the nodes")
struct USBDeviceDirectoryTests {
    /// A fresh directory standing for /dev/bus/usb, removed afterwards.
    final class Bus: Sendable {
        let root: String
        init() throws {
            root =
                FileManager.default.temporaryDirectory
                .appendingPathComponent("nfctagkit-usb-\(getpid())-\(UInt32.random(in: 0 ... .max))").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        var directory: USBDeviceDirectory { USBDeviceDirectory(roots: [root]) }

        func plug(bus: Int, address: Int, _ text: String) throws {
            let busPath = root + String(format: "/%03d", bus)
            try FileManager.default.createDirectory(atPath: busPath, withIntermediateDirectories: true)
            try text.write(toFile: busPath + String(format: "/%03d", address), atomically: true, encoding: .utf8)
        }

        func unplug(bus: Int, address: Int) throws {
            try FileManager.default.removeItem(atPath: root + String(format: "/%03d/%03d", bus, address))
        }
    }

    final class Changes: Sendable {
        let lists = Locked<[[String]]>([])
        func record(_ readers: [NFCReader]) { lists.withLock { $0.append(readers.map(\.connectionString).sorted()) } }
        var last: [String]? { lists.withLock { $0.last } }

        /// Waits up to 5 s for the list to become `expected`.
        func wait(for expected: [String]) async -> Bool {
            for _ in 0..<100 {
                if last == expected { return true }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return last == expected
        }
    }

    static let acr122 = "vendor=072f\nproduct=2200\nserial=\nport=1-2\n"
    static let scl3711 = "vendor=04e6\nproduct=5591\nserial=0A1B2C3D\nport=1-3\n"

    @Test("a node is read as libusb would describe the device; what is not a node is skipped")
    func parsesNodes() throws {
        let bus = try Bus()
        try bus.plug(bus: 1, address: 42, Self.acr122)
        try bus.plug(bus: 1, address: 7, Self.scl3711)
        try bus.plug(bus: 1, address: 8, "not a device\n")
        try bus.plug(bus: 1, address: 9, "vendor=zz\nproduct=2200\n")
        try "vendor=072f\nproduct=2200\n".write(toFile: bus.root + "/001/.042.tmp", atomically: false, encoding: .utf8)
        let devices = bus.directory.scan().values.sorted { $0.address < $1.address }
        #expect(
            devices == [
                USBDeviceDescriptor(
                    bus: 1, address: 7, id: USBProductID(vendor: 0x04E6, product: 0x5591), serialNumber: "0A1B2C3D",
                    portPath: "1-3"),
                USBDeviceDescriptor(
                    bus: 1, address: 42, id: USBProductID(vendor: 0x072F, product: 0x2200), serialNumber: nil,
                    portPath: "1-2"),
            ])
    }

    @Test("the liveness check looks for the node on the process's bus")
    func livenessNode() throws {
        let bus = try Bus()
        let node = try #require(ReaderNode(connectionString: "acr122_usb:001:042", usb: bus.directory))
        #expect(node.path == bus.root + "/001/042")
        #expect(!node.exists)
        try bus.plug(bus: 1, address: 42, Self.acr122)
        #expect(node.exists)
        try bus.unplug(bus: 1, address: 42)
        #expect(!node.exists)
        #expect(ReaderNode(connectionString: "pn53x_usb:002:009", usb: .system)?.path == "/dev/bus/usb/002/009")
    }

    @Test("present devices arrive before start returns; then arrivals, departures and a replug at a new address")
    func hotPlug() async throws {
        let bus = try Bus()
        try bus.plug(bus: 1, address: 42, Self.acr122)
        let changes = Changes()
        let backend = USBDeviceDirectoryHotPlug(directory: bus.directory, pollInterval: .milliseconds(20))
        let watcher = USBReaderWatcher(backend: backend) { changes.record($0) }
        try watcher.start()
        defer { watcher.stop() }
        #expect(watcher.readers.map(\.connectionString) == ["acr122_usb:001:042"], "before start returned")
        #expect(watcher.readers.first?.usbPortPath == "1-2")
        try bus.plug(bus: 1, address: 7, Self.scl3711)
        #expect(await changes.wait(for: ["acr122_usb:001:042", "pn53x_usb:001:007"]))
        #expect(watcher.readers.first { $0.kind == .pn53xUSB }?.serialNumber == "0A1B2C3D")
        try bus.unplug(bus: 1, address: 42)
        #expect(await changes.wait(for: ["pn53x_usb:001:007"]))
        try bus.plug(bus: 1, address: 43, Self.acr122)
        #expect(await changes.wait(for: ["acr122_usb:001:043", "pn53x_usb:001:007"]))
    }

    @Test("no call to the handler after stop; a bus directory that does not exist yet is an empty bus")
    func stopAndMissingRoot() async throws {
        let bus = try Bus()
        let missing = USBDeviceDirectory(roots: [bus.root + "/not-yet"])
        let changes = Changes()
        let backend = USBDeviceDirectoryHotPlug(directory: missing, pollInterval: .milliseconds(20))
        let watcher = USBReaderWatcher(backend: backend) { changes.record($0) }
        try watcher.start()
        #expect(watcher.readers.isEmpty)
        try FileManager.default.createDirectory(atPath: bus.root + "/not-yet/001", withIntermediateDirectories: true)
        try Self.acr122.write(toFile: bus.root + "/not-yet/001/005", atomically: true, encoding: .utf8)
        #expect(await changes.wait(for: ["acr122_usb:001:005"]))
        watcher.stop()
        try FileManager.default.removeItem(atPath: bus.root + "/not-yet/001/005")
        try await Task.sleep(for: .milliseconds(200))
        #expect(changes.last == ["acr122_usb:001:005"], "no departure reported after stop")
    }
}

@Suite("An ACR122U (no serial number) is found again after a replug")
struct ACR122URelocationTests {
    static func acr122(address: UInt8, port: String?) throws -> NFCReader {
        try #require(
            USBReaderWatcher.reader(
                USBDeviceDescriptor(
                    bus: 1, address: address,
                    id: USBProductID(vendor: 0x072F, product: 0x2200), portPath: port)))
    }

    @Test("the only ACR122U, plugged in again anywhere")
    func onlyOne() throws {
        let lost = try Self.acr122(address: 4, port: "1-2")
        let scl3711 = try #require(USBReaderWatcher.reader(RecordedUSB.pn533))
        #expect(
            lost.relocated(among: [scl3711, try Self.acr122(address: 9, port: "1-5")])?.connectionString
                == "acr122_usb:001:009")
    }

    @Test("of two ACR122Us, the one plugged back into the lost reader's port; none when the port does not tell")
    func byPort() throws {
        let lost = try Self.acr122(address: 4, port: "1-2")
        let other = try Self.acr122(address: 6, port: "1-3")
        #expect(
            lost.relocated(among: [other, try Self.acr122(address: 8, port: "1-2")])?.connectionString
                == "acr122_usb:001:008")
        #expect(
            lost.relocated(among: [other, try Self.acr122(address: 8, port: "1-4")]) == nil,
            "moved to another port, beside a twin: no guess")
        var portless = lost
        portless.usbPortPath = nil
        #expect(portless.relocated(among: [other, try Self.acr122(address: 8, port: "1-2")]) == nil)
    }

    @Test("a reader opened by connection string alone learns its product and port from the device at its address")
    func identification() throws {
        let bare = NFCReader(connectionString: "acr122_usb:001:004")
        let identified = bare.identified(by: try Self.acr122(address: 4, port: "1-2"))
        #expect(identified.usbID == USBProductID(vendor: 0x072F, product: 0x2200))
        #expect(identified.usbPortPath == "1-2")
        #expect(identified.serialNumber == nil)
        #expect(identified.name == "ACS ACR122")
        #expect(
            identified.relocated(among: [
                try Self.acr122(address: 6, port: "1-3"), try Self.acr122(address: 5, port: "1-2"),
            ])?
            .connectionString == "acr122_usb:001:005")
    }
}

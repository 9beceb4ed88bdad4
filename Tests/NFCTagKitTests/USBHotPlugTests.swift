@testable import NFCTagKit
import Locking
import Testing

@Suite("USB hot-plug layer, through recorded callbacks")
struct USBHotPlugTests {
    final class Changes: Sendable {
        let lists = Locked<[[String]]>([])
        func record(_ readers: [NFCReader]) { lists.withLock { $0.append(readers.map(\.connectionString).sorted()) } }
        var all: [[String]] { lists.withLock { $0 } }
    }

    @Test("readers present at start arrive; other USB devices are ignored")
    func enumerateAtStart() throws {
        let backend = RecordedHotPlug(presentAtStart: [RecordedUSB.keyboard, RecordedUSB.acr122])
        let changes = Changes()
        let watcher = USBReaderWatcher(backend: backend) { changes.record($0) }
        try watcher.start()
        #expect(backend.starts == 1)
        #expect(changes.all == [["acr122_usb:001:004"]])
        let reader = try #require(watcher.readers.first)
        #expect(reader.kind == .acr122USB)
        #expect(reader.name == "ACS ACR122")
        #expect(reader.serialNumber == "ACR-0001")
        #expect(reader.usbID == RecordedUSB.acr122.id)
        watcher.stop()
        #expect(backend.stops == 1)
        #expect(!backend.fire(.arrived(RecordedUSB.pn533)), "no callback after stop")
    }

    @Test("arrival and departure update the list; a replug at a new address replaces the old one")
    func arrivalsAndDepartures() throws {
        let backend = RecordedHotPlug()
        let changes = Changes()
        let watcher = USBReaderWatcher(backend: backend) { changes.record($0) }
        try watcher.start()
        backend.fire(.arrived(RecordedUSB.pn533))
        backend.fire(.arrived(RecordedUSB.keyboard))
        backend.fire(.arrived(RecordedUSB.acr122))
        backend.fire(.left(RecordedUSB.pn533))
        backend.fire(.left(RecordedUSB.keyboard))
        var moved = RecordedUSB.acr122
        backend.fire(.left(RecordedUSB.acr122))
        moved.address = 5
        backend.fire(.arrived(moved))
        #expect(
            changes.all == [
                ["pn53x_usb:002:009"],
                ["acr122_usb:001:004", "pn53x_usb:002:009"],
                ["acr122_usb:001:004"],
                [],
                ["acr122_usb:001:005"],
            ])
        #expect(watcher.readers.map(\.serialNumber) == ["ACR-0001"])
        watcher.stop()
    }

    @Test("a backend that cannot start reports why")
    func startFailure() {
        let backend = RecordedHotPlug(failure: USBHotPlugError("libusb has no hot-plug support here"))
        let watcher = USBReaderWatcher(backend: backend) { _ in }
        #expect(throws: USBHotPlugError("libusb has no hot-plug support here")) { try watcher.start() }
    }
}

@Suite("A USB reader plugged in again is found at its new address")
struct USBReaderRelocationTests {
    static func reader(_ device: USBDeviceDescriptor) throws -> NFCReader {
        try #require(USBReaderWatcher.reader(device))
    }

    @Test("the same serial number at a new address, among readers of the same model")
    func bySerialNumber() throws {
        let lost = try Self.reader(RecordedUSB.acr122)
        var moved = RecordedUSB.acr122
        moved.address = 7
        var other = RecordedUSB.acr122
        other.address = 8
        other.serialNumber = "ACR-0002"
        let present = try [other, moved, RecordedUSB.pn533].map(Self.reader)
        let found = try #require(lost.relocated(among: present))
        #expect(found.connectionString == "acr122_usb:001:007")
        #expect(found.serialNumber == "ACR-0001")
        #expect(
            lost.relocated(among: try [other, RecordedUSB.pn533].map(Self.reader)) == nil, "its serial is not there")
    }

    @Test("without a serial number only a single reader of the same product is taken")
    func byProduct() throws {
        var device = RecordedUSB.pn533
        device.serialNumber = nil
        let lost = try Self.reader(device)
        var moved = device
        moved.address = 10
        #expect(
            lost.relocated(among: try [moved, RecordedUSB.acr122].map(Self.reader))?.connectionString
                == "pn53x_usb:002:010")
        var twin = device
        twin.address = 11
        #expect(lost.relocated(among: try [moved, twin].map(Self.reader)) == nil, "two alike: no guess")
        // Known by its connection string only (connected without discovery): the only one of its kind.
        let bare = NFCReader(connectionString: "pn53x_usb:002:009")
        #expect(bare.relocated(among: try [moved].map(Self.reader))?.connectionString == "pn53x_usb:002:010")
    }

    @Test("serial and emulator readers do not move")
    func notUSB() throws {
        let uart = NFCReader(connectionString: "pn532_uart:/dev/ttyUSB0")
        #expect(uart.relocated(among: try [RecordedUSB.acr122].map(Self.reader)) == nil)
    }
}

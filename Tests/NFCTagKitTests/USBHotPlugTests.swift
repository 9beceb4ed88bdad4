@testable import NFCTagKit
import Synchronization
import Testing

@Suite("USB hot-plug layer, through recorded callbacks")
struct USBHotPlugTests {
    final class Changes: Sendable {
        let lists = Mutex<[[String]]>([])
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
        #expect(changes.all == [
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

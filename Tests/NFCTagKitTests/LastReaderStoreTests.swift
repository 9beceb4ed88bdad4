@testable import NFCTagKit
import Foundation
import Testing

@Suite("Last reader store")
struct LastReaderStoreTests {
    @Test("saves, loads, replaces and clears an entry at an overridden path")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let store = LastReaderStore(path: directory.file("nested/last-reader.json"))
        #expect(store.load() == nil)
        let first = LastReaderStore.Entry(connectionString: "pn532_uart:/dev/ttyUSB0", name: "PN532")
        try store.save(first)
        #expect(store.load() == first)
        let second = LastReaderStore.Entry(
            connectionString: "pn53x_usb:001:004", serialNumber: "A1B2",
            usbID: USBProductID(vendor: 0x04CC, product: 0x2533))
        try store.save(second)
        #expect(store.load() == second)
        try store.clear()
        #expect(store.load() == nil)
        try store.clear()
    }

    @Test("a corrupt file reads as no reader")
    func corruptFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = directory.file("last-reader.json")
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
        #expect(LastReaderStore(path: path).load() == nil)
    }

    @Test("the default path follows XDG_CONFIG_HOME, else HOME/.config")
    func defaultPath() {
        #expect(
            LastReaderStore.defaultPath(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/u"])
                == "/x/cfg/nfctagkit/last-reader.json")
        #expect(
            LastReaderStore.defaultPath(environment: ["HOME": "/home/u"])
                == "/home/u/.config/nfctagkit/last-reader.json")
        // A relative XDG_CONFIG_HOME is invalid by the spec and ignored.
        #expect(
            LastReaderStore.defaultPath(environment: ["XDG_CONFIG_HOME": "cfg", "HOME": "/home/u"])
                == "/home/u/.config/nfctagkit/last-reader.json")
    }

    @Test(
        "an entry with a serial matches by serial (USB address may change) when the reader's is known, else by connection string"
    )
    func matching() {
        let usb = LastReaderStore.Entry(
            connectionString: "pn53x_usb:001:004", serialNumber: "S1",
            usbID: USBProductID(vendor: 0x04CC, product: 0x2533))
        let moved = NFCReader(
            connectionString: "pn53x_usb:001:009", serialNumber: "S1",
            usbID: USBProductID(vendor: 0x04CC, product: 0x2533))
        let other = NFCReader(
            connectionString: "pn53x_usb:001:004", serialNumber: "S2",
            usbID: USBProductID(vendor: 0x04CC, product: 0x2533))
        #expect(usb.matches(moved))
        #expect(!usb.matches(other))
        // A reader probed by its connection string tells no serial: the address decides.
        #expect(usb.matches(NFCReader(connectionString: "pn53x_usb:001:004")))
        #expect(!usb.matches(NFCReader(connectionString: "pn53x_usb:001:009")))
        let uart = LastReaderStore.Entry(connectionString: "pn532_uart:/dev/ttyS0")
        #expect(uart.matches(NFCReader(connectionString: "pn532_uart:/dev/ttyS0")))
        #expect(!uart.matches(NFCReader(connectionString: "pn532_uart:/dev/ttyS1")))
    }
}

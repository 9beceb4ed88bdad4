import Foundation

/// The device node behind a connection string, used to tell "unplugged" from other
/// failures without talking to the reader: a serial port or pseudo-terminal path
/// (`pn532_uart:/dev/ttyUSB0`), or a USB address (`pn53x_usb:001:004` →
/// `/dev/bus/usb/001/004`, or `BBB/DDD` under the bus ``USBDeviceDirectory/current`` names).
struct ReaderNode: Sendable, Equatable {
    /// Where the node may be: one path, or for a USB address one per bus directory.
    var paths: [String]

    /// The file system path of the node (the first, for a USB address on several directories).
    var path: String { paths[0] }

    /// The node of `connectionString`, or nil when the string does not name one
    /// (`pn53x_usb` alone, PC/SC readers).
    init?(connectionString: String, usb: USBDeviceDirectory = .current) {
        let parts = connectionString.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2 else { return nil }
        switch ReaderKind(connectionString: connectionString) {
        case .pn532UART, .arygon, .pn532SPI, .pn532I2C:
            guard !parts[1].isEmpty else { return nil }
            paths = [parts[1]]
        case .pn53xUSB, .acr122USB:
            guard parts.count >= 3, let bus = Int(parts[1]), let address = Int(parts[2]) else { return nil }
            paths = usb.nodePaths(bus: bus, address: address)
        default:
            return nil
        }
    }

    /// True when the node exists (a symbolic link counts only if its target exists).
    var exists: Bool {
        paths.contains { FileManager.default.fileExists(atPath: $0) }
    }
}

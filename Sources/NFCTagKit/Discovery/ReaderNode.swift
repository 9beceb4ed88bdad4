import Foundation

/// The device node behind a connection string, used to tell "unplugged" from other
/// failures without talking to the reader: a serial port or pseudo-terminal path
/// (`pn532_uart:/dev/ttyUSB0`), or a USB address (`pn53x_usb:001:004` →
/// `/dev/bus/usb/001/004`).
struct ReaderNode: Sendable, Equatable {
    /// The file system path of the node.
    var path: String

    /// The node of `connectionString`, or nil when the string does not name one
    /// (`pn53x_usb` alone, PC/SC readers).
    init?(connectionString: String) {
        let parts = connectionString.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2 else { return nil }
        switch ReaderKind(connectionString: connectionString) {
        case .pn532UART, .arygon, .pn532SPI, .pn532I2C:
            guard !parts[1].isEmpty else { return nil }
            path = parts[1]
        case .pn53xUSB, .acr122USB:
            guard parts.count >= 3, let bus = Int(parts[1]), let address = Int(parts[2]) else { return nil }
            path = String(format: "/dev/bus/usb/%03d/%03d", bus, address)
        default:
            return nil
        }
    }

    /// True when the node exists (a symbolic link counts only if its target exists).
    var exists: Bool {
        FileManager.default.fileExists(atPath: path)
    }
}

import Foundation

/// What an open reader says about itself: libnfc's name, the chip's firmware and the
/// modulations it can poll for.
public struct ReaderInfo: Sendable, Hashable, CustomStringConvertible {
    /// The libnfc connection string it was opened with, such as `pn532_uart:/dev/ttyUSB0`.
    public var connectionString: String
    /// libnfc's device name, such as `pn532_uart:/dev/ttyUSB0 - PN532 v1.6`.
    public var name: String
    /// The reader chip's firmware, when libnfc reported it.
    public var firmware: ReaderFirmware?
    /// Modulations the reader supports as an initiator.
    package var supportedModulations: [Modulation]
    /// The serial speed in baud host and reader talk at, for a UART reader (`pn532_uart`):
    /// 460 800 or 230 400 when the reader was switched up at connect, 115 200 when it was
    /// not, or the speed its connection string names. Nil for USB and other readers.
    public var serialSpeed: Int?

    /// Creates a description.
    package init(
        connectionString: String, name: String, firmware: ReaderFirmware?, supportedModulations: [Modulation],
        serialSpeed: Int? = nil
    ) {
        self.connectionString = connectionString
        self.name = name
        self.firmware = firmware
        self.supportedModulations = supportedModulations
        self.serialSpeed = serialSpeed
    }

    /// `name (connection string)`.
    public var description: String { "\(name) (\(connectionString))" }
}

/// A reader chip and its firmware version, such as PN532 1.6.
public struct ReaderFirmware: Sendable, Hashable, CustomStringConvertible {
    /// The IC as libnfc names it: `PN531`, `PN532`, `PN533`, `RCS360`.
    public var ic: String
    /// The firmware version, such as `1.6`.
    public var version: String

    /// Creates a firmware description.
    package init(ic: String, version: String) {
        self.ic = ic
        self.version = version
    }

    /// Reads libnfc's device name where a driver ends it with the firmware
    /// (` - PN532 v1.6`). Returns nil when the name carries none.
    package init?(libnfcDeviceName name: String) {
        guard let dash = name.range(of: " - ", options: .backwards) else { return nil }
        self.init(icAndVersion: name[dash.upperBound...])
    }

    /// Reads the `chip: PN532 v1.6` line of libnfc's `nfc_device_get_information_about`
    /// text. Returns nil when there is no such line.
    package init?(libnfcInformation text: String) {
        let prefix = "chip: "
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return nil }
        self.init(icAndVersion: line.dropFirst(prefix.count))
    }

    private init?(icAndVersion text: Substring) {
        let words = text.split(separator: " ")
        guard words.count == 2, words[1].hasPrefix("v"), words[1].count > 1 else { return nil }
        ic = String(words[0])
        version = String(words[1].dropFirst())
    }

    /// `PN532 v1.6`.
    public var description: String { "\(ic) v\(version)" }
}

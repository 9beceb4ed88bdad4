/// Which libnfc driver reaches a reader, taken from its connection string's prefix.
package enum ReaderKind: String, Sendable, Hashable, CaseIterable {
    /// PN532 on a serial port or pseudo-terminal (`pn532_uart:`), including the emulator.
    case pn532UART = "pn532_uart"
    /// PN531 / PN533 family on USB (`pn53x_usb:`): NXP PN533, SCM SCL3711, Sony RC-S360, ASK LoGO.
    case pn53xUSB = "pn53x_usb"
    /// ACS ACR122U / Touchatag on USB (`acr122_usb:`).
    case acr122USB = "acr122_usb"
    /// ACR122 through PC/SC (`acr122_pcsc:`).
    case acr122PCSC = "acr122_pcsc"
    /// Any PC/SC reader (`pcsc:`).
    case pcsc = "pcsc"
    /// PN532 on SPI (`pn532_spi:`).
    case pn532SPI = "pn532_spi"
    /// PN532 on I²C (`pn532_i2c:`).
    case pn532I2C = "pn532_i2c"
    /// Arygon readers on a serial port (`arygon:`).
    case arygon = "arygon"
    /// NXP PN71xx through the NCI stack (`pn71xx:`).
    case pn71xx = "pn71xx"
    /// A prefix this version does not know.
    case unknown = "unknown"

    /// The kind of `connectionString`, by its driver prefix.
    package init(connectionString: String) {
        let driver = connectionString.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        self = ReaderKind(rawValue: driver) ?? .unknown
    }

    /// True for readers on USB, whose libnfc address (`bus:device`) changes when replugged.
    package var isUSB: Bool { self == .pn53xUSB || self == .acr122USB }
}

/// Where ``NFCDevice/discoverReaders(timeout:options:)`` looks for readers.
///
/// ```swift
/// var options = DiscoveryOptions()
/// options.connectionStrings = ["pn532_uart:/dev/ttyS0"]   // UART readers are never scanned
/// for await readers in NFCDevice.discoverReaders(timeout: .seconds(5), options: options) { … }
/// ```
public struct DiscoveryOptions: Sendable {
    /// Connection strings to probe by opening them (UART readers, emulator links): libnfc's
    /// scan does not look at serial ports.
    public var connectionStrings: [String] = []
    /// Run libnfc's own scan (`nfc_list_devices`), which honours `LIBNFC_DEVICE`,
    /// `LIBNFC_DEFAULT_DEVICE`, `LIBNFC_AUTO_SCAN` and libnfc.conf.
    public var libnfcScan = true
    /// USB arrivals and departures; nil turns hot-plug off. The default is this process's bus (``USBDeviceDirectory/current``): libusb's, or the one `NFCTAGKIT_USB_DEVICES` names.
    package var usbHotPlug: (any USBHotPlugBackend)? = USBDeviceDirectory.current.hotPlugBackend()
    /// How often the lists are refreshed between hot-plug events.
    public var rescanInterval: Duration = .seconds(1)

    /// The defaults: libnfc scan, libusb hot-plug, a rescan every second.
    public init() {}
}

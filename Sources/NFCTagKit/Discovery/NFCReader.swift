/// A reader found by discovery (``NFCDevice/discoverReaders(timeout:options:)``): enough
/// to show it to a person and to connect to it.
///
/// ```swift
/// for await readers in NFCDevice.discoverReaders(timeout: .seconds(5)) {
///     for reader in readers { print(reader.connectionString, reader.name) }
/// }
/// ```
public struct NFCReader: Sendable, Hashable, CustomStringConvertible {
    /// The libnfc connection string, such as `pn532_uart:/dev/ttyUSB0` or `pn53x_usb:001:004`.
    public var connectionString: String
    /// A name for people: libnfc's device name once opened, else the product name.
    public var name: String
    /// The driver kind.
    package var kind: ReaderKind
    /// The USB serial number, where the bus offers one.
    public var serialNumber: String?
    /// USB vendor and product, for USB readers.
    public var usbID: USBProductID?
    /// Where a USB reader is plugged in (`1-4.2`: bus 1, port 4, hub port 2).
    public var usbPortPath: String?
    /// Firmware and modulations, when discovery opened the reader (probing) or it is open
    /// in this process.
    public var info: ReaderInfo?
    /// Set when the reader is present but held by someone else, with the fix.
    public var inUse: ReaderInUse?

    /// A reader known by its connection string only.
    package init(
        connectionString: String, name: String? = nil, kind: ReaderKind? = nil,
        serialNumber: String? = nil, usbID: USBProductID? = nil, usbPortPath: String? = nil,
        info: ReaderInfo? = nil, inUse: ReaderInUse? = nil
    ) {
        self.connectionString = connectionString
        self.name = name ?? connectionString
        self.kind = kind ?? ReaderKind(connectionString: connectionString)
        self.serialNumber = serialNumber
        self.usbID = usbID
        self.usbPortPath = usbPortPath
        self.info = info
        self.inUse = inUse
    }

    /// `name (connection string)`.
    public var description: String { "\(name) (\(connectionString))" }

    /// Where this USB reader is now, among the USB readers `present`: a USB address changes
    /// on every plug-in, so a reader unplugged and plugged in again has a new connection
    /// string. `nil` for other readers, or when none or several match.
    ///
    /// - With a serial number: the reader of the same kind with that serial number.
    /// - Without one (the ACR122U has no serial-number string): the readers of the same USB
    ///   product (or, with no product known, the same driver kind); of several, the one in
    ///   the same port (``usbPortPath``). So the only ACR122U is found wherever it is plugged
    ///   in again, and of two, the one plugged back into its own port.
    ///
    /// ```swift
    /// let moved = lost.relocated(among: usbReadersNow)   // pn53x_usb:001:004 → pn53x_usb:001:005
    /// ```
    package func relocated(among present: [NFCReader]) -> NFCReader? {
        guard kind.isUSB else { return nil }
        var candidates = present.filter { $0.kind == kind }
        if let serialNumber {
            candidates = candidates.filter { $0.serialNumber == serialNumber }
        } else {
            if let usbID { candidates = candidates.filter { $0.usbID == usbID } }
            if candidates.count > 1, let usbPortPath {
                candidates = candidates.filter { $0.usbPortPath == usbPortPath }
            }
        }
        guard candidates.count == 1, var found = candidates.first else { return nil }
        found.name = name == connectionString ? found.name : name
        found.info = nil
        return found
    }

    /// This reader with what `device` (the USB device at its address) tells: serial
    /// number, product and port, where not known yet.
    func identified(by device: NFCReader) -> NFCReader {
        var reader = self
        reader.serialNumber = reader.serialNumber ?? device.serialNumber
        reader.usbID = reader.usbID ?? device.usbID
        reader.usbPortPath = reader.usbPortPath ?? device.usbPortPath
        if reader.name == reader.connectionString { reader.name = device.name }
        return reader
    }
}

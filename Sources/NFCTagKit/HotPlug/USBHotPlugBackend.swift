/// A USB device as hot-plug reports it.
public struct USBDeviceDescriptor: Sendable, Hashable {
    /// Bus number.
    public var bus: UInt8
    /// Device address on the bus (changes on every plug-in).
    public var address: UInt8
    /// Vendor and product.
    public var id: USBProductID
    /// The serial number string, when the device has one and it could be read.
    public var serialNumber: String?

    /// Creates a descriptor.
    public init(bus: UInt8, address: UInt8, id: USBProductID, serialNumber: String? = nil) {
        self.bus = bus
        self.address = address
        self.id = id
        self.serialNumber = serialNumber
    }
}

/// A USB arrival or departure.
public enum USBHotPlugEvent: Sendable, Hashable {
    /// A device was plugged in (or was present when watching started).
    case arrived(USBDeviceDescriptor)
    /// A device was unplugged.
    case left(USBDeviceDescriptor)
}

/// Why USB hot-plug could not start.
public struct USBHotPlugError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed, with libusb's text.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

/// The seam between reader discovery and libusb: something that reports USB arrivals
/// and departures. ``LibUSBHotPlug`` is the real one; tests replay recorded callbacks.
public protocol USBHotPlugBackend: Sendable {
    /// Starts reporting; devices already present arrive first. `handler` may be called
    /// on any thread, one event at a time.
    func start(_ handler: @escaping @Sendable (USBHotPlugEvent) -> Void) throws(USBHotPlugError)
    /// Stops reporting; no call to the handler starts after this returns.
    func stop()
}

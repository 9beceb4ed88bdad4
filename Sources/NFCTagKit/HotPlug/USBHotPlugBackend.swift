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
    /// The port path, `bus-port.port…` as the kernel names it (`1-4.2`): where the device
    /// is plugged in. It stays the same when the device is plugged into the same port again.
    public var portPath: String?

    /// Creates a descriptor.
    public init(bus: UInt8, address: UInt8, id: USBProductID, serialNumber: String? = nil, portPath: String? = nil) {
        self.bus = bus
        self.address = address
        self.id = id
        self.serialNumber = serialNumber
        self.portPath = portPath
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

/// The seam between reader discovery and the USB bus: something that reports USB arrivals
/// and departures. ``USBDeviceDirectory/hotPlugBackend()`` gives this process's: libusb-1.0
/// (``LibUSBHotPlug``) on the system's bus, ``USBDeviceDirectoryHotPlug`` on a bus named by
/// `NFCTAGKIT_USB_DEVICES`; tests replay recorded callbacks.
public protocol USBHotPlugBackend: Sendable {
    /// Starts reporting; devices already present arrive first, before this returns.
    /// `handler` may be called on any thread, one event at a time.
    func start(_ handler: @escaping @Sendable (USBHotPlugEvent) -> Void) throws(USBHotPlugError)
    /// Stops reporting; no call to the handler starts after this returns.
    func stop()
}

/// A USB device as hot-plug reports it.
package struct USBDeviceDescriptor: Sendable, Hashable {
    /// Bus number.
    package var bus: UInt8
    /// Device address on the bus (changes on every plug-in).
    package var address: UInt8
    /// Vendor and product.
    package var id: USBProductID
    /// The serial number string, when the device has one and it could be read.
    package var serialNumber: String?
    /// The port path, `bus-port.port…` as the kernel names it (`1-4.2`): where the device
    /// is plugged in. It stays the same when the device is plugged into the same port again.
    package var portPath: String?

    /// Creates a descriptor.
    package init(bus: UInt8, address: UInt8, id: USBProductID, serialNumber: String? = nil, portPath: String? = nil) {
        self.bus = bus
        self.address = address
        self.id = id
        self.serialNumber = serialNumber
        self.portPath = portPath
    }
}

/// A USB arrival or departure.
package enum USBHotPlugEvent: Sendable, Hashable {
    /// A device was plugged in (or was present when watching started).
    case arrived(USBDeviceDescriptor)
    /// A device was unplugged.
    case left(USBDeviceDescriptor)
}

/// Why USB hot-plug could not start.
package struct USBHotPlugError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed, with libusb's text.
    package var message: String

    /// Creates an error.
    package init(_ message: String) { self.message = message }

    /// The message.
    package var description: String { message }
}

/// The seam between reader discovery and the USB bus: something that reports USB arrivals
/// and departures. ``USBDeviceDirectory/hotPlugBackend()`` gives this process's: libusb-1.0
/// (``LibUSBHotPlug``) on the system's bus, ``USBDeviceDirectoryHotPlug`` on a bus named by
/// `NFCTAGKIT_USB_DEVICES`; tests replay recorded callbacks.
package protocol USBHotPlugBackend: Sendable {
    /// Starts reporting; devices already present arrive first, before this returns.
    /// `handler` may be called on any thread, one event at a time.
    func start(_ handler: @escaping @Sendable (USBHotPlugEvent) -> Void) throws(USBHotPlugError)
    /// Stops reporting; no call to the handler starts after this returns.
    func stop()
}

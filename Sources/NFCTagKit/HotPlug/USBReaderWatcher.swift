internal import Locking

/// Keeps the list of USB NFC readers present, from a ``USBHotPlugBackend``'s arrivals
/// and departures, filtered by ``USBReaderModel/known``. Other USB devices are ignored.
final class USBReaderWatcher: Sendable {
    private let backend: any USBHotPlugBackend
    private let present = Locked<[USBDeviceDescriptor]>([])
    private let onChange: @Sendable ([NFCReader]) -> Void

    /// Watches through `backend`; `onChange` gets the new list after every change.
    init(backend: any USBHotPlugBackend, onChange: @escaping @Sendable ([NFCReader]) -> Void) {
        self.backend = backend
        self.onChange = onChange
    }

    /// Starts the backend.
    func start() throws(USBHotPlugError) {
        try backend.start { [weak self] event in self?.handle(event) }
    }

    /// Stops the backend.
    func stop() {
        backend.stop()
    }

    /// The USB readers present now.
    var readers: [NFCReader] {
        present.withLock { $0 }.compactMap(Self.reader)
    }

    /// The USB readers present on `backend`'s bus, enumerated once (nil when it cannot start).
    static func presentReaders(on backend: any USBHotPlugBackend) -> [NFCReader]? {
        let watcher = USBReaderWatcher(backend: backend) { _ in }
        guard (try? watcher.start()) != nil else { return nil }
        defer { watcher.stop() }
        return watcher.readers
    }

    func handle(_ event: USBHotPlugEvent) {
        let changed: Bool = present.withLock { devices in
            switch event {
            case .arrived(let device):
                guard USBReaderModel.model(for: device.id) != nil else { return false }
                devices.removeAll { $0.bus == device.bus && $0.address == device.address }
                devices.append(device)
                return true
            case .left(let device):
                let before = devices.count
                devices.removeAll { $0.bus == device.bus && $0.address == device.address }
                return devices.count != before
            }
        }
        if changed { onChange(readers) }
    }

    /// The reader a known USB device is, with libnfc's connection string for its address.
    static func reader(_ device: USBDeviceDescriptor) -> NFCReader? {
        guard let model = USBReaderModel.model(for: device.id) else { return nil }
        return NFCReader(
            connectionString: model.connectionString(bus: device.bus, address: device.address),
            name: model.name, kind: model.kind, serialNumber: device.serialNumber, usbID: device.id,
            usbPortPath: device.portPath)
    }
}

import Foundation
internal import Locking

/// Where this process sees USB devices: the directory of device nodes that stands for the
/// bus, `/dev/bus/usb` unless the environment names others.
///
/// NFCTagKit checks USB readers outside libnfc twice: a reader is alive while its node
/// `BBB/DDD` exists (bus and device number, as in `pn53x_usb:001:004`), and a reader that
/// came back at a new address is found among the devices present (``USBHotPlugBackend``).
/// Both checks read this one view, so whatever provides a USB bus provides both:
///
/// - **The system's bus** (the default): the nodes under `/dev/bus/usb`, and arrivals,
///   departures and serial numbers through libusb-1.0 (``LibUSBHotPlug``).
/// - **Another bus, named by `NFCTAGKIT_USB_DEVICES`**: one or more directories
///   (separated by `:`), each laid out as `/dev/bus/usb` is — one file per device at
///   `BBB/DDD` while it is plugged in. As libusb-0.1's `USB_DEVFS_PATH`, the variable
///   *replaces* the system's bus for this process; arrivals and departures are then the
///   files appearing and going (``USBDeviceDirectoryHotPlug``). Whoever provides such a
///   bus (a USB/IP bridge, a container's forwarded devices, NFCTagKit's emulated USB
///   readers) writes each node as a few `key=value` lines — the identity libusb-1.0
///   would read from the device:
///
///   ```
///   vendor=072f
///   product=2200
///   serial=
///   port=1-4
///   ```
///
///   `vendor` and `product` in hex (required), `serial` the serial-number string (empty or
///   absent: the device has none), `port` the port path (`bus-port.port…`, optional). A node
///   is written whole (to a temporary name, then renamed) and removed on unplug.
package struct USBDeviceDirectory: Sendable, Hashable {
    /// The environment variable naming the directories (separated by `:`).
    package static let environmentVariable = "NFCTAGKIT_USB_DEVICES"
    /// The system's device-node directory.
    package static let systemRoot = "/dev/bus/usb"

    /// The directories that hold the `BBB/DDD` nodes.
    package var roots: [String]

    /// A view of the devices under `roots`.
    package init(roots: [String]) {
        self.roots = roots
    }

    /// The system's bus.
    package static let system = USBDeviceDirectory(roots: [systemRoot])

    /// This process's view: the directories `NFCTAGKIT_USB_DEVICES` names, else ``system``.
    package static var current: USBDeviceDirectory {
        let named = (ProcessInfo.processInfo.environment[environmentVariable] ?? "")
            .split(separator: ":").map(String.init).filter { !$0.isEmpty }
        return named.isEmpty ? .system : USBDeviceDirectory(roots: named)
    }

    /// True for the system's own `/dev/bus/usb`.
    package var isSystem: Bool { roots == [Self.systemRoot] }

    /// The node paths a device at `bus` / `address` would have, one per root.
    package func nodePaths(bus: Int, address: Int) -> [String] {
        roots.map { $0 + String(format: "/%03d/%03d", bus, address) }
    }

    /// Arrivals and departures on this bus: libusb-1.0 for the system's, the nodes
    /// themselves for another.
    package func hotPlugBackend() -> any USBHotPlugBackend {
        isSystem ? LibUSBHotPlug() : USBDeviceDirectoryHotPlug(directory: self)
    }

    /// The devices present now (node files that parse; others are skipped), by node path.
    func scan() -> [String: USBDeviceDescriptor] {
        var found: [String: USBDeviceDescriptor] = [:]
        let files = FileManager.default
        for root in roots {
            for busName in (try? files.contentsOfDirectory(atPath: root)) ?? [] {
                guard let bus = Self.number(busName) else { continue }
                let busPath = root + "/" + busName
                for deviceName in (try? files.contentsOfDirectory(atPath: busPath)) ?? [] {
                    guard let address = Self.number(deviceName) else { continue }
                    let path = busPath + "/" + deviceName
                    guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                        let descriptor = Self.parseNode(text, bus: bus, address: address)
                    else { continue }
                    found[path] = descriptor
                }
            }
        }
        return found
    }

    /// A three-digit bus or device number, 1…255.
    private static func number(_ name: String) -> UInt8? {
        guard name.count == 3, name.allSatisfy(\.isASCII), let value = UInt8(name), value > 0 else { return nil }
        return value
    }

    /// The descriptor a node's `key=value` lines give; nil without a valid vendor and product.
    static func parseNode(_ text: String, bus: UInt8, address: UInt8) -> USBDeviceDescriptor? {
        var fields: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals]).trimmingCharacters(in: .whitespaces)] =
                String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        }
        guard let vendor = fields["vendor"].flatMap({ UInt16($0, radix: 16) }),
            let product = fields["product"].flatMap({ UInt16($0, radix: 16) })
        else { return nil }
        let serial = fields["serial"].flatMap { $0.isEmpty ? nil : $0 }
        let port = fields["port"].flatMap { $0.isEmpty ? nil : $0 }
        return USBDeviceDescriptor(
            bus: bus, address: address, id: USBProductID(vendor: vendor, product: product),
            serialNumber: serial, portPath: port)
    }
}

/// Hot-plug on a ``USBDeviceDirectory`` that is not the system's: the node files are
/// looked at every ``pollInterval``; a new file is an arrival, a file gone a departure.
/// Devices present at ``start(_:)`` arrive before it returns.
package final class USBDeviceDirectoryHotPlug: USBHotPlugBackend, Sendable {
    /// The bus watched.
    package let directory: USBDeviceDirectory
    /// How often the directories are read.
    package let pollInterval: Duration

    private struct State {
        var handler: (@Sendable (USBHotPlugEvent) -> Void)?
        var known: [String: USBDeviceDescriptor] = [:]
        var generation: UInt64 = 0
    }

    private let state = Locked(State())

    /// A backend for `directory`; nothing happens until ``start(_:)``.
    package init(directory: USBDeviceDirectory, pollInterval: Duration = .milliseconds(100)) {
        self.directory = directory
        self.pollInterval = pollInterval
    }

    /// Reports the devices present, then watches. A root that does not exist yet is a bus
    /// with no device on it.
    package func start(_ handler: @escaping @Sendable (USBHotPlugEvent) -> Void) throws(USBHotPlugError) {
        let generation: UInt64? = state.withLock { state in
            guard state.handler == nil else { return nil }
            state.handler = handler
            state.known = [:]
            state.generation &+= 1
            return state.generation
        }
        guard let generation else { return }
        refresh(generation: generation)
        let thread = Thread { [self] in
            while true {
                Self.sleep(pollInterval)
                guard refresh(generation: generation) else { return }
            }
        }
        thread.name = "NFCTagKit USB device directory"
        thread.start()
    }

    /// Stops reporting; no call to the handler starts after this returns.
    package func stop() {
        state.withLock { state in
            state.handler = nil
            state.generation &+= 1
        }
    }

    private enum Step {
        case report(USBHotPlugEvent, @Sendable (USBHotPlugEvent) -> Void)
        case settled
        case stopped
    }

    /// One look at the directories, departures first; false once stopped (or restarted).
    @discardableResult
    private func refresh(generation: UInt64) -> Bool {
        let present = directory.scan()
        while true {
            let step: Step = state.withLock { state in
                guard state.generation == generation, let handler = state.handler else { return .stopped }
                if let (path, device) = state.known.first(where: { present[$0.key] != $0.value }) {
                    state.known[path] = nil
                    return .report(.left(device), handler)
                }
                if let (path, device) = present.sorted(by: { $0.key < $1.key }).first(where: {
                    state.known[$0.key] == nil
                }) {
                    state.known[path] = device
                    return .report(.arrived(device), handler)
                }
                return .settled
            }
            switch step {
            case .report(let event, let handler):
                handler(event)  // outside the lock: the handler may call stop()
            case .settled:
                return true
            case .stopped:
                return false
            }
        }
    }

    private static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}

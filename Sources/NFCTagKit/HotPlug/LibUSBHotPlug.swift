internal import CLibUSB
import Foundation

/// USB hot-plug through libusb-1.0: a callback registered for every device (filtered
/// later against ``USBReaderModel/known``), and a thread that runs libusb's event loop.
///
/// libusb forbids synchronous transfers inside a hot-plug callback, so arrivals are
/// queued and their serial numbers read on the event thread after the callback returns.
package final class LibUSBHotPlug: USBHotPlugBackend, @unchecked Sendable {
    // Touched only under `lock`, or on the event thread while it runs.
    private let lock = NSLock()
    private var context: OpaquePointer?
    private var callbackHandle: libusb_hotplug_callback_handle = 0
    private var thread: Thread?
    private var running = false
    private var handler: (@Sendable (USBHotPlugEvent) -> Void)?
    private var pendingArrivals: [OpaquePointer] = []
    private let stopped = DispatchSemaphore(value: 0)

    /// A backend; nothing happens until ``start(_:)``.
    package init() {}

    /// True when this libusb supports hot-plug on this system.
    package static var isSupported: Bool { libusb_has_capability(UInt32(LIBUSB_CAP_HAS_HOTPLUG.rawValue)) != 0 }

    /// Starts libusb, registers the hot-plug callback (present devices arrive first) and
    /// the event thread. Throws when libusb has no hot-plug support or cannot start.
    package func start(_ handler: @escaping @Sendable (USBHotPlugEvent) -> Void) throws(USBHotPlugError) {
        guard Self.isSupported else { throw USBHotPlugError("libusb has no hot-plug support here") }
        lock.lock()
        guard !running else {
            lock.unlock()
            return
        }
        var newContext: OpaquePointer?
        let initResult = libusb_init(&newContext)
        guard initResult == 0, let newContext else {
            lock.unlock()
            throw USBHotPlugError("libusb_init: \(String(cString: libusb_strerror(initResult)))")
        }
        self.handler = handler
        context = newContext
        running = true
        lock.unlock()
        // With ENUMERATE, libusb calls back for present devices inside this call, and the
        // callback takes the lock: it must not be held here.
        var handle: libusb_hotplug_callback_handle = 0
        let events = Int32(LIBUSB_HOTPLUG_EVENT_DEVICE_ARRIVED.rawValue | LIBUSB_HOTPLUG_EVENT_DEVICE_LEFT.rawValue)
        let result = libusb_hotplug_register_callback(
            newContext, events, Int32(LIBUSB_HOTPLUG_ENUMERATE.rawValue),
            LIBUSB_HOTPLUG_MATCH_ANY, LIBUSB_HOTPLUG_MATCH_ANY, LIBUSB_HOTPLUG_MATCH_ANY,
            libUSBHotPlugCallback, Unmanaged.passUnretained(self).toOpaque(), &handle)
        lock.lock()
        defer { lock.unlock() }
        guard result == 0, running else {
            if result == 0 { libusb_hotplug_deregister_callback(newContext, handle) }
            for device in pendingArrivals { libusb_unref_device(device) }
            pendingArrivals.removeAll()
            libusb_exit(newContext)
            context = nil
            self.handler = nil
            running = false
            if result == 0 { return }  // stopped while starting
            throw USBHotPlugError("libusb_hotplug_register_callback: \(String(cString: libusb_strerror(result)))")
        }
        callbackHandle = handle
        // The devices present were queued by ENUMERATE: they arrive before this returns,
        // so a caller that only wants the list now (relocation after a replug) has it.
        let present = pendingArrivals
        pendingArrivals.removeAll()
        lock.unlock()
        deliver(present, to: handler)
        lock.lock()
        guard running else {
            // Stopped while the present devices were reported: no thread to stop, so clean up here.
            libusb_hotplug_deregister_callback(newContext, handle)
            for device in pendingArrivals { libusb_unref_device(device) }
            pendingArrivals.removeAll()
            libusb_exit(newContext)
            context = nil
            self.handler = nil
            return
        }
        let thread = Thread { [self] in eventLoop() }
        thread.name = "NFCTagKit USB hot-plug"
        self.thread = thread
        thread.start()
    }

    /// Describes queued arrivals (serial numbers read outside libusb's callback) and
    /// releases them.
    private func deliver(_ arrivals: [OpaquePointer], to handler: (@Sendable (USBHotPlugEvent) -> Void)?) {
        for device in arrivals {
            if var descriptor = Self.describe(device) {
                descriptor.serialNumber = Self.serialNumber(device)
                handler?(.arrived(descriptor))
            }
            libusb_unref_device(device)
        }
    }

    /// Stops the event thread and releases libusb. Idempotent.
    package func stop() {
        lock.lock()
        let wasRunning = running
        running = false
        let hasThread = thread != nil
        lock.unlock()
        guard wasRunning, hasThread else { return }
        stopped.wait()
        lock.lock()
        if let context {
            libusb_hotplug_deregister_callback(context, callbackHandle)
            for device in pendingArrivals { libusb_unref_device(device) }
            pendingArrivals.removeAll()
            libusb_exit(context)
        }
        context = nil
        handler = nil
        thread = nil
        lock.unlock()
    }

    deinit { stop() }

    private var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return running
    }

    private func eventLoop() {
        lock.lock()
        let context = self.context
        lock.unlock()
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        while isRunning, let context {
            libusb_handle_events_timeout_completed(context, &timeout, nil)
            lock.lock()
            let arrivals = pendingArrivals
            pendingArrivals.removeAll()
            let handler = self.handler
            lock.unlock()
            deliver(arrivals, to: handler)
        }
        stopped.signal()
    }

    /// Called by libusb inside its event handling, on the event thread.
    fileprivate func received(_ device: OpaquePointer, arrived: Bool) {
        if arrived {
            lock.lock()
            pendingArrivals.append(libusb_ref_device(device))
            lock.unlock()
        } else if let descriptor = Self.describe(device) {
            lock.lock()
            let handler = self.handler
            lock.unlock()
            handler?(.left(descriptor))
        }
    }

    private static func describe(_ device: OpaquePointer) -> USBDeviceDescriptor? {
        var descriptor = libusb_device_descriptor()
        guard libusb_get_device_descriptor(device, &descriptor) == 0 else { return nil }
        let bus = libusb_get_bus_number(device)
        // Port numbers from the root hub down (USB allows at most 7 tiers).
        var ports = [UInt8](repeating: 0, count: 7)
        let depth = libusb_get_port_numbers(device, &ports, Int32(ports.count))
        let portPath = depth > 0 ? "\(bus)-" + ports.prefix(Int(depth)).map(String.init).joined(separator: ".") : nil
        return USBDeviceDescriptor(
            bus: bus, address: libusb_get_device_address(device),
            id: USBProductID(vendor: descriptor.idVendor, product: descriptor.idProduct),
            portPath: portPath)
    }

    /// Reads the serial number string (opens the device briefly; works while a kernel
    /// driver is bound, fails without permission).
    private static func serialNumber(_ device: OpaquePointer) -> String? {
        var descriptor = libusb_device_descriptor()
        guard libusb_get_device_descriptor(device, &descriptor) == 0, descriptor.iSerialNumber != 0 else { return nil }
        guard USBReaderModel.model(for: USBProductID(vendor: descriptor.idVendor, product: descriptor.idProduct)) != nil
        else {
            return nil
        }
        var handle: OpaquePointer?
        guard libusb_open(device, &handle) == 0, let handle else { return nil }
        defer { libusb_close(handle) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = libusb_get_string_descriptor_ascii(handle, descriptor.iSerialNumber, &buffer, Int32(buffer.count))
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)), as: UTF8.self)
    }
}

private func libUSBHotPlugCallback(
    context: OpaquePointer?, device: OpaquePointer?,
    event: libusb_hotplug_event, userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let device, let userData else { return 0 }
    let backend = Unmanaged<LibUSBHotPlug>.fromOpaque(userData).takeUnretainedValue()
    backend.received(device, arrived: event == LIBUSB_HOTPLUG_EVENT_DEVICE_ARRIVED)
    return 0
}

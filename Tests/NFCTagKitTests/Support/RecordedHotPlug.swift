import Locking
@testable import NFCTagKit

/// A ``USBHotPlugBackend`` that replays recorded libusb callbacks: `start` delivers the
/// devices present at start (as libusb's ENUMERATE does), `fire` delivers later ones.
final class RecordedHotPlug: USBHotPlugBackend, Sendable {
    private struct State {
        var handler: (@Sendable (USBHotPlugEvent) -> Void)?
        var starts = 0
        var stops = 0
    }

    private let state = Locked(State())
    private let presentAtStart: [USBDeviceDescriptor]
    private let failure: USBHotPlugError?

    init(presentAtStart: [USBDeviceDescriptor] = [], failure: USBHotPlugError? = nil) {
        self.presentAtStart = presentAtStart
        self.failure = failure
    }

    func start(_ handler: @escaping @Sendable (USBHotPlugEvent) -> Void) throws(USBHotPlugError) {
        if let failure { throw failure }
        state.withLock {
            $0.handler = handler
            $0.starts += 1
        }
        for device in presentAtStart { handler(.arrived(device)) }
    }

    func stop() {
        state.withLock {
            $0.handler = nil
            $0.stops += 1
        }
    }

    /// Delivers one recorded callback; false when nobody is listening.
    @discardableResult
    func fire(_ event: USBHotPlugEvent) -> Bool {
        guard let handler = state.withLock({ $0.handler }) else { return false }
        handler(event)
        return true
    }

    var starts: Int { state.withLock { $0.starts } }
    var stops: Int { state.withLock { $0.stops } }
}

enum RecordedUSB {
    static let acr122 = USBDeviceDescriptor(
        bus: 1, address: 4, id: USBProductID(vendor: 0x072F, product: 0x2200),
        serialNumber: "ACR-0001")
    static let pn533 = USBDeviceDescriptor(
        bus: 2, address: 9, id: USBProductID(vendor: 0x04CC, product: 0x2533),
        serialNumber: "PN533-7")
    static let keyboard = USBDeviceDescriptor(bus: 1, address: 2, id: USBProductID(vendor: 0x046D, product: 0xC31C))
}

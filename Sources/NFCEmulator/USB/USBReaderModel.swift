import NFCChips

/// A reader on USB as the host sees it: its descriptors, and bulk transfers in and out.
///
/// A model is a pure state machine like ``PN532Controller``: one bulk OUT transfer in, the
/// bulk IN transfers it causes out, in order. ``USBReaderEmulator`` carries them to the USB
/// stand-in (`libnfctag-usb-emulation.so`) in the client process.
protocol USBReaderModel: Sendable {
    /// The device's identity and endpoints, as its descriptors give them.
    var descriptor: USBDeviceDescriptor { get }
    /// The PN53x chip inside, with the field and its tags.
    var controller: PN532Controller { get set }
    /// One bulk OUT transfer from the host; the bulk IN transfers it causes, in order.
    mutating func bulkOut(_ transfer: [UInt8]) -> [[UInt8]]
}

extension USBReaderModel {
    /// A USB port reset: the chip starts again at power-on with the same tags (the field
    /// off), as ``PN532Emulator/plug()`` does. The device stays plugged in, so its counters
    /// and modelled time go on (libnfc resets the port when it closes the reader: a
    /// `--stats` file or a benchmark counts every process, not the last one alone).
    mutating func portReset() {
        var field = controller.field
        field.setPower(false)
        let faultState = controller.faultState  // a fault fires once per emulator
        let faults = controller.faults
        let statistics = controller.statistics
        controller = PN532Controller(field: field, spec: controller.spec, faults: faults)
        controller.faultState = faultState
        controller.priceHostLinkExternally()
        controller.statistics = statistics
    }

    /// One bulk OUT transfer from the host and the IN transfers it causes (``bulkOut(_:)``),
    /// each priced on the bus as a full-speed bulk transfer (``usbTransferTime(out:answers:)``)
    /// and added to the chip's modelled time beside its air and EEPROM time.
    mutating func transfer(_ out: [UInt8]) -> [[UInt8]] {
        // A transfer that reaches no PN53x command (an ACR122U pseudo-APDU for its firmware,
        // an ACK) must not count with the command before it.
        controller.lastCommandCode = nil
        controller.lastTagCode = nil
        let answers = bulkOut(out)
        controller.statistics.usbBulkTransfers += 1 + answers.count
        controller.chargeHostLink(usbTransferTime(out: out, answers: answers))
        return answers
    }

    /// The bus time of one OUT transfer and its IN transfers: each transfer's bytes in
    /// transactions of the bulk endpoint's packet size, with the per-transaction overhead of
    /// `datasheets/readers.json` (`usbFullSpeed`). What a host's frame scheduling and
    /// libnfc's waits add is not the reader's and not counted.
    func usbTransferTime(out: [UInt8], answers: [[UInt8]]) -> Duration {
        let bus = ChipTables.readers.usbFullSpeed
        let outPacket = descriptor.bulkPacketSize(input: false)
        let inPacket = descriptor.bulkPacketSize(input: true)
        var seconds = bus.bulkTransferSeconds(bytes: out.count, maximumPacketSize: outPacket)
        for answer in answers { seconds += bus.bulkTransferSeconds(bytes: answer.count, maximumPacketSize: inPacket) }
        return .seconds(seconds)
    }
}

/// What the USB stand-in presents to libusb-0.1's callers: device and interface descriptor
/// fields, endpoints and strings.
public struct USBDeviceDescriptor: Sendable, Equatable {
    public struct Endpoint: Sendable, Equatable {
        public var address: UInt8
        /// `bmAttributes`: 2 bulk, 3 interrupt.
        public var attributes: UInt8
        public var maximumPacketSize: UInt16
    }

    public var vendorID: UInt16
    public var productID: UInt16
    public var deviceRelease: UInt16
    public var interfaceClass: UInt8
    public var endpoints: [Endpoint]
    public var manufacturer: String
    public var product: String
    /// Empty when the device has no serial-number string (iSerialNumber 0).
    public var serialNumber: String

    /// wMaxPacketSize of the bulk endpoint IN (`input`) or OUT; 0 when there is none.
    func bulkPacketSize(input: Bool) -> Int {
        Int(
            endpoints.first { $0.attributes == USBTransferType.bulk.attributes && ($0.address & 0x80 != 0) == input }?
                .maximumPacketSize ?? 0)
    }

    /// The 'D' message of the stand-in's protocol (Sources/CUSBEmulation/include).
    func message(bus: UInt8, address: UInt8) -> [UInt8] {
        func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        var bytes: [UInt8] = [UInt8(ascii: "D")] + le16(vendorID) + le16(productID) + le16(deviceRelease)
        bytes += [bus, address, interfaceClass, UInt8(endpoints.count)]
        for endpoint in endpoints {
            bytes += [endpoint.address, endpoint.attributes] + le16(endpoint.maximumPacketSize)
        }
        for text in [manufacturer, product, serialNumber] { bytes += Array(text.utf8) + [0] }
        return bytes
    }
}

extension USBDeviceDescriptor {
    /// The descriptor of a reader in the table (`datasheets/readers.json`), with
    /// `serialNumber` (empty when the device has none).
    init(_ usb: USBIdentitySpec, serialNumber: String) {
        self.init(
            vendorID: usb.vendorID, productID: usb.productID, deviceRelease: usb.deviceRelease,
            interfaceClass: usb.interfaceClass,
            endpoints: usb.endpoints.map {
                Endpoint(
                    address: $0.address, attributes: $0.transfer.attributes,
                    maximumPacketSize: UInt16($0.maximumPacketSize))
            },
            manufacturer: usb.manufacturer, product: usb.product,
            serialNumber: usb.hasSerialNumber ? serialNumber : "")
    }
}

/// What a PN53x wrote back, frame by frame.
enum PN53xChipFrame: Equatable {
    case ack
    /// An information frame's body: TFI `D5`, the answer code, data.
    case information([UInt8])
    /// The application-level error frame (TFI `7F`).
    case error
    /// Bytes that are not a frame.
    case garbled([UInt8])

    /// Splits the chip's output into frames (the UART carries them back to back; USB
    /// sends each as its own transfer).
    static func split(_ bytes: [UInt8], spec: PN532FrameSpec) -> [(frame: PN53xChipFrame, bytes: [UInt8])] {
        var frames: [(PN53xChipFrame, [UInt8])] = []
        var rest = bytes[...]
        let head = spec.preamble + spec.startCode
        while !rest.isEmpty {
            if rest.starts(with: spec.ackFrame) {
                frames.append((.ack, spec.ackFrame))
                rest = rest.dropFirst(spec.ackFrame.count)
                continue
            }
            if rest.starts(with: spec.errorFrame) {
                frames.append((.error, spec.errorFrame))
                rest = rest.dropFirst(spec.errorFrame.count)
                continue
            }
            guard rest.starts(with: head), rest.count > head.count + 1 else {
                frames.append((.garbled(Array(rest)), Array(rest)))
                break
            }
            let afterHead = rest.dropFirst(head.count)
            var length = Int(afterHead.first!)
            var headerLength = head.count + 2
            if afterHead.starts(with: spec.extendedLengthMarker), afterHead.count >= 5 {
                let index = afterHead.startIndex
                length = Int(afterHead[index + 2]) << 8 | Int(afterHead[index + 3])
                headerLength = head.count + 5
            }
            let total = headerLength + length + 1 + spec.postamble.count
            guard rest.count >= total else {
                frames.append((.garbled(Array(rest)), Array(rest)))
                break
            }
            let frameBytes = Array(rest.prefix(total))
            frames.append((.information(Array(frameBytes[headerLength..<headerLength + length])), frameBytes))
            rest = rest.dropFirst(total)
        }
        return frames
    }
}

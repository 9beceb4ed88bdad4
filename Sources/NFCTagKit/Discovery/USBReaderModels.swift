/// A USB vendor / product pair.
public struct USBProductID: Sendable, Hashable, Codable, CustomStringConvertible {
    /// USB vendor ID.
    public var vendor: UInt16
    /// USB product ID.
    public var product: UInt16

    /// Creates an ID.
    package init(vendor: UInt16, product: UInt16) {
        self.vendor = vendor
        self.product = product
    }

    /// `072f:2200`.
    public var description: String {
        "\(vendor.hexString()):\(product.hexString())"
    }
}

/// A USB NFC reader model libnfc drives, known by its vendor / product ID.
package struct USBReaderModel: Sendable, Hashable {
    /// Vendor and product.
    package var id: USBProductID
    /// The product name libnfc uses.
    package var name: String
    /// The libnfc driver that opens it.
    package var kind: ReaderKind

    /// The USB readers of libnfc 1.8.0's `pn53x_usb` and `acr122_usb` drivers (their
    /// `*_supported_devices` tables). A reader not listed here is still found by libnfc's
    /// own scan; this table lets hot-plug notice arrivals without polling.
    package static let known: [USBReaderModel] = [
        USBReaderModel(id: .init(vendor: 0x04CC, product: 0x0531), name: "Philips / PN531", kind: .pn53xUSB),
        USBReaderModel(id: .init(vendor: 0x04CC, product: 0x2533), name: "NXP / PN533", kind: .pn53xUSB),
        USBReaderModel(id: .init(vendor: 0x04E6, product: 0x5591), name: "SCM Micro / SCL3711-NFC&RW", kind: .pn53xUSB),
        USBReaderModel(id: .init(vendor: 0x04E6, product: 0x5594), name: "SCM Micro / SCL3712-NFC&RW", kind: .pn53xUSB),
        USBReaderModel(id: .init(vendor: 0x054C, product: 0x0193), name: "Sony / PN531", kind: .pn53xUSB),
        USBReaderModel(id: .init(vendor: 0x1FD3, product: 0x0608), name: "ASK / LoGO", kind: .pn53xUSB),
        USBReaderModel(
            id: .init(vendor: 0x054C, product: 0x02E1), name: "Sony / FeliCa S360 [PaSoRi]", kind: .pn53xUSB),
        USBReaderModel(id: .init(vendor: 0x072F, product: 0x2200), name: "ACS ACR122", kind: .acr122USB),
        USBReaderModel(id: .init(vendor: 0x072F, product: 0x90CC), name: "Touchatag", kind: .acr122USB),
    ]

    /// The model with this ID, if libnfc drives it.
    package static func model(for id: USBProductID) -> USBReaderModel? {
        known.first { $0.id == id }
    }

    /// libnfc's connection string for this model at a USB address: `pn53x_usb:001:004`.
    package func connectionString(bus: UInt8, address: UInt8) -> String {
        let pad = { (value: UInt8) in
            let text = String(value)
            return String(repeating: "0", count: max(0, 3 - text.count)) + text
        }
        return "\(kind.rawValue):\(pad(bus)):\(pad(address))"
    }
}

/// The NFC readers NFCTagKit drives through libnfc, as `datasheets/readers.json` gives
/// them: per reader its libnfc driver, host-link frame limits, wait pass and whether one
/// InAutoPoll counts the tags in the field; the ACR122U's CCID and pseudo-APDU constants;
/// what the PN533 answers differently from the PN532.
///
/// ```swift
/// let readers = ChipTables.readers
/// readers.readers[.acr122u].maximumCommandData        // 254
/// readers.reader(driver: "pn53x_usb")?.name           // .pn533
/// readers.acr122u.messages[.xfrBlock].code            // 0x6F
/// readers.acr122u.statusWords[.ok].code               // 0x9000
/// ```
package struct ReaderTable: Codable, Equatable, Sendable {
    /// One entry per reader model.
    package var readers: NamedTable<ReaderSpec>
    /// The ACS ACR122U's own firmware: CCID messages, pseudo-APDUs, status words.
    package var acr122u: ACR122USpec
    /// USB full speed, which every USB reader here runs at: what a bulk transfer costs.
    package var usbFullSpeed: USBBusSpec
    /// What the PN533 answers differently from the PN532.
    package var pn533: PN533Spec
    /// Where the table comes from.
    package var source: DatasheetSource

    /// The reader libnfc's `driver` (the connection string's prefix) drives, if the table has it.
    package func reader(driver: String) -> ReaderSpec? {
        readers.first { $0.driver == driver }
    }
}

/// The reader models of `datasheets/readers.json`; the raw values are its names.
package enum ReaderModelName: String, TableName {
    /// A PN532 on a serial port (libnfc `pn532_uart`), the emulator's default.
    case pn532UART = "pn532-uart"
    /// The ACS ACR122U on USB (libnfc `acr122_usb`): a PN532 behind ACS's firmware.
    case acr122u
    /// A PN533 on USB such as the SCM SCL3711 (libnfc `pn53x_usb`).
    case pn533
}

/// One reader model: how libnfc reaches it and what its host link carries.
package struct ReaderSpec: NamedEntry {
    /// The model.
    package var name: ReaderModelName
    /// libnfc's driver, the connection string's prefix (`acr122_usb`).
    package var driver: String
    /// The reader chip (`PN532`, `PN533`).
    package var chip: String
    /// The most bytes one command frame carries after the frame identifier `D4`: the
    /// PN53x command code and its data.
    package var maximumCommandData: Int
    /// The most bytes one answer carries after the frame identifier `D5`: the answer code
    /// and its data (status byte included).
    package var maximumAnswerData: Int
    /// How much of a caller's timeout libnfc's driver spends before its first read (ms):
    /// a wait no longer than this fails at once.
    package var hostWaitPassMs: Int
    /// Whether libnfc may report the reader's answer for a silent chip as an I/O error
    /// (NFC_EIO): the ACR122U's ICC mute through upstream libnfc. Such an error is a silent
    /// tag while the reader still answers, not a lost reader.
    package var silenceMayReadAsIOError: Bool
    /// The evidence for ``silenceMayReadAsIOError``, when it is set.
    package var silenceEvidence: String?
    /// Whether libnfc's driver hands libusb's own negative error numbers up unchanged
    /// (`pn53x_usb`: `-ENODEV` when the reader is unplugged) instead of an `NFC_E*` code.
    /// Such a number is an I/O failure of the USB link.
    package var passesUSBErrorsThrough: Bool
    /// The evidence for ``passesUSBErrorsThrough``, when it is set.
    package var usbErrorEvidence: String?
    /// Whether one InAutoPoll is trusted to count the tags in the field (the alone check);
    /// otherwise the field is listed tag by tag.
    package var countsTagsInOnePoll: Bool
    /// The evidence for ``countsTagsInOnePoll``.
    package var pollEvidence: String
    /// A remark when an entry is less certain than the table.
    package var caveat: DatasheetCaveat?
    /// The USB identity, for readers on USB.
    package var usb: USBIdentitySpec?

    /// The longest tag frame one exchange can send: InDataExchange (`easyFraming`) spends
    /// the command code and the target number, InCommunicateThru the command code only.
    package func maximumTagCommand(easyFraming: Bool) -> Int {
        maximumCommandData - (easyFraming ? 2 : 1)
    }

    /// The longest tag answer one exchange can bring back: the answer code and the status
    /// byte come first.
    package var maximumTagAnswer: Int { maximumAnswerData - 2 }
}

/// A USB reader's identity and endpoints, as its descriptors give them.
package struct USBIdentitySpec: Codable, Equatable, Sendable {
    /// idVendor.
    @Hex package var vendorID: UInt16
    /// idProduct.
    @Hex package var productID: UInt16
    /// bcdDevice.
    @Hex package var deviceRelease: UInt16
    /// bInterfaceClass (`0B` CCID, `FF` vendor-specific).
    @Hex package var interfaceClass: UInt8
    /// The iManufacturer string.
    package var manufacturer: String
    /// The iProduct string.
    package var product: String
    /// Whether the device has an iSerialNumber string.
    package var hasSerialNumber: Bool
    /// The interface's endpoints.
    package var endpoints: [USBEndpointSpec]
    /// A remark on facts less certain than the table.
    package var caveat: DatasheetCaveat?
}

/// A USB bus speed as the bulk transfers of a reader see it (USB 2.0 §5.8.4).
///
/// ```swift
/// let bus = ChipTables.readers.usbFullSpeed
/// bus.bulkTransferSeconds(bytes: 9, maximumPacketSize: 64)    // (9 + 13) × 8 / 12 000 000
/// bus.bulkTransferSeconds(bytes: 100, maximumPacketSize: 64)  // two transactions: (100 + 26) × 8 / 12 000 000
/// ```
package struct USBBusSpec: Codable, Equatable, Sendable {
    /// Bits per second on the wire (full speed: 12 000 000).
    package var bitsPerSecond: Int
    /// Protocol overhead of one bulk transaction, in bytes (USB 2.0 Table 5-9: 13 at full speed).
    package var bulkTransactionOverheadBytes: Int
    /// Where the figures come from.
    package var source: String

    /// The transactions one bulk transfer of `bytes` takes: one per `maximumPacketSize`
    /// bytes begun; a zero-length transfer is one empty transaction (and so is any transfer
    /// when no packet size is known).
    package func bulkTransactions(bytes: Int, maximumPacketSize: Int) -> Int {
        guard maximumPacketSize > 0 else { return 1 }
        return max(1, (bytes + maximumPacketSize - 1) / maximumPacketSize)
    }

    /// Seconds one bulk transfer of `bytes` spends on the bus: its data and the overhead of
    /// each of its transactions.
    package func bulkTransferSeconds(bytes: Int, maximumPacketSize: Int) -> Double {
        let overhead =
            bulkTransactions(bytes: bytes, maximumPacketSize: maximumPacketSize) * bulkTransactionOverheadBytes
        return Double((bytes + overhead) * 8) / Double(bitsPerSecond)
    }
}

/// One USB endpoint.
package struct USBEndpointSpec: Codable, Equatable, Sendable {
    /// bEndpointAddress (bit 7 set: IN).
    @Hex package var address: UInt8
    /// The transfer type.
    package var transfer: USBTransferType
    /// wMaxPacketSize.
    package var maximumPacketSize: Int
}

/// USB transfer types (USB 2.0 §9.6.6, bmAttributes bits 1..0).
package enum USBTransferType: String, Codable, Sendable, CaseIterable {
    /// Control transfers (endpoint 0).
    case control
    /// Isochronous transfers.
    case isochronous
    /// Bulk transfers: the PN53x frames and CCID messages.
    case bulk
    /// Interrupt transfers (the ACR122U's card-presence endpoint).
    case interrupt

    /// The bmAttributes value.
    package var attributes: UInt8 {
        switch self {
        case .control: 0
        case .isochronous: 1
        case .bulk: 2
        case .interrupt: 3
        }
    }
}

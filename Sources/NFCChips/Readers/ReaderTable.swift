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
public struct ReaderTable: Codable, Equatable, Sendable {
    /// One entry per reader model.
    public var readers: NamedTable<ReaderSpec>
    /// The ACS ACR122U's own firmware: CCID messages, pseudo-APDUs, status words.
    public var acr122u: ACR122USpec
    /// USB full speed, which every USB reader here runs at: what a bulk transfer costs.
    public var usbFullSpeed: USBBusSpec
    /// What the PN533 answers differently from the PN532.
    public var pn533: PN533Spec
    /// Where the table comes from.
    public var source: DatasheetSource

    /// The reader libnfc's `driver` (the connection string's prefix) drives, if the table has it.
    public func reader(driver: String) -> ReaderSpec? {
        readers.first { $0.driver == driver }
    }
}

/// The reader models of `datasheets/readers.json`; the raw values are its names.
public enum ReaderModelName: String, TableName {
    /// A PN532 on a serial port (libnfc `pn532_uart`), the emulator's default.
    case pn532UART = "pn532-uart"
    /// The ACS ACR122U on USB (libnfc `acr122_usb`): a PN532 behind ACS's firmware.
    case acr122u
    /// A PN533 on USB such as the SCM SCL3711 (libnfc `pn53x_usb`).
    case pn533
}

/// One reader model: how libnfc reaches it and what its host link carries.
public struct ReaderSpec: NamedEntry {
    /// The model.
    public var name: ReaderModelName
    /// libnfc's driver, the connection string's prefix (`acr122_usb`).
    public var driver: String
    /// The reader chip (`PN532`, `PN533`).
    public var chip: String
    /// The most bytes one command frame carries after the frame identifier `D4`: the
    /// PN53x command code and its data.
    public var maximumCommandData: Int
    /// The most bytes one answer carries after the frame identifier `D5`: the answer code
    /// and its data (status byte included).
    public var maximumAnswerData: Int
    /// How much of a caller's timeout libnfc's driver spends before its first read (ms):
    /// a wait no longer than this fails at once.
    public var hostWaitPassMs: Int
    /// Whether libnfc may report the reader's answer for a silent chip as an I/O error
    /// (NFC_EIO): the ACR122U's ICC mute through upstream libnfc. Such an error is a silent
    /// tag while the reader still answers, not a lost reader.
    public var silenceMayReadAsIOError: Bool
    /// The evidence for ``silenceMayReadAsIOError``, when it is set.
    public var silenceEvidence: String?
    /// Whether libnfc's driver hands libusb's own negative error numbers up unchanged
    /// (`pn53x_usb`: `-ENODEV` when the reader is unplugged) instead of an `NFC_E*` code.
    /// Such a number is an I/O failure of the USB link.
    public var passesUSBErrorsThrough: Bool
    /// The evidence for ``passesUSBErrorsThrough``, when it is set.
    public var usbErrorEvidence: String?
    /// Whether one InAutoPoll is trusted to count the tags in the field (the alone check);
    /// otherwise the field is listed tag by tag.
    public var countsTagsInOnePoll: Bool
    /// The evidence for ``countsTagsInOnePoll``.
    public var pollEvidence: String
    /// A remark when an entry is less certain than the table.
    public var caveat: DatasheetCaveat?
    /// The USB identity, for readers on USB.
    public var usb: USBIdentitySpec?

    /// The longest tag frame one exchange can send: InDataExchange (`easyFraming`) spends
    /// the command code and the target number, InCommunicateThru the command code only.
    public func maximumTagCommand(easyFraming: Bool) -> Int {
        maximumCommandData - (easyFraming ? 2 : 1)
    }

    /// The longest tag answer one exchange can bring back: the answer code and the status
    /// byte come first.
    public var maximumTagAnswer: Int { maximumAnswerData - 2 }
}

/// A USB reader's identity and endpoints, as its descriptors give them.
public struct USBIdentitySpec: Codable, Equatable, Sendable {
    /// idVendor.
    @Hex public var vendorID: UInt16
    /// idProduct.
    @Hex public var productID: UInt16
    /// bcdDevice.
    @Hex public var deviceRelease: UInt16
    /// bInterfaceClass (`0B` CCID, `FF` vendor-specific).
    @Hex public var interfaceClass: UInt8
    /// The iManufacturer string.
    public var manufacturer: String
    /// The iProduct string.
    public var product: String
    /// Whether the device has an iSerialNumber string.
    public var hasSerialNumber: Bool
    /// The interface's endpoints.
    public var endpoints: [USBEndpointSpec]
    /// A remark on facts less certain than the table.
    public var caveat: DatasheetCaveat?
}

/// A USB bus speed as the bulk transfers of a reader see it (USB 2.0 §5.8.4).
///
/// ```swift
/// let bus = ChipTables.readers.usbFullSpeed
/// bus.bulkTransferSeconds(bytes: 9, maximumPacketSize: 64)    // (9 + 13) × 8 / 12 000 000
/// bus.bulkTransferSeconds(bytes: 100, maximumPacketSize: 64)  // two transactions: (100 + 26) × 8 / 12 000 000
/// ```
public struct USBBusSpec: Codable, Equatable, Sendable {
    /// Bits per second on the wire (full speed: 12 000 000).
    public var bitsPerSecond: Int
    /// Protocol overhead of one bulk transaction, in bytes (USB 2.0 Table 5-9: 13 at full speed).
    public var bulkTransactionOverheadBytes: Int
    /// Where the figures come from.
    public var source: String

    /// The transactions one bulk transfer of `bytes` takes: one per `maximumPacketSize`
    /// bytes begun; a zero-length transfer is one empty transaction (and so is any transfer
    /// when no packet size is known).
    public func bulkTransactions(bytes: Int, maximumPacketSize: Int) -> Int {
        guard maximumPacketSize > 0 else { return 1 }
        return max(1, (bytes + maximumPacketSize - 1) / maximumPacketSize)
    }

    /// Seconds one bulk transfer of `bytes` spends on the bus: its data and the overhead of
    /// each of its transactions.
    public func bulkTransferSeconds(bytes: Int, maximumPacketSize: Int) -> Double {
        let overhead = bulkTransactions(bytes: bytes, maximumPacketSize: maximumPacketSize) * bulkTransactionOverheadBytes
        return Double((bytes + overhead) * 8) / Double(bitsPerSecond)
    }
}

/// One USB endpoint.
public struct USBEndpointSpec: Codable, Equatable, Sendable {
    /// bEndpointAddress (bit 7 set: IN).
    @Hex public var address: UInt8
    /// The transfer type.
    public var transfer: USBTransferType
    /// wMaxPacketSize.
    public var maximumPacketSize: Int
}

/// USB transfer types (USB 2.0 §9.6.6, bmAttributes bits 1..0).
public enum USBTransferType: String, Codable, Sendable, CaseIterable {
    /// Control transfers (endpoint 0).
    case control
    /// Isochronous transfers.
    case isochronous
    /// Bulk transfers: the PN53x frames and CCID messages.
    case bulk
    /// Interrupt transfers (the ACR122U's card-presence endpoint).
    case interrupt

    /// The bmAttributes value.
    public var attributes: UInt8 {
        switch self {
        case .control: 0
        case .isochronous: 1
        case .bulk: 2
        case .interrupt: 3
        }
    }
}

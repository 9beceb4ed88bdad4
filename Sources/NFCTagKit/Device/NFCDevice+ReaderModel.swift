import NFCChips

extension NFCDevice {
    /// The table entry of the open reader's model (`datasheets/readers.json`), found by
    /// the libnfc driver of its connection string; nil for a driver the table lacks.
    var readerModel: ReaderSpec? {
        readerInfo.flatMap { ReaderKind(connectionString: $0.connectionString).model }
    }

    /// `milliseconds` as libnfc must be asked for it on the open reader's driver.
    ///
    /// libnfc's USB drivers (`acr122_usb`, `pn53x_usb`) read in passes of 200 ms and take one
    /// pass off the caller's timeout before the first read: a wait of 200 ms or less fails at
    /// once with NFC_ETIMEOUT (libnfc 1.8.0 `acr122_usb_receive`, `pn53x_usb_receive`,
    /// USB_TIMEOUT_PER_PASS; the reader table's `hostWaitPassMs`). The wait asked of libnfc
    /// gets that pass added, so the reader has the time the caller meant.
    func libnfcWait(_ milliseconds: Int32) -> Int32 {
        milliseconds &+ Int32(readerModel?.hostWaitPassMs ?? 0)
    }

    /// The longest tag command (CRC_A included when the host adds it) one exchange carries
    /// on this reader: InDataExchange with `easyFraming`, InCommunicateThru without. A driver
    /// the reader table lacks gets the smallest limit of the table.
    func maximumTagCommand(easyFraming: Bool) -> Int {
        if let model = readerModel { return model.maximumTagCommand(easyFraming: easyFraming) }
        return ChipTables.readers.readers.map { $0.maximumTagCommand(easyFraming: easyFraming) }.min() ?? 0
    }

    /// The longest tag answer (CRC_A included when the host checks it) one exchange brings
    /// back on this reader; the smallest of the table for a driver the table lacks.
    func maximumTagAnswer() -> Int {
        if let model = readerModel { return model.maximumTagAnswer }
        return ChipTables.readers.readers.map(\.maximumTagAnswer).min() ?? 0
    }

    /// The longest tag command, without CRC_A, that one exchange carries on the open reader
    /// in either framing (a raw frame spends two bytes on the host's CRC_A).
    package var maximumTagCommandFrame: Int {
        min(maximumTagCommand(easyFraming: true), maximumTagCommand(easyFraming: false) - ChipTables.crcA([]).count)
    }

    /// The longest tag frame, without CRC_A, that fits one exchange both ways in either
    /// framing on the open reader: what ``DeviceTagTransport`` may ask for.
    package var maximumTagFrame: Int {
        min(maximumTagCommandFrame, maximumTagAnswer() - ChipTables.crcA([]).count)
    }

    /// Whether the open reader's one poll counts the tags in the field (InAutoPoll on a
    /// PN532 that libnfc drives directly); otherwise the alone check lists the field.
    var pollCountsTags: Bool { readerModel?.countsTagsInOnePoll ?? false }
}

extension ReaderKind {
    /// The reader table's entry for this kind (`datasheets/readers.json`), if it has one.
    package var model: ReaderSpec? { ChipTables.readers.reader(driver: rawValue) }
}

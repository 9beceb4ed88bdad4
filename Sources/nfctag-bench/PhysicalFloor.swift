import NFCTagKit

/// What one PN532 command and one tag exchange cost at the least, from the datasheets and
/// the UART alone — never from what our library sends. Operation floors
/// (``OperationFloors``) are sums of these.
///
/// The model (BENCHMARKS.md states it in full):
/// - **Host link** (UM0701 §6.2): a command is a host frame `00 00 FF LEN LCS D4 CMD data
///   DCS 00` (9 bytes + data), the chip's ACK (6 bytes) and its answer frame `… D5 CMD+1
///   data …` (9 bytes + data); LEN above 255 takes the extended form (3 bytes more). Each
///   byte costs 10 bits at 115 200 baud (8N1): 86.8 µs.
/// - **Tag exchange**: InCommunicateThru with the chip adding and checking CRC_A, so only
///   the tag's own bytes cross the UART; the answer carries the status byte, and a 4-bit
///   ACK travels as one byte.
/// - **Air** (ISO/IEC 14443-2/3 at 106 kbit/s): 9 bits per byte (parity) plus start and
///   end of frame, the CRC_A on every frame but ACK / NAK, and the frame delay time before
///   each answer.
/// - **EEPROM**: the chip table's programming time per page written.
///
/// ```swift
/// let floor = PhysicalFloor()
/// floor.command(dataOut: 1, dataIn: 4).bytesToReader   // 10: GetFirmwareVersion's host frame
/// ```
struct PhysicalFloor: Sendable {
    /// How the PN532-family chip is reached, and what one byte or transfer costs there.
    enum HostLink: Sendable, Equatable, CustomStringConvertible {
        /// A PN532 on a UART at `baud`, 8N1 (10 bits a byte): the command frame, the ACK and
        /// the answer frame in a row on the line.
        case uart(baud: Int)
        /// A reader on USB full speed (USB 2.0 §5.8.4, Table 5-9): bulk transfers in 64-byte
        /// transactions at 12 Mbit/s, each transaction carrying 13 bytes of protocol overhead
        /// (SYNC, PID, endpoint and CRC fields, inter-packet delay), at most 19 of 64 bytes in
        /// one 1 ms frame; the figures come from `datasheets/readers.json` (`usbFullSpeed`, the
        /// endpoints), as the emulated USB readers' own. `kind` decides the framing around
        /// the PN53x command.
        case usbFullSpeed(USBReader)

        /// The USB readers libnfc drives.
        enum USBReader: String, Sendable {
            /// PN533 (SCL3711, `pn53x_usb`): the PN53x frames themselves on the bulk
            /// endpoints; command, ACK and answer are three transfers.
            case pn533
            /// ACR122U (`acr122_usb`): a CCID message (10-byte header) carrying the pseudo-APDU
            /// `FF 00 00 00 Lc` and `D4 CMD data`; the answer `D5 CMD+1 data 90 00` in one
            /// CCID message; no ACK on the bus (the reader's firmware takes the PN532's).
            case acr122u
        }

        var description: String {
            switch self {
            case .uart(let baud): "UART \(baud)"
            case .usbFullSpeed(let reader): "USB FS \(reader.rawValue)"
            }
        }
    }

    /// What a tag answers to one command.
    enum TagReply: Sendable, Equatable {
        /// Data bytes (CRC_A follows on air).
        case bytes(Int)
        /// A 4-bit ACK.
        case acknowledgement
    }

    let timing: PN532TimingSpec
    let frame: PN532FrameSpec
    /// The host link the commands travel on.
    let link: HostLink

    /// The floor on `link`; by default the PN532's UART at its power-on speed (115 200).
    init(pn532: PN532Spec = ChipTables.pn532, link: HostLink? = nil) {
        timing = pn532.timing
        frame = pn532.frame
        self.link = link ?? .uart(baud: pn532.timing.uartBaud)
    }

    /// USB full speed as `datasheets/readers.json` gives it (`usbFullSpeed`): the bus the
    /// emulated USB readers price their transfers on too.
    static let usbBus = ChipTables.readers.usbFullSpeed
    /// The bulk packet size of a USB reader's endpoints (every reader here uses 64).
    static func usbPacketSize(_ reader: HostLink.USBReader) -> Int {
        let name: ReaderModelName = reader == .pn533 ? .pn533 : .acr122u
        return ChipTables.readers.readers[name].usb?.endpoints.first { $0.transfer == .bulk }?.maximumPacketSize ?? 0
    }
    /// The CCID message header (USB CCID 1.1 §6.1) around an ACR122U command and answer.
    static let ccidHeaderBytes = ChipTables.readers.acr122u.ccidHeaderLength
    /// The ACR122U pseudo-APDU header `FF 00 00 00 Lc` before `D4 CMD data`, and its `90 00` after the answer.
    static let acr122uApduHeaderBytes = ChipTables.readers.acr122u.pseudoAPDUHeaderLength
    static let acr122uStatusWordBytes = ChipTables.readers.acr122u.statusWords[.ok].bytes.count

    /// Seconds one bulk transfer of `bytes` spends on a full-speed bus with `reader`'s packet
    /// size: its transactions, each with its overhead (a zero-length transfer is one empty
    /// transaction).
    static func usbBulkTransferSeconds(_ bytes: Int, reader: HostLink.USBReader = .pn533) -> Double {
        usbBus.bulkTransferSeconds(bytes: bytes, maximumPacketSize: usbPacketSize(reader))
    }

    /// Seconds of one byte on the UART at `baud` (8N1).
    static func uartByteSeconds(baud: Int) -> Double {
        10.0 / Double(baud)
    }

    /// Bytes of an information frame carrying TFI, command code and `dataBytes`.
    func informationFrameBytes(dataBytes: Int) -> Int {
        let body = 2 + dataBytes
        let length = body <= frame.normalFrameMaximumLength ? 2 : frame.extendedLengthMarker.count + 3
        return frame.preamble.count + frame.startCode.count + length + body + 1 + frame.postamble.count
    }

    /// One PN532 command: `dataOut` bytes after TFI and code to the chip, `dataIn` back.
    func command(dataOut: Int, dataIn: Int, airSeconds: Double = 0, eepromSeconds: Double = 0) -> FloorCost {
        switch link {
        case .uart(let baud):
            let out = informationFrameBytes(dataBytes: dataOut)
            let back = frame.ackFrame.count + informationFrameBytes(dataBytes: dataIn)
            return FloorCost(
                commands: 1, frames: 3, bytesToReader: out, bytesFromReader: back,
                linkSeconds: Double(out + back) * Self.uartByteSeconds(baud: baud),
                airSeconds: airSeconds, eepromSeconds: eepromSeconds)
        case .usbFullSpeed(.pn533):
            let out = informationFrameBytes(dataBytes: dataOut)
            let answer = informationFrameBytes(dataBytes: dataIn)
            let bus =
                Self.usbBulkTransferSeconds(out, reader: .pn533)
                + Self.usbBulkTransferSeconds(frame.ackFrame.count, reader: .pn533)
                + Self.usbBulkTransferSeconds(answer, reader: .pn533)
            return FloorCost(
                commands: 1, frames: 3, bytesToReader: out, bytesFromReader: frame.ackFrame.count + answer,
                linkSeconds: bus, airSeconds: airSeconds, eepromSeconds: eepromSeconds)
        case .usbFullSpeed(.acr122u):
            let out = Self.ccidHeaderBytes + Self.acr122uApduHeaderBytes + 2 + dataOut
            let back = Self.ccidHeaderBytes + 2 + dataIn + Self.acr122uStatusWordBytes
            return FloorCost(
                commands: 1, frames: 2, bytesToReader: out, bytesFromReader: back,
                linkSeconds: Self.usbBulkTransferSeconds(out, reader: .acr122u)
                    + Self.usbBulkTransferSeconds(back, reader: .acr122u),
                airSeconds: airSeconds, eepromSeconds: eepromSeconds)
        }
    }

    /// Air time of a standard frame of `bytes` bytes followed by CRC_A.
    func airFrameWithCRC(_ bytes: Int) -> Double {
        timing.airFrameSeconds(byteCount: bytes + 2)
    }

    /// Air time of a 4-bit ACK / NAK.
    var airFourBitFrame: Double {
        Double(4 + timing.airFramingBits) * timing.airBitSeconds
    }

    /// One tag command of `request` bytes through InCommunicateThru: its PN532 frames, the
    /// request and answer on air, and `programmedPages` × `eepromMsPerPage` of EEPROM time.
    func tagCommand(request: Int, answer: TagReply, programmedPages: Int = 0, eepromMsPerPage: Double = 0) -> FloorCost
    {
        var air = airFrameWithCRC(request) + timing.frameDelayTimeSeconds
        let answerBytes: Int
        switch answer {
        case .bytes(let count):
            air += airFrameWithCRC(count)
            answerBytes = count
        case .acknowledgement:
            air += airFourBitFrame
            answerBytes = 1
        }
        return command(
            dataOut: request, dataIn: 1 + answerBytes, airSeconds: air,
            eepromSeconds: Double(programmedPages) * eepromMsPerPage / 1000)
    }

    /// InListPassiveTarget for one ISO/IEC 14443-A tag with a `uidLength`-byte UID: REQA
    /// (7-bit short frame) → ATQA, then per cascade level ANTICOLLISION → UID CLn + BCC and
    /// SELECT (with CRC_A) → SAK (with CRC_A). The answer: NbTg, Tg, SENS_RES (2), SEL_RES,
    /// NFCIDLength and the UID.
    func activation(uidLength: Int) -> FloorCost {
        command(dataOut: 2, dataIn: 6 + uidLength, airSeconds: activationAirSeconds(uidLength: uidLength))
    }

    /// The air time of activating one ISO/IEC 14443-A tag with a `uidLength`-byte UID (the
    /// frames of ``activation(uidLength:)``).
    func activationAirSeconds(uidLength: Int) -> Double {
        let delay = timing.frameDelayTimeSeconds
        let levels = max(1, (uidLength + 2) / 4)  // 4 → 1, 7 → 2, 10 → 3
        let anticollision = timing.airFrameSeconds(byteCount: 2) + delay + timing.airFrameSeconds(byteCount: 5)
        let select = airFrameWithCRC(7) + delay + airFrameWithCRC(1)
        return unansweredRequestAirSeconds + Double(levels) * (anticollision + select)
    }

    /// A REQA (7-bit short frame) and the frame delay time and ATQA that follow it: what the
    /// chip waits through before it knows that no tag answered.
    var unansweredRequestAirSeconds: Double {
        Double(7 + timing.airFramingBits) * timing.airBitSeconds + timing.frameDelayTimeSeconds
            + timing.airFrameSeconds(byteCount: 2)
    }

    /// WUPA (7-bit short frame) → ATQA, then per cascade level SELECT → SAK: a tag whose
    /// UID is known, made ACTIVE again (no ANTICOLLISION needed).
    func reselectionAirSeconds(uidLength: Int) -> Double {
        let levels = max(1, (uidLength + 2) / 4)
        return unansweredRequestAirSeconds
            + Double(levels) * (airFrameWithCRC(7) + timing.frameDelayTimeSeconds + airFrameWithCRC(1))
    }

    /// The least that knowing a tag is alone costs beyond activating it: a REQA that no other
    /// tag answers, and the tag selected again, because to stay silent to that REQA it had to
    /// leave ACTIVE — halted by HLTA, or sent back to IDLE by the REQA itself, whereupon it
    /// would answer the next one (the tag states, NTAG21x datasheet §8.4). Air time alone: no
    /// host-link command of its own (the search rides in the poll's), and the HLTA is not
    /// counted.
    func secondTagSearch(uidLength: Int) -> FloorCost {
        FloorCost(airSeconds: unansweredRequestAirSeconds + reselectionAirSeconds(uidLength: uidLength))
    }

    /// MIFARE Classic three-pass authentication, run by the PN532 (InDataExchange `Tg 60/61
    /// block key(6) uid(4)`, status back): AUTH + CRC → nT (4), {nR aR} (8) → {aT} (4).
    func classicAuthentication(keyLength: Int = 6, uidBytes: Int = 4) -> FloorCost {
        let delay = timing.frameDelayTimeSeconds
        let air =
            airFrameWithCRC(2) + delay + timing.airFrameSeconds(byteCount: 4)
            + timing.airFrameSeconds(byteCount: 8) + delay + timing.airFrameSeconds(byteCount: 4)
        return command(dataOut: 1 + 2 + keyLength + uidBytes, dataIn: 1, airSeconds: air)
    }

    /// The largest FAST_READ answer one PN532 frame carries, in pages: the chip's frame
    /// data limit less TFI, answer code and status.
    func maximumFastReadPages(pageSize: Int) -> Int {
        (frame.maximumDataLength - 3) / pageSize
    }
}

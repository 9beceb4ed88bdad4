import NFCChips

/// An ACS ACR122U as libnfc's `acr122_usb` driver drives it: CCID-style messages on the
/// bulk endpoints, carrying ACS pseudo-APDUs (`FF …`) to the reader's firmware; Direct
/// Transmit (`FF 00 00 00 Lc D4 …`) hands a PN532 frame to the PN532 inside.
/// Facts and sources: `datasheets/readers/acr122u.md`.
struct ACR122UReader: USBReaderModel {
    /// CCID message types (USB CCID 1.1 §6.1, §6.2; libnfc acr122_usb.c).
    enum MessageType {
        static let iccPowerOn: UInt8 = 0x62
        static let iccPowerOff: UInt8 = 0x63
        static let escape: UInt8 = 0x6B
        static let xfrBlock: UInt8 = 0x6F
        static let dataBlock: UInt8 = 0x80
        static let slotStatus: UInt8 = 0x81
        static let escapeAnswer: UInt8 = 0x83
    }

    /// The CCID header is ten bytes: type, dwLength (LE), slot, sequence, three more.
    static let headerLength = 10
    /// bStatus / bError of an ordinary answer, as a real ACR122U sends them (nfcpy #167).
    static let okStatus: (status: UInt8, error: UInt8) = (0x00, 0x81)
    /// An empty DataBlock with "command failed" and ICC_MUTE (CCID 1.1 §6.2.6): what the
    /// firmware sends when the PN532 inside gave no answer.
    static let iccMute: (status: UInt8, error: UInt8) = (0x40, 0xFE)
    /// The ATR answered to PC_to_RDR_IccPowerOn with no card (nfcpy #167 transcript).
    static let atr: [UInt8] = [0x3B, 0x00]
    /// Get firmware version (`FF 00 48 00 00`): ASCII, no status word (ACR122U API §4;
    /// "ACR122U215" from a real reader in nfcpy #167).
    static let firmware = Array("ACR122U215".utf8)
    /// Status words (ACR122U API manual; libnfc acr122_usb.c).
    static let swOK: [UInt8] = [0x90, 0x00]
    static let swPN532Error: [UInt8] = [0x63, 0x7F]
    static let swFailed: [UInt8] = [0x63, 0x00]
    /// Pseudo-APDU class and the instructions the firmware knows (P1 after INS 00).
    static let pseudoClass: UInt8 = 0xFF
    enum Instruction {
        static let directTransmit: UInt8 = 0x00   // P1 00
        static let ledAndBuzzer: UInt8 = 0x40
        static let firmwareVersion: UInt8 = 0x48
        static let getPICCParameter: UInt8 = 0x50
        static let setPICCParameter: UInt8 = 0x51
    }
    /// Lc is one byte: a PN532 frame of at most 255 bytes with its D4 (libnfc: tama_payload[254]).
    static let maximumDirectTransmit = 255

    var controller: PN532Controller
    let descriptor: USBDeviceDescriptor
    /// The PICC operating parameter (API §6: default FF, every automatic poll on).
    private(set) var piccParameter: UInt8 = 0xFF
    /// The bi-colour LED state byte last set (API §6.2).
    private(set) var ledState: UInt8 = 0x00

    init(controller: PN532Controller) {
        self.controller = controller
        // 072f:2200, bcdDevice 2.14, "ACS" / "ACR122U PICC Interface", no serial string
        // (kernel log in libnfc #658); CCID class; endpoints are an assumption (see the datasheet note).
        descriptor = USBDeviceDescriptor(
            vendorID: 0x072F, productID: 0x2200, deviceRelease: 0x0214, interfaceClass: 0x0B,
            endpoints: [.init(address: 0x02, attributes: 2, maximumPacketSize: 64),
                        .init(address: 0x82, attributes: 2, maximumPacketSize: 64),
                        .init(address: 0x81, attributes: 3, maximumPacketSize: 8)],
            manufacturer: "ACS", product: "ACR122U PICC Interface", serialNumber: "")
    }

    mutating func bulkOut(_ transfer: [UInt8]) -> [[UInt8]] {
        guard transfer.count >= Self.headerLength else { return [] }   // not a CCID message: ignored
        let slot = transfer[5], sequence = transfer[6]
        let length = Int(transfer[1]) | Int(transfer[2]) << 8 | Int(transfer[3]) << 16 | Int(transfer[4]) << 24
        let body = Array(transfer.dropFirst(Self.headerLength).prefix(length))
        func message(_ type: UInt8, _ data: [UInt8], _ code: (status: UInt8, error: UInt8) = Self.okStatus) -> [UInt8] {
            let count = UInt32(data.count)
            return [type, UInt8(count & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 24),
                    slot, sequence, code.status, code.error, 0] + data
        }
        switch transfer[0] {
        case MessageType.iccPowerOn:
            return [message(MessageType.dataBlock, Self.atr)]
        case MessageType.iccPowerOff:
            return [message(MessageType.slotStatus, [])]
        case MessageType.xfrBlock, MessageType.escape:
            let answerType = transfer[0] == MessageType.xfrBlock ? MessageType.dataBlock : MessageType.escapeAnswer
            guard let answer = pseudoAPDU(body) else { return [message(answerType, [], Self.iccMute)] }
            return [message(answerType, answer)]
        default:
            // A message the firmware does not know: "command not supported" (CCID 1.1 §6.2.6).
            return [message(MessageType.slotStatus, [], (0x40, 0x00))]
        }
    }

    /// The firmware's answer to one pseudo-APDU, or nil when the PN532 inside stays silent.
    private mutating func pseudoAPDU(_ apdu: [UInt8]) -> [UInt8]? {
        guard apdu.count >= 5, apdu[0] == Self.pseudoClass else { return Self.swFailed }
        let instruction = apdu[1], p1 = apdu[2], p2 = apdu[3]
        guard instruction == 0x00 else { return Self.swFailed }
        switch p1 {
        case Instruction.directTransmit:
            let lc = Int(apdu[4])
            guard lc >= 2, apdu.count >= 5 + lc else { return Self.swFailed }
            return directTransmit(Array(apdu[5 ..< 5 + lc]))
        case Instruction.firmwareVersion:
            return Self.firmware
        case Instruction.getPICCParameter:
            return [Self.swOK[0], piccParameter]
        case Instruction.setPICCParameter:
            piccParameter = p2
            return [Self.swOK[0], piccParameter]
        case Instruction.ledAndBuzzer:
            ledState = p2
            return [Self.swOK[0], ledState]
        default:
            return Self.swFailed
        }
    }

    /// Direct Transmit: `D4 CMD data` to the PN532 inside, its `D5 CMD+1 data` back with 90 00.
    private mutating func directTransmit(_ tama: [UInt8]) -> [UInt8]? {
        let spec = controller.spec.frame
        guard tama.first == spec.hostToChipTFI, tama.count <= Self.maximumDirectTransmit else { return Self.swFailed }
        let output = controller.receive(controller.encoder.informationFrame(tama))
        for (frame, _) in PN53xChipFrame.split(output, spec: spec) {
            switch frame {
            case .ack: continue
            case .information(let body): return body + Self.swOK
            case .error: return Self.swPN532Error
            case .garbled: return Self.swFailed
            }
        }
        // Only an ACK: the PN532 holds its answer (InAutoPoll with no tag). The firmware
        // answers ICC mute; the PN532's pending command is aborted with an ACK frame.
        _ = controller.receive(controller.encoder.ack)
        return nil
    }
}

import NFCChips

/// An ACS ACR122U as libnfc's `acr122_usb` driver drives it: CCID-style messages on the
/// bulk endpoints, carrying ACS pseudo-APDUs (`FF …`) to the reader's firmware; Direct
/// Transmit (`FF 00 00 00 Lc D4 …`) hands a PN532 frame to the PN532 inside.
/// Facts and sources: `datasheets/readers/acr122u.md`.
struct ACR122UReader: USBReaderModel {
    /// The firmware's constants (`datasheets/readers.json`, `acr122u`).
    static let spec = ChipTables.readers.acr122u
    /// CCID message types (USB CCID 1.1 §6.1, §6.2; libnfc acr122_usb.c).
    static func message(_ name: ACR122UMessageName) -> UInt8 { spec.messages[name].code }
    /// A bStatus / bError pair.
    static func slotState(_ name: ACR122USlotStateName) -> (status: UInt8, error: UInt8) {
        (spec.slotStates[name].status, spec.slotStates[name].error)
    }
    /// The firmware string, ASCII, no status word (ACR122U API §4; "ACR122U215" from a
    /// real reader in nfcpy #167).
    static let firmware = Array(spec.firmwareString.utf8)
    /// Status words (ACR122U API manual; libnfc acr122_usb.c).
    static let swOK = spec.statusWords[.ok].bytes
    static let swPN532Error = spec.statusWords[.pn532Error].bytes
    static let swFailed = spec.statusWords[.failed].bytes
    /// The pseudo-APDU instruction byte (P1 selects the function).
    static let pseudoInstruction: UInt8 = 0
    /// Lc is one byte: a PN532 frame of at most 255 bytes with its D4 (libnfc: tama_payload[254]).
    static let maximumDirectTransmit = ChipTables.readers.readers[.acr122u].maximumCommandData + 1

    var controller: PN532Controller
    let descriptor: USBDeviceDescriptor
    /// The PICC operating parameter (API §6: default FF, every automatic poll on).
    private(set) var piccParameter: UInt8 = Self.spec.defaultPICCParameter
    /// The bi-colour LED state byte last set (API §6.2).
    private(set) var ledState: UInt8 = 0x00

    init(controller: PN532Controller) {
        self.controller = controller
        self.controller.priceHostLinkExternally()  // the bus is USB: ``transfer(_:)`` prices it
        // 072f:2200, bcdDevice 2.14, "ACS" / "ACR122U PICC Interface", no serial string
        // (kernel log in libnfc #658); CCID class; endpoints are an assumption (see the table's caveat).
        descriptor = USBDeviceDescriptor(ChipTables.readers.readers[.acr122u].usb!, serialNumber: "")
    }

    mutating func bulkOut(_ transfer: [UInt8]) -> [[UInt8]] {
        guard transfer.count >= Self.spec.ccidHeaderLength else { return [] }  // not a CCID message: ignored
        let slot = transfer[5]
        let sequence = transfer[6]
        let length = Int(transfer[1]) | Int(transfer[2]) << 8 | Int(transfer[3]) << 16 | Int(transfer[4]) << 24
        let body = Array(transfer.dropFirst(Self.spec.ccidHeaderLength).prefix(length))
        func message(_ type: UInt8, _ data: [UInt8], _ code: (status: UInt8, error: UInt8) = Self.slotState(.ok))
            -> [UInt8]
        {
            let count = UInt32(data.count)
            return [
                type, UInt8(count & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 24),
                slot, sequence, code.status, code.error, 0,
            ] + data
        }
        switch transfer[0] {
        case Self.message(.iccPowerOn):
            return [message(Self.message(.dataBlock), Self.spec.atrWithoutCard)]
        case Self.message(.iccPowerOff):
            return [message(Self.message(.slotStatus), [])]
        case Self.message(.xfrBlock), Self.message(.escape):
            let answerType =
                transfer[0] == Self.message(.xfrBlock) ? Self.message(.dataBlock) : Self.message(.escapeAnswer)
            guard let answer = pseudoAPDU(body) else { return [message(answerType, [], Self.slotState(.iccMute))] }
            return [message(answerType, answer)]
        default:
            // A message the firmware does not know: "command not supported" (CCID 1.1 §6.2.6).
            return [message(Self.message(.slotStatus), [], Self.slotState(.notSupported))]
        }
    }

    /// The firmware's answer to one pseudo-APDU, or nil when the PN532 inside stays silent.
    private mutating func pseudoAPDU(_ apdu: [UInt8]) -> [UInt8]? {
        guard apdu.count >= 5, apdu[0] == Self.spec.pseudoAPDUClass else { return Self.swFailed }
        let instruction = apdu[1]
        let p1 = apdu[2]
        let p2 = apdu[3]
        guard instruction == Self.pseudoInstruction else { return Self.swFailed }
        switch p1 {
        case Self.spec.pseudoAPDUs[.directTransmit].code:
            let lc = Int(apdu[4])
            guard lc >= 2, apdu.count >= 5 + lc else { return Self.swFailed }
            return directTransmit(Array(apdu[5..<5 + lc]))
        case Self.spec.pseudoAPDUs[.firmwareVersion].code:
            return Self.firmware
        case Self.spec.pseudoAPDUs[.getPICCParameter].code:
            return [Self.swOK[0], piccParameter]
        case Self.spec.pseudoAPDUs[.setPICCParameter].code:
            piccParameter = p2
            return [Self.swOK[0], piccParameter]
        case Self.spec.pseudoAPDUs[.ledAndBuzzer].code:
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

import NFCChips

/// A PN533 on USB with the SCL3711's identity, as libnfc's `pn53x_usb` driver drives it:
/// PN53x frames directly on the bulk endpoints, the ACK and the answer each its own IN
/// transfer. Facts and sources: `datasheets/readers/pn533-scl3711.md`.
///
/// The command core is the emulator's PN532 (``PN532Controller``); what differs on the
/// PN533 is answered here: GetFirmwareVersion (IC 0x33), a status byte before the
/// ReadRegister / WriteRegister answers, and no SAMConfiguration or InAutoPoll.
struct PN533Reader: USBReaderModel {
    /// GetFirmwareVersion's answer: IC 0x33, version 2.7, support 0x07 (libnfc's own
    /// PN533 trace in `acr122_usb.c`; nfc-list prints "PN533 v2.7").
    static let firmwareVersion = ChipTables.readers.pn533.firmwareVersion
    /// The status byte the PN533 puts before ReadRegister / WriteRegister answers
    /// (libnfc `pn53x.c`: "PN533 prepends its answer by the status byte").
    static let registerStatusOK = ChipTables.readers.pn533.registerAnswerStatus
    /// PN532 commands the PN533 lacks: InAutoPoll, SAMConfiguration.
    static let missingCommands = Set(ChipTables.readers.pn533.missingCommands.map { ChipTables.pn532.code($0) })

    var controller: PN532Controller
    let descriptor: USBDeviceDescriptor

    init(controller: PN532Controller, serialNumber: String) {
        self.controller = controller
        self.controller.priceHostLinkExternally()  // the bus is USB: ``transfer(_:)`` prices it
        // SCL3711: 04e6:5591, vendor class interface, bulk OUT and IN of 64 bytes
        // (libnfc pn53x_usb.c: the supported-device table and btXramUsbDesc_scl3711).
        descriptor = USBDeviceDescriptor(ChipTables.readers.readers[.pn533].usb!, serialNumber: serialNumber)
    }

    mutating func bulkOut(_ transfer: [UInt8]) -> [[UInt8]] {
        let spec = controller.spec
        let encoder = controller.encoder
        var output: [UInt8]
        let frames = PN53xChipFrame.split(transfer, spec: spec.frame)
        if frames.count == 1, case .information(let body) = frames[0].frame, body.count >= 2,
            body[0] == spec.frame.hostToChipTFI
        {
            let code = body[1]
            switch code {
            case spec.code(.getFirmwareVersion):
                _ = controller.receive(transfer)  // counted as a command; the PN532 answer is replaced
                output = encoder.ack + encoder.answer(toCommand: code, data: Self.firmwareVersion)
            case _ where Self.missingCommands.contains(code):
                // Not in the PN533's command set: the syntax-error frame.
                output = encoder.ack + encoder.error
            case spec.code(.readRegister), spec.code(.writeRegister):
                output = []
                for (frame, bytes) in PN53xChipFrame.split(controller.receive(transfer), spec: spec.frame) {
                    if case .information(let answer) = frame, answer.count >= 2 {
                        output += encoder.answer(toCommand: code, data: [Self.registerStatusOK] + answer.dropFirst(2))
                    } else {
                        output += bytes
                    }
                }
            default:
                output = controller.receive(transfer)
            }
        } else {
            output = controller.receive(transfer)
        }
        return PN53xChipFrame.split(output, spec: spec.frame).map { $0.bytes }
    }
}

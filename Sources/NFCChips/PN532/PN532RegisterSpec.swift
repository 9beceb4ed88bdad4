/// One PN532 register (CIU register or SFR) that changes how the chip behaves.
///
/// ```swift
/// let txMode = ChipTables.pn532.registers[.txMode]
/// txMode.address              // 0x6302
/// txMode.bits[.txCRCEn].mask  // 0x80
/// ```
package struct PN532RegisterSpec: NamedEntry {
    /// The register name as UM0701 / libnfc write it, e.g. `TxMode`.
    package var name: PN532RegisterName
    /// The 16-bit address used by ReadRegister / WriteRegister.
    @Hex package var address: UInt16
    /// What the register controls.
    package var summary: String
    /// What the firmware leaves in the register at power-up; `nil` when the tables do not
    /// know (the register then reads 00 until written).
    @Hex package var powerUp: UInt8? = nil
    /// What the firmware writes when it activates a 106 kbit/s type A target
    /// (InListPassiveTarget, InAutoPoll, InSelect); `nil` when it leaves the register alone.
    @Hex package var afterTypeAActivation: UInt8? = nil
    /// The bit fields that matter for libnfc and the emulator: exactly the
    /// ``PN532RegisterBitName``s whose ``PN532RegisterBitName/register`` is this register.
    package var bits: NamedTable<PN532RegisterBit<PN532RegisterBitName>>
}

extension PN532RegisterSpec {
    /// Decodes a register and checks that its bits are the ones ``PN532RegisterName/bits`` lists.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(PN532RegisterName.self, forKey: .name)
        _address = try container.decode(Hex<UInt16>.self, forKey: .address)
        summary = try container.decode(String.self, forKey: .summary)
        _powerUp = try container.decode(Hex<UInt8?>.self, forKey: .powerUp)
        _afterTypeAActivation = try container.decode(Hex<UInt8?>.self, forKey: .afterTypeAActivation)
        let bitsDecoder = try container.superDecoder(forKey: .bits)
        bits = try NamedTable(
            checking: [PN532RegisterBit<PN532RegisterBitName>](from: bitsDecoder),
            against: name.bits, at: bitsDecoder.codingPath)
    }
}

/// The PN532 registers the tables describe; the raw values are the names in
/// `datasheets/pn532.json` (UM0701 / libnfc spelling).
package enum PN532RegisterName: String, TableName {
    /// CIU_TxMode: transmission rate and framing.
    case txMode = "TxMode"
    /// CIU_RxMode: reception rate and framing.
    case rxMode = "RxMode"
    /// CIU_TxAuto: antenna driver settings.
    case txAuto = "TxAuto"
    /// CIU_ManualRCV: receiver fine tuning.
    case manualRCV = "ManualRCV"
    /// CIU_Status2: receiver, transmitter and Crypto1 state.
    case status2 = "Status2"
    /// CIU_Control: miscellaneous control bits.
    case control = "Control"
    /// CIU_BitFraming: bit-oriented frames.
    case bitFraming = "BitFraming"

    /// The bit fields the register's table lists.
    package var bits: [PN532RegisterBitName] { PN532RegisterBitName.allCases.filter { $0.register == self } }
}

/// The bit fields of the PN532 registers, each in the table of its ``register``; the raw
/// values are the names in `datasheets/pn532.json`.
package enum PN532RegisterBitName: String, TableName {
    /// TxMode: the chip appends CRC_A.
    case txCRCEn = "TxCRCEn"
    /// TxMode: the transmit bit rate.
    case txSpeed = "TxSpeed"
    /// TxMode: the framing.
    case txFraming = "TxFraming"
    /// RxMode: the chip checks and strips CRC_A.
    case rxCRCEn = "RxCRCEn"
    /// RxMode: the receive bit rate.
    case rxSpeed = "RxSpeed"
    /// RxMode: ignore frames shorter than 4 bits.
    case rxNoErr = "RxNoErr"
    /// RxMode: keep receiving after the first frame.
    case rxMultiple = "RxMultiple"
    /// RxMode: the framing.
    case rxFraming = "RxFraming"
    /// TxAuto: force 100 % ASK modulation.
    case force100ASK = "Force100ASK"
    /// TxAuto: wake up when an RF field is detected.
    case autoWakeUp = "AutoWakeUp"
    /// TxAuto: initial RF collision avoidance.
    case initialRFOn = "InitialRFOn"
    /// TxAuto: RF collision avoidance on; the firmware clears it when it transmits.
    case caOn = "CAOn"
    /// ManualRCV: parity generation and check off.
    case parityDisable = "ParityDisable"
    /// Status2: MIFARE Crypto1 is on.
    case mfCrypto1On = "MFCrypto1On"
    /// Control: the chip acts as initiator.
    case initiator = "Initiator"
    /// Control: valid bits in the last received byte.
    case rxLastBits = "RxLastBits"
    /// BitFraming: starts a transmission.
    case startSend = "StartSend"
    /// BitFraming: bit position of the first received bit.
    case rxAlign = "RxAlign"
    /// BitFraming: bits to send of the last byte.
    case txLastBits = "TxLastBits"

    /// The register whose table holds the bit.
    package var register: PN532RegisterName {
        switch self {
        case .txCRCEn, .txSpeed, .txFraming: .txMode
        case .rxCRCEn, .rxSpeed, .rxNoErr, .rxMultiple, .rxFraming: .rxMode
        case .force100ASK, .autoWakeUp, .initialRFOn, .caOn: .txAuto
        case .parityDisable: .manualRCV
        case .mfCrypto1On: .status2
        case .initiator, .rxLastBits: .control
        case .startSend, .rxAlign, .txLastBits: .bitFraming
        }
    }
}

/// The bits of the RFConfiguration item `rfField` (ConfigurationData byte 0); the raw values
/// are the names in `datasheets/pn532.json`.
package enum PN532RFFieldBitName: String, TableName {
    /// The RF field is switched on.
    case rfOn = "RFOn"
    /// Automatic RF collision avoidance.
    case autoRFCA = "AutoRFCA"
}

/// A bit field inside a PN532 register or configuration byte; `Name` names the fields.
package struct PN532RegisterBit<Name: TableName>: NamedEntry {
    /// The field name, e.g. `TxCRCEn`.
    package var name: Name
    /// The field's bits inside the register byte, e.g. `0x80`.
    @Hex package var mask: UInt8
    /// What the field does when set.
    package var meaning: String

    /// The field's value in `registerValue`, shifted down to bit 0.
    package func value(in registerValue: UInt8) -> UInt8 {
        guard mask != 0 else { return 0 }
        return (registerValue & mask) >> UInt8(mask.trailingZeroBitCount)
    }
}

/// The register addresses libnfc caches and writes only when they differ.
package struct PN532RegisterRange: Codable, Equatable, Sendable {
    /// The first cached address.
    @Hex package var first: UInt16
    /// The last cached address.
    @Hex package var last: UInt16

    /// The range as Swift values.
    package var addresses: ClosedRange<UInt16> { first...last }
}

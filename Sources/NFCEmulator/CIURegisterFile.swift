import NFCChips

/// The PN532's CIU registers and SFRs as a plain file of bytes: any address can be
/// written and read back, as libnfc expects; the few bits that change behaviour are
/// read through the names in the tables. Registers start at what the firmware leaves at
/// power-up, and the firmware rewrites some when it activates a target.
///
/// ```swift
/// var registers = CIURegisterFile(spec: ChipTables.pn532)
/// registers.write(0x80, at: ChipTables.pn532.registers[.txMode].address)
/// registers.flag(.txCRCEn)   // true
/// ```
public struct CIURegisterFile: Sendable, Equatable {
    private let spec: PN532Spec
    private var values: [UInt16: UInt8] = [:]

    /// A register file at power-up: the values the firmware leaves (the tables'
    /// ``NFCChips/PN532RegisterSpec/powerUp``), zero elsewhere.
    package init(spec: PN532Spec) {
        self.spec = spec
        reset()
    }

    /// The value at `address` (zero if never written).
    public func read(_ address: UInt16) -> UInt8 { values[address] ?? 0 }

    /// Stores `value` at `address`.
    public mutating func write(_ value: UInt8, at address: UInt16) { values[address] = value }

    /// The value of bit field `bit` (of its register), shifted down to bit 0.
    package func field(_ bit: PN532RegisterBitName) -> UInt8 {
        let (address, field) = lookUp(bit)
        return field.value(in: read(address))
    }

    /// Whether bit field `bit` is non-zero.
    package func flag(_ bit: PN532RegisterBitName) -> Bool { field(bit) != 0 }

    /// Sets bit field `bit` (of its register) to `value` (given from bit 0).
    package mutating func setField(_ bit: PN532RegisterBitName, to value: UInt8) {
        let (address, field) = lookUp(bit)
        let shift = UInt8(field.mask.trailingZeroBitCount)
        write((read(address) & ~field.mask) | ((value << shift) & field.mask), at: address)
    }

    /// Forgets every value written (power-on reset): back to the firmware's power-up values.
    public mutating func reset() {
        values.removeAll()
        for register in spec.registers { if let value = register.powerUp { values[register.address] = value } }
    }

    /// What the firmware writes when it activates a 106 kbit/s type A target: TxMode and
    /// RxMode read 80 afterwards on a real PN532 (nfcpy issue 131), whatever the host wrote.
    public mutating func configureForTypeAActivation() {
        for register in spec.registers {
            if let value = register.afterTypeAActivation { values[register.address] = value }
        }
    }

    private func lookUp(_ bit: PN532RegisterBitName) -> (UInt16, PN532RegisterBit<PN532RegisterBitName>) {
        let register = spec.registers[bit.register]
        return (register.address, register.bits[bit])
    }
}

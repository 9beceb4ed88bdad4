import NFCChips

/// The PN532's CIU registers and SFRs as a plain file of bytes: any address can be
/// written and read back, as libnfc expects; the few bits that change behaviour are
/// read through the names in the tables.
///
/// ```swift
/// var registers = CIURegisterFile(spec: ChipTables.pn532)
/// registers.write(0x80, at: ChipTables.pn532.registers[.txMode].address)
/// registers.flag(.txCRCEn)   // true
/// ```
public struct CIURegisterFile: Sendable, Equatable {
    private let spec: PN532Spec
    private var values: [UInt16: UInt8] = [:]

    /// A register file with every register at zero.
    public init(spec: PN532Spec) {
        self.spec = spec
    }

    /// The value at `address` (zero if never written).
    public func read(_ address: UInt16) -> UInt8 { values[address] ?? 0 }

    /// Stores `value` at `address`.
    public mutating func write(_ value: UInt8, at address: UInt16) { values[address] = value }

    /// The value of bit field `bit` (of its register), shifted down to bit 0.
    public func field(_ bit: PN532RegisterBitName) -> UInt8 {
        let (address, field) = lookUp(bit)
        return field.value(in: read(address))
    }

    /// Whether bit field `bit` is non-zero.
    public func flag(_ bit: PN532RegisterBitName) -> Bool { field(bit) != 0 }

    /// Sets bit field `bit` (of its register) to `value` (given from bit 0).
    public mutating func setField(_ bit: PN532RegisterBitName, to value: UInt8) {
        let (address, field) = lookUp(bit)
        let shift = UInt8(field.mask.trailingZeroBitCount)
        write((read(address) & ~field.mask) | ((value << shift) & field.mask), at: address)
    }

    /// Forgets every value (power-on reset).
    public mutating func reset() { values.removeAll() }

    private func lookUp(_ bit: PN532RegisterBitName) -> (UInt16, PN532RegisterBit<PN532RegisterBitName>) {
        let register = spec.registers[bit.register]
        return (register.address, register.bits[bit])
    }
}

/// One PN532 register (CIU register or SFR) that changes how the chip behaves.
public struct PN532RegisterSpec: Codable, Equatable, Sendable {
    /// The register name as UM0701 / libnfc write it, e.g. `TxMode`.
    public var name: String
    /// The 16-bit address used by ReadRegister / WriteRegister.
    @Hex public var address: UInt16
    /// What the register controls.
    public var summary: String
    /// The bit fields that matter for libnfc and the emulator.
    public var bits: [PN532RegisterBit]

    /// The bit field called `name`, if the table lists it.
    public func bit(named name: String) -> PN532RegisterBit? {
        bits.first { $0.name == name }
    }
}

/// A bit field inside a PN532 register.
public struct PN532RegisterBit: Codable, Equatable, Sendable {
    /// The field name, e.g. `TxCRCEn`.
    public var name: String
    /// The field's bits inside the register byte, e.g. `0x80`.
    @Hex public var mask: UInt8
    /// What the field does when set.
    public var meaning: String

    /// The field's value in `registerValue`, shifted down to bit 0.
    public func value(in registerValue: UInt8) -> UInt8 {
        guard mask != 0 else { return 0 }
        return (registerValue & mask) >> UInt8(mask.trailingZeroBitCount)
    }
}

/// The register addresses libnfc caches and writes only when they differ.
public struct PN532RegisterRange: Codable, Equatable, Sendable {
    /// The first cached address.
    @Hex public var first: UInt16
    /// The last cached address.
    @Hex public var last: UInt16

    /// The range as Swift values.
    public var addresses: ClosedRange<UInt16> { first...last }
}

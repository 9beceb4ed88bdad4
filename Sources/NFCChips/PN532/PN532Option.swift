/// A coded option of a PN532 command: a BrTy modulation, an RFConfiguration item,
/// a SAMConfiguration mode, a SetParameters flag or a Diagnose test.
public struct PN532Option: Codable, Equatable, Sendable {
    /// The code or flag mask the command carries.
    @Hex public var code: UInt8
    /// A camelCase name, e.g. `iso14443A106`, `rfField`, `normal`.
    public var name: String
    /// What it means.
    public var meaning: String
}

extension Array where Element == PN532Option {
    /// The option called `name`.
    public func option(named name: String) -> PN532Option? { first { $0.name == name } }
    /// The option with code `code`.
    public func option(code: UInt8) -> PN532Option? { first { $0.code == code } }
}

/// One target type of InAutoPoll: the code the host asks for and reports back.
///
/// ```swift
/// ChipTables.pn532.autoPollTargetTypes.first { $0.code == 0x10 }?.name   // "mifare"
/// ```
public struct PN532AutoPollType: Codable, Equatable, Sendable {
    /// The type code in the request and in each answered target.
    @Hex public var code: UInt8
    /// A camelCase name, e.g. `genericPassive106`, `mifare`, `iso14443_4A`.
    public var name: String
    /// The InListPassiveTarget BrTy it polls with, when it is a passive type.
    @Hex public var modulation: UInt8?
    /// Whether only ISO/IEC 14443-4 targets (SAK bit 6) answer it.
    public var isoDEPOnly: Bool
    /// Whether it is an NFCIP-1 DEP type (active or passive).
    public var dep: Bool
    /// What it means.
    public var meaning: String
}

/// One speed of SetSerialBaudRate.
public struct PN532BaudRate: Codable, Equatable, Sendable {
    /// The BR code the host sends.
    @Hex public var code: UInt8
    /// Bits per second.
    public var baud: Int
}

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

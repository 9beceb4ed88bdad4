/// A 4-bit ACK / NAK answer of a Type 2 chip, checked against ``ChipTables/type2``.
///
/// ```swift
/// if let answer = NAKCode(rawValue: 0x00) {
///     print(answer.name.rawValue, answer.meaning) // invalidArgument, "NAK: invalid argument …"
/// }
/// NAKCode(rawValue: 0x0A)?.isACK       // true
/// NAKCode(rawValue: 0x07)              // nil: not in the table
/// ```
public struct NAKCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 4-bit code.
    public let rawValue: UInt8

    /// The code, if the ACK / NAK table lists it.
    public init?(rawValue: UInt8) {
        guard ChipTables.type2.acknowledgement(code: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    /// The table entry.
    public var spec: AcknowledgementSpec<Type2AcknowledgementName> {
        guard let spec = ChipTables.type2.acknowledgement(code: rawValue) else {
            preconditionFailure("NAKCode \(rawValue) was checked against the table")
        }
        return spec
    }

    /// The name, e.g. ``Type2AcknowledgementName/invalidArgument``.
    public var name: Type2AcknowledgementName { spec.name }
    /// What the code means.
    public var meaning: String { spec.meaning }
    /// Whether this is the ACK.
    public var isACK: Bool { spec.isACK }
    /// `0x0 invalidArgument: …`.
    public var description: String { "0x\(String(rawValue, radix: 16, uppercase: true)) \(name.rawValue): \(meaning)" }
}

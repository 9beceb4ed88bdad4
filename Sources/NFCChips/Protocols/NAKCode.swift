/// A 4-bit ACK / NAK answer of a Type 2 chip, checked against ``ChipTables/type2``.
///
/// ```swift
/// if let answer = NAKCode(rawValue: 0x00) {
///     print(answer.name.rawValue, answer.meaning) // invalidArgument, "NAK: invalid argument …"
/// }
/// NAKCode(rawValue: 0x0A)?.isACK       // true
/// NAKCode(rawValue: 0x07)              // nil: not in the table
/// ```
package struct NAKCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 4-bit code.
    package let rawValue: UInt8

    /// The code, if the ACK / NAK table lists it.
    package init?(rawValue: UInt8) {
        guard ChipTables.type2.acknowledgement(code: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    /// The table entry.
    package var spec: AcknowledgementSpec<Type2AcknowledgementName> {
        guard let spec = ChipTables.type2.acknowledgement(code: rawValue) else {
            preconditionFailure("NAKCode \(rawValue) was checked against the table")
        }
        return spec
    }

    /// The name, e.g. ``Type2AcknowledgementName/invalidArgument``.
    package var name: Type2AcknowledgementName { spec.name }
    /// What the code means.
    package var meaning: String { spec.meaning }
    /// Whether this is the ACK.
    package var isACK: Bool { spec.isACK }
    /// `0x0 invalidArgument: …`.
    package var description: String { "0x\(String(rawValue, radix: 16, uppercase: true)) \(name.rawValue): \(meaning)" }
}

/// The result of identifying a chip from its activation answers.
package enum ChipIdentification: Equatable, Sendable {
    /// The answers match a chip in the tables.
    case identified(Chip)
    /// The answers match no chip in the tables; they are kept for the error message.
    case unknown(atqa: UInt16, sak: UInt8, getVersion: [UInt8]?)

    /// The chip, when identified.
    package var chip: Chip? {
        if case let .identified(chip) = self { return chip }
        return nil
    }
}

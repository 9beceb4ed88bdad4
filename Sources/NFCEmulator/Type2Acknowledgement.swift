import NFCChips

/// The 4-bit ACK and NAK codes of the NTAG21x / Ultralight family, looked up by name in
/// the NFCChips Type 2 table.
enum Type2Acknowledgement {
    private static func code(_ name: String) -> UInt8 {
        guard let entry = ChipTables.type2.acknowledgements.first(where: { $0.name == name }) else {
            preconditionFailure("datasheets/type2.json lacks acknowledgement \(name)")
        }
        return entry.code
    }

    /// ACK: the command was carried out.
    static let ack = code("ack")
    /// NAK: invalid argument (bad page address), also access denied and wrong password.
    static let invalidArgument = code("invalidArgument")
    /// NAK: parity or CRC error.
    static let parityOrCRCError = code("parityOrCRCError")
    /// NAK: the authentication limit (AUTHLIM) was reached; also EV1 counter overflow.
    static let authenticationLimit = code("authenticationLimitReached")
    /// NAK: EEPROM write error.
    static let eepromWriteError = code("eepromWriteError")
}

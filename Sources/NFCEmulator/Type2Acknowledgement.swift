import NFCChips

/// The 4-bit ACK and NAK codes of the NTAG21x / Ultralight family, looked up by name in
/// the NFCChips Type 2 table.
enum Type2Acknowledgement {
    private static func code(_ name: Type2AcknowledgementName) -> UInt8 { ChipTables.type2.acknowledgements[name].code }

    /// ACK: the command was carried out.
    static let ack = code(.ack)
    /// NAK: invalid argument (bad page address), also access denied and wrong password.
    static let invalidArgument = code(.invalidArgument)
    /// NAK: parity or CRC error.
    static let parityOrCRCError = code(.parityOrCRCError)
    /// NAK: the authentication limit (AUTHLIM) was reached; also EV1 counter overflow.
    static let authenticationLimit = code(.authenticationLimitReached)
    /// NAK: EEPROM write error.
    static let eepromWriteError = code(.eepromWriteError)
}

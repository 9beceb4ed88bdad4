/// The ACS ACR122U's firmware as libnfc's `acr122_usb` driver speaks to it: CCID-style
/// messages carrying pseudo-APDUs (`FF …`); Direct Transmit hands a PN532 frame body to
/// the PN532 inside. Facts and sources: `datasheets/readers/acr122u.md`.
///
/// ```swift
/// let acr = ChipTables.readers.acr122u
/// acr.messages[.dataBlock].code       // 0x80
/// acr.slotStates[.iccMute].error      // 0xFE
/// acr.pseudoAPDUs[.ledAndBuzzer].code // 0x40
/// ```
package struct ACR122USpec: Codable, Equatable, Sendable {
    /// The CCID header: type, dwLength (LE), slot, sequence, three message-specific bytes.
    package var ccidHeaderLength: Int
    /// The pseudo-APDU header `FF 00 P1 P2 Lc` before Direct Transmit's PN532 frame body.
    package var pseudoAPDUHeaderLength: Int
    /// CCID message types.
    package var messages: NamedTable<ReaderCode<ACR122UMessageName>>
    /// bStatus / bError pairs of the answers.
    package var slotStates: NamedTable<ACR122USlotState>
    /// The class byte of every pseudo-APDU.
    @Hex package var pseudoAPDUClass: UInt8
    /// The pseudo-APDUs (INS `00`, the code is P1).
    package var pseudoAPDUs: NamedTable<ReaderCode<ACR122UPseudoAPDUName>>
    /// The status words the firmware appends.
    package var statusWords: NamedTable<ACR122UStatusWord>
    /// The ATR answered to IccPowerOn with no card.
    @Hex package var atrWithoutCard: [UInt8]
    /// The firmware string (`FF 00 48 00 00`).
    package var firmwareString: String
    /// The PICC operating parameter at power-on (every automatic poll on).
    @Hex package var defaultPICCParameter: UInt8
}

/// A one-byte code of a reader's own protocol, with its meaning.
package struct ReaderCode<Name: TableName>: NamedEntry {
    /// The entry's name.
    package var name: Name
    /// The byte.
    @Hex package var code: UInt8
    /// What it means.
    package var meaning: String
}

/// The ACR122U's CCID message types.
package enum ACR122UMessageName: String, TableName {
    /// PC_to_RDR_IccPowerOn.
    case iccPowerOn
    /// PC_to_RDR_IccPowerOff.
    case iccPowerOff
    /// PC_to_RDR_Escape.
    case escape
    /// PC_to_RDR_XfrBlock, libnfc's carrier for pseudo-APDUs.
    case xfrBlock
    /// RDR_to_PC_DataBlock.
    case dataBlock
    /// RDR_to_PC_SlotStatus.
    case slotStatus
    /// RDR_to_PC_Escape.
    case escapeAnswer
}

/// The ACR122U pseudo-APDUs (P1 after `FF 00`).
package enum ACR122UPseudoAPDUName: String, TableName {
    /// Direct Transmit: a PN532 frame body to the PN532 inside.
    case directTransmit
    /// The bi-colour LED and buzzer.
    case ledAndBuzzer
    /// The firmware string.
    case firmwareVersion
    /// Reads the PICC operating parameter.
    case getPICCParameter
    /// Sets the PICC operating parameter.
    case setPICCParameter
}

/// A bStatus / bError pair of a CCID answer.
package struct ACR122USlotState: NamedEntry {
    /// The entry's name.
    package var name: ACR122USlotStateName
    /// bStatus.
    @Hex package var status: UInt8
    /// bError.
    @Hex package var error: UInt8
    /// What it means.
    package var meaning: String
    /// A remark when less certain than the table.
    package var caveat: DatasheetCaveat?
}

/// The bStatus / bError pairs the table names.
package enum ACR122USlotStateName: String, TableName {
    /// An ordinary answer.
    case ok
    /// The PN532 inside gave no answer (ICC_MUTE).
    case iccMute
    /// A CCID message the firmware does not know.
    case notSupported
}

/// A status word the ACR122U firmware appends.
package struct ACR122UStatusWord: NamedEntry {
    /// The entry's name.
    package var name: ACR122UStatusWordName
    /// SW1 SW2 as one value.
    @Hex package var code: UInt16
    /// What it means.
    package var meaning: String

    /// SW1 and SW2.
    package var bytes: [UInt8] { [UInt8(code >> 8), UInt8(code & 0xFF)] }
}

/// The ACR122U status words the table names.
package enum ACR122UStatusWordName: String, TableName {
    /// Success.
    case ok
    /// The PN532 inside answered its error frame.
    case pn532Error
    /// The operation failed.
    case failed
}

/// What a PN533 answers differently from the PN532 (PN533 user manual; libnfc pn53x.c).
package struct PN533Spec: Codable, Equatable, Sendable {
    /// GetFirmwareVersion's answer data: IC `33`, version 2.7, support `07`.
    @Hex package var firmwareVersion: [UInt8]
    /// The status byte the PN533 puts before ReadRegister / WriteRegister answers.
    @Hex package var registerAnswerStatus: UInt8
    /// PN532 commands the PN533 does not have.
    package var missingCommands: [PN532CommandName]
}

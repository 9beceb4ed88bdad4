/// A coded option of a PN532 command: a BrTy modulation, an RFConfiguration item,
/// a SAMConfiguration mode, a SetParameters flag or a Diagnose test; `Name` names the
/// options of one command.
package struct PN532Option<Name: TableName>: NamedEntry {
    /// The code or flag mask the command carries.
    @Hex package var code: UInt8
    /// A camelCase name, e.g. `iso14443A106`, `rfField`, `normal`.
    package var name: Name
    /// What it means.
    package var meaning: String
}

extension NamedTable {
    /// The option with code `code`.
    package func option<Name>(code: UInt8) -> Entry? where Entry == PN532Option<Name> { first { $0.code == code } }
}

/// The BrTy modulations of InListPassiveTarget; the raw values are the names in
/// `datasheets/pn532.json`.
package enum PN532ModulationName: String, TableName {
    /// 106 kbit/s type A (ISO/IEC 14443 Type A, MIFARE).
    case iso14443A106
    /// 212 kbit/s FeliCa polling.
    case felica212
    /// 424 kbit/s FeliCa polling.
    case felica424
    /// 106 kbit/s type B (ISO/IEC 14443-3B).
    case iso14443B106
    /// 106 kbit/s Innovision Jewel.
    case jewel106
}

/// The items of RFConfiguration; the raw values are the names in `datasheets/pn532.json`.
package enum PN532RFConfigurationItemName: String, TableName {
    /// RF field on / off and automatic collision avoidance.
    case rfField
    /// ATR_RES and retry timeouts.
    case variousTimings
    /// Retries of InCommunicateThru / InDataExchange.
    case maxRetryCOM
    /// Retries of ATR, PSL and passive activation.
    case maxRetries
    /// Analog settings for 106 kbit/s type A.
    case analogTypeA106
    /// Analog settings for 212/424 kbit/s.
    case analogTypeA212424
    /// Analog settings for type B.
    case analogTypeB
    /// Analog settings for 212/424/848 kbit/s ISO/IEC 14443-4.
    case analogISO14443_4
}

/// The modes of SAMConfiguration; the raw values are the names in `datasheets/pn532.json`.
package enum PN532SAMModeName: String, TableName {
    /// The SAM is not used (libnfc sends it at open).
    case normal
    /// The PN532 and SAM appear as one contactless card.
    case virtualCard
    /// The host talks to the SAM.
    case wiredCard
    /// The PN532 and the SAM are both visible.
    case dualCard
}

/// The flags of SetParameters; the raw values are the names in `datasheets/pn532.json`.
package enum PN532ParameterFlagName: String, TableName {
    /// fNADUsed: use NAD in DEP / ISO-DEP.
    case nadUsed
    /// fDIDUsed: use DID.
    case didUsed
    /// fAutomaticATR_RES: answer ATR_REQ automatically.
    case automaticATRRes
    /// fAutomaticRATS: send RATS to ISO 14443-4 targets.
    case automaticRATS
    /// fISO14443-4_PICC: emulate an ISO 14443-4 card.
    case iso14443_4PICC
    /// fRemovePrePostAmble: no preamble / postamble on the host link.
    case removePrePostAmble
}

/// The tests of Diagnose; the raw values are the names in `datasheets/pn532.json`.
package enum PN532DiagnoseTestName: String, TableName {
    /// Echo of the data (libnfc's check at open).
    case communicationLine
    /// ROM checksum test.
    case rom
    /// RAM test.
    case ram
    /// Polling test to a target.
    case pollingTarget
    /// Echo-back test in target mode.
    case echoBack
    /// Attention request / card presence.
    case attentionRequest
    /// Antenna self-test.
    case selfAntenna
}

/// One target type of InAutoPoll: the code the host asks for and reports back.
///
/// ```swift
/// ChipTables.pn532.autoPollTargetTypes.first { $0.code == 0x10 }?.name   // "mifare"
/// ```
package struct PN532AutoPollType: Codable, Equatable, Sendable {
    /// The type code in the request and in each answered target.
    @Hex package var code: UInt8
    /// A camelCase name, e.g. `genericPassive106`, `mifare`, `iso14443_4A`.
    package var name: String
    /// The InListPassiveTarget BrTy it polls with, when it is a passive type.
    @Hex package var modulation: UInt8?
    /// Whether only ISO/IEC 14443-4 targets (SAK bit 6) answer it.
    package var isoDEPOnly: Bool
    /// Whether it is an NFCIP-1 DEP type (active or passive).
    package var dep: Bool
    /// What it means.
    package var meaning: String
}

/// One speed of SetSerialBaudRate.
package struct PN532BaudRate: Codable, Equatable, Sendable {
    /// The BR code the host sends.
    @Hex package var code: UInt8
    /// Bits per second.
    package var baud: Int
}

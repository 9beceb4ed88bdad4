/// The PN532 commands by their UM0701 names; the raw value is the name the manual uses.
///
/// Look the command code up in the tables, never write it down:
/// ```swift
/// let code = ChipTables.pn532.code(.inListPassiveTarget) // 0x4A
/// ```
package enum PN532CommandName: String, TableName {
    // Miscellaneous (UM0701 §7.2)
    /// Self-tests, including the echo test libnfc runs at open.
    case diagnose = "Diagnose"
    /// IC, firmware version and supported protocols.
    case getFirmwareVersion = "GetFirmwareVersion"
    /// Last error, field state and the targets the chip holds.
    case getGeneralStatus = "GetGeneralStatus"
    /// Reads CIU registers and SFRs by 16-bit address.
    case readRegister = "ReadRegister"
    /// Writes CIU registers and SFRs by 16-bit address.
    case writeRegister = "WriteRegister"
    /// Reads the P3, P7 and I0I1 ports.
    case readGPIO = "ReadGPIO"
    /// Writes the P3 and P7 ports.
    case writeGPIO = "WriteGPIO"
    /// Changes the host link speed (answered, then ACKed by the host).
    case setSerialBaudRate = "SetSerialBaudRate"
    /// Sets the internal parameter flags (NAD, DID, automatic ATR_RES / RATS…).
    case setParameters = "SetParameters"
    /// Selects how the SAM is used; libnfc sends it at open with mode Normal.
    case samConfiguration = "SAMConfiguration"
    /// Puts the chip to sleep until a wake-up source fires.
    case powerDown = "PowerDown"
    // RF communication (UM0701 §7.3)
    /// Configures the RF field, timings, retries and analog settings.
    case rfConfiguration = "RFConfiguration"
    /// RF regulation test mode.
    case rfRegulationTest = "RFRegulationTest"
    // Initiator (UM0701 §7.3)
    /// Exchanges data with a selected target (chip handles CRC and MIFARE auth).
    case inDataExchange = "InDataExchange"
    /// Sends raw bytes to the target (CRC per TxMode / RxMode).
    case inCommunicateThru = "InCommunicateThru"
    /// Deselects a target, keeping its data.
    case inDeselect = "InDeselect"
    /// Activates a target with NFCIP-1 DEP (active or passive).
    case inJumpForDEP = "InJumpForDEP"
    /// Activates a target with NFCIP-1 and then a PSL speed change.
    case inJumpForPSL = "InJumpForPSL"
    /// Detects and activates passive targets (ISO 14443 A/B, FeliCa, Jewel).
    case inListPassiveTarget = "InListPassiveTarget"
    /// Sends an ATR_REQ to an activated target.
    case inATR = "InATR"
    /// Releases a target; its data is forgotten.
    case inRelease = "InRelease"
    /// Selects a deselected target again.
    case inSelect = "InSelect"
    /// Changes the bit rate with an NFCIP-1 target.
    case inPSL = "InPSL"
    /// Polls for targets of several types, as often as asked.
    case inAutoPoll = "InAutoPoll"
    // Target mode (UM0701 §7.3) — the PN532 acting as a card or NFC target
    /// Configures the chip as a target and waits to be activated.
    case tgInitAsTarget = "TgInitAsTarget"
    /// Sets the general bytes of ATR_RES.
    case tgSetGeneralBytes = "TgSetGeneralBytes"
    /// Gets data from the initiator (DEP or ISO-DEP).
    case tgGetData = "TgGetData"
    /// Sends data to the initiator.
    case tgSetData = "TgSetData"
    /// Sends data with the MI (chaining) bit.
    case tgSetMetaData = "TgSetMetaData"
    /// Gets a raw command from the initiator.
    case tgGetInitiatorCommand = "TgGetInitiatorCommand"
    /// Answers the initiator's raw command.
    case tgResponseToInitiator = "TgResponseToInitiator"
    /// Reports the target's state and bit rates.
    case tgGetTargetStatus = "TgGetTargetStatus"
}

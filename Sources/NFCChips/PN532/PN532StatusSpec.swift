/// One PN532 status (error) code, as the first byte of an InDataExchange-style answer.
///
/// ```swift
/// let auth = ChipTables.pn532.statuses[.mifareAuthenticationError]
/// auth.code        // 0x14
/// auth.libnfcError // "NFC_EMFCAUTHFAIL"
/// ```
package struct PN532StatusSpec: NamedEntry {
    /// The status byte (bits 5–0 of the answer's status byte).
    @Hex package var code: UInt8
    /// A camelCase name, e.g. `timeout`, `mifareAuthenticationError`.
    package var name: PN532StatusName
    /// What the chip means by it (UM0701 §7.1, Table 12).
    package var meaning: String
    /// The libnfc error libnfc 1.8 turns it into (`pn53x_transceive`), e.g. `NFC_ERFTRANS`.
    package var libnfcError: String
    /// The numeric value of ``libnfcError`` (e.g. −20), as `nfc_device_get_last_error` gives it.
    package var libnfcErrorCode: Int
}

/// The PN532 status codes (UM0701 §7.1, Table 12); the raw values are the names in
/// `datasheets/pn532.json`.
package enum PN532StatusName: String, TableName {
    /// `00`: no error.
    case success
    /// `01`: the target has not answered (also a tag NAK in InDataExchange).
    case timeout
    /// `02`: CRC error detected by the CIU.
    case crcError
    /// `03`: parity error detected by the CIU.
    case parityError
    /// `04`: erroneous bit count during anticollision / select.
    case bitCountError
    /// `05`: framing error during a MIFARE operation.
    case framingError
    /// `06`: abnormal bit collision during bitwise anticollision.
    case bitCollision
    /// `07`: communication buffer size insufficient.
    case bufferTooSmall
    /// `09`: RF buffer overflow detected by the CIU.
    case bufferOverflow
    /// `0A`: active mode, the counterpart did not switch its RF field on in time.
    case rfTimeout
    /// `0B`: RF protocol error.
    case rfProtocolError
    /// `0D`: overheating; the antenna drivers were switched off.
    case temperatureError
    /// `0E`: internal buffer overflow.
    case internalBufferOverflow
    /// `10`: invalid parameter.
    case invalidParameter
    /// `12`: DEP, the target does not support the command.
    case depUnsupportedCommand
    /// `13`: DEP, MIFARE or ISO 14443-4, the data format does not match.
    case depInvalidFormat
    /// `14`: MIFARE authentication error.
    case mifareAuthenticationError
    /// `23`: the UID check byte (BCC) is wrong.
    case uidCheckByteWrong
    /// `25`: DEP, invalid device state.
    case depInvalidDeviceState
    /// `26`: operation not allowed in this configuration.
    case operationNotAllowed
    /// `27`: command not acceptable in the current context.
    case commandNotAcceptable
    /// `29`: the PN532 as target was released by its initiator.
    case targetReleased
    /// `2A`: ISO 14443-3B, the card ID does not match.
    case cardIdMismatch
    /// `2B`: ISO 14443-3B, the activated card has disappeared.
    case cardDisappeared
    /// `2C`: NFCID3 of initiator and target differ.
    case nfcid3Mismatch
    /// `2D`: over-current event.
    case overCurrent
    /// `2E`: NAD missing in a DEP frame.
    case nadMissing
}

/// One PN532 status (error) code, as the first byte of an InDataExchange-style answer.
///
/// ```swift
/// let auth = ChipTables.pn532.status(named: "mifareAuthenticationError")!
/// auth.code        // 0x14
/// auth.libnfcError // "NFC_EMFCAUTHFAIL"
/// ```
public struct PN532StatusSpec: Codable, Equatable, Sendable {
    /// The status byte (bits 5–0 of the answer's status byte).
    @Hex public var code: UInt8
    /// A camelCase name, e.g. `timeout`, `mifareAuthenticationError`.
    public var name: String
    /// What the chip means by it (UM0701 §7.1, Table 12).
    public var meaning: String
    /// The libnfc error libnfc 1.8 turns it into (`pn53x_transceive`), e.g. `NFC_ERFTRANS`.
    public var libnfcError: String
    /// The numeric value of ``libnfcError`` (e.g. −20), as `nfc_device_get_last_error` gives it.
    public var libnfcErrorCode: Int
}

internal import CLibNFC

/// An open `nfc_device *`. Lives on one `NFCDevice` thread and is used only there; it is
/// `Sendable` only so that the device's `deinit` can hand it to that thread to be closed.
struct LibNFCDeviceHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The libnfc properties NFCTagKit sets (`nfc_property`), with Swift names.
enum LibNFCProperty {
    /// `NP_TIMEOUT_COMMAND`: how long libnfc waits for the reader chip's answer (ms, 0 = forever).
    case commandTimeout
    /// `NP_TIMEOUT_COM`: how long the reader chip waits for the tag's answer (ms).
    case communicationTimeout
    /// `NP_HANDLE_CRC`: the reader chip appends and checks CRC_A.
    case handleCRC
    /// `NP_HANDLE_PARITY`: the reader chip generates and checks parity bits.
    case handleParity
    /// `NP_ACTIVATE_FIELD`: RF field on or off.
    case activateField
    /// `NP_INFINITE_SELECT`: select retries forever instead of giving up at once.
    case infiniteSelect
    /// `NP_AUTO_ISO14443_4`: the chip sends RATS automatically to ISO-DEP targets.
    case autoISO14443_4
    /// `NP_EASY_FRAMING`: InDataExchange (on) or InCommunicateThru (off).
    case easyFraming

    var cValue: nfc_property {
        switch self {
        case .commandTimeout: NP_TIMEOUT_COMMAND
        case .communicationTimeout: NP_TIMEOUT_COM
        case .handleCRC: NP_HANDLE_CRC
        case .handleParity: NP_HANDLE_PARITY
        case .activateField: NP_ACTIVATE_FIELD
        case .infiniteSelect: NP_INFINITE_SELECT
        case .autoISO14443_4: NP_AUTO_ISO14443_4
        case .easyFraming: NP_EASY_FRAMING
        }
    }

    var cName: String {
        switch self {
        case .commandTimeout: "NP_TIMEOUT_COMMAND"
        case .communicationTimeout: "NP_TIMEOUT_COM"
        case .handleCRC: "NP_HANDLE_CRC"
        case .handleParity: "NP_HANDLE_PARITY"
        case .activateField: "NP_ACTIVATE_FIELD"
        case .infiniteSelect: "NP_INFINITE_SELECT"
        case .autoISO14443_4: "NP_AUTO_ISO14443_4"
        case .easyFraming: "NP_EASY_FRAMING"
        }
    }
}

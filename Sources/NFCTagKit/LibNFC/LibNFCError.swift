internal import CLibNFC

/// An error reported by libnfc: from which libnfc call, and libnfc's own text for it
/// (`nfc_strerror`) with its `NFC_E*` code.
///
/// ```swift
/// } catch .libnfc(let cause) {
///     print(cause.operation, cause.message)   // nfc_initiator_transceive_bytes, RF Transmission Error
/// }
/// ```
public struct LibNFCError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The libnfc error codes (`NFC_E*` in `nfc/nfc.h`), with Swift names.
    package enum Code: Equatable, Hashable, Sendable, CustomStringConvertible {
        /// `NFC_EIO`: input / output error; the reader is unplugged or answered garbage.
        case io
        /// `NFC_EINVARG`: invalid argument, or a command in the wrong context (no target selected).
        case invalidArgument
        /// `NFC_EDEVNOTSUPP`: the operation is not supported by this reader.
        case deviceNotSupported
        /// `NFC_ENOTSUCHDEV`: no such device.
        case noSuchDevice
        /// `NFC_EOVFLOW`: the answer did not fit in the receive buffer.
        case overflow
        /// `NFC_ETIMEOUT`: the reader itself did not answer in time.
        case timeout
        /// `NFC_EOPABORTED`: the operation was aborted (`nfc_abort_command`).
        case operationAborted
        /// `NFC_ENOTIMPL`: not implemented by the driver.
        case notImplemented
        /// `NFC_ETGRELEASED`: the target was released.
        case targetReleased
        /// `NFC_ERFTRANS`: error on the radio link: the tag did not answer, answered with a
        /// bad CRC, or NAKed an InDataExchange command.
        case rfTransmission
        /// `NFC_EMFCAUTHFAIL`: MIFARE Classic authentication failed.
        case mifareAuthenticationFailed
        /// `NFC_ESOFT`: software error in libnfc (allocation, pipe creation).
        case software
        /// `NFC_ECHIP`: the reader chip reported an internal error.
        case chip
        /// A negative code this version of NFCTagKit does not know.
        case unknown(Int32)

        /// Maps a libnfc return code (negative) to its case.
        package init(rawValue: Int32) {
            switch rawValue {
            case NFC_EIO: self = .io
            case NFC_EINVARG: self = .invalidArgument
            case NFC_EDEVNOTSUPP: self = .deviceNotSupported
            case NFC_ENOTSUCHDEV: self = .noSuchDevice
            case NFC_EOVFLOW: self = .overflow
            case NFC_ETIMEOUT: self = .timeout
            case NFC_EOPABORTED: self = .operationAborted
            case NFC_ENOTIMPL: self = .notImplemented
            case NFC_ETGRELEASED: self = .targetReleased
            case NFC_ERFTRANS: self = .rfTransmission
            case NFC_EMFCAUTHFAIL: self = .mifareAuthenticationFailed
            case NFC_ESOFT: self = .software
            case NFC_ECHIP: self = .chip
            default: self = .unknown(rawValue)
            }
        }

        /// The libnfc value of this code (`NFC_EIO` is −1, and so on).
        package var rawValue: Int32 {
            switch self {
            case .io: NFC_EIO
            case .invalidArgument: NFC_EINVARG
            case .deviceNotSupported: NFC_EDEVNOTSUPP
            case .noSuchDevice: NFC_ENOTSUCHDEV
            case .overflow: NFC_EOVFLOW
            case .timeout: NFC_ETIMEOUT
            case .operationAborted: NFC_EOPABORTED
            case .notImplemented: NFC_ENOTIMPL
            case .targetReleased: NFC_ETGRELEASED
            case .rfTransmission: NFC_ERFTRANS
            case .mifareAuthenticationFailed: NFC_EMFCAUTHFAIL
            case .software: NFC_ESOFT
            case .chip: NFC_ECHIP
            case .unknown(let value): value
            }
        }

        /// Every known code, for tables and tests.
        package static let known: [Code] = [
            .io, .invalidArgument, .deviceNotSupported, .noSuchDevice, .overflow, .timeout,
            .operationAborted, .notImplemented, .targetReleased, .rfTransmission,
            .mifareAuthenticationFailed, .software, .chip,
        ]

        /// The C name of the code, such as `NFC_EIO`.
        package var description: String {
            switch self {
            case .io: "NFC_EIO"
            case .invalidArgument: "NFC_EINVARG"
            case .deviceNotSupported: "NFC_EDEVNOTSUPP"
            case .noSuchDevice: "NFC_ENOTSUCHDEV"
            case .overflow: "NFC_EOVFLOW"
            case .timeout: "NFC_ETIMEOUT"
            case .operationAborted: "NFC_EOPABORTED"
            case .notImplemented: "NFC_ENOTIMPL"
            case .targetReleased: "NFC_ETGRELEASED"
            case .rfTransmission: "NFC_ERFTRANS"
            case .mifareAuthenticationFailed: "NFC_EMFCAUTHFAIL"
            case .software: "NFC_ESOFT"
            case .chip: "NFC_ECHIP"
            case .unknown(let value): "NFC error \(value)"
            }
        }

        /// True when the code means the reader itself is gone or no longer answers
        /// (as opposed to a tag that did not answer).
        package var meansReaderLost: Bool {
            switch self {
            case .io, .noSuchDevice, .timeout: true
            default: false
            }
        }
    }

    /// The libnfc code.
    package var code: Code
    /// The libnfc function that failed, such as `nfc_initiator_transceive_bytes`.
    public var operation: String
    /// libnfc's text for the error (`nfc_strerror`), or a description when libnfc has none.
    public var message: String

    /// Creates an error from its parts.
    package init(code: Code, operation: String, message: String) {
        self.code = code
        self.operation = operation
        self.message = message
    }

    /// `operation: message (CODE)`.
    public var description: String { "\(operation): \(message) (\(code))" }

}

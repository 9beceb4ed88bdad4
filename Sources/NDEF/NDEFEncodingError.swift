/// Why records or typed payloads could not be encoded.
///
/// `recordIndex` counts the logical records of the message being encoded (for a Smart Poster,
/// the records of its inner message).
///
/// ```swift
/// do { _ = try NDEFMessage(records: []).encoded() }
/// catch { print(error) }   // an NDEF message needs at least one record
/// ```
@nonexhaustive
public enum NDEFEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The message has no record.
    case emptyMessage
    /// A TYPE longer than 255 bytes.
    case typeTooLong(recordIndex: Int, length: Int)
    /// An ID longer than 255 bytes.
    case identifierTooLong(recordIndex: Int, length: Int)
    /// A payload longer than 4 294 967 295 bytes.
    case payloadTooLong(recordIndex: Int, length: Int)
    /// An empty (TNF 0) record with a type, identifier or payload.
    case contentInEmptyRecord(recordIndex: Int)
    /// An unknown (TNF 5) record with a type.
    case typeInUnknownRecord(recordIndex: Int)
    /// A record with TNF 6 (unchanged: only the encoder writes it, on chunks) or 7 (reserved).
    case unencodableTypeNameFormat(recordIndex: Int, NDEFTypeNameFormat)
    /// A maximum chunk size below 1.
    case invalidMaximumChunkSize(Int)
    /// A Text language code that is not 1 to 63 printable ASCII characters.
    case invalidLanguageCode(String)
    /// A media type that is not `type/subtype[;parameters]` of token characters, or is longer
    /// than 255 bytes.
    case invalidMediaType(String)
    /// An external type that is not `domain:type` of printable ASCII, or is longer than 255 bytes.
    case invalidExternalType(String)

    /// A sentence saying what is wrong.
    public var description: String {
        switch self {
        case .emptyMessage:
            "an NDEF message needs at least one record"
        case let .typeTooLong(index, length):
            "record \(index): TYPE of \(length) bytes is longer than 255"
        case let .identifierTooLong(index, length):
            "record \(index): ID of \(length) bytes is longer than 255"
        case let .payloadTooLong(index, length):
            "record \(index): payload of \(length) bytes is longer than 4294967295"
        case let .contentInEmptyRecord(index):
            "record \(index): an empty (TNF 0) record must have no type, ID or payload"
        case let .typeInUnknownRecord(index):
            "record \(index): an unknown (TNF 5) record must have no type"
        case let .unencodableTypeNameFormat(index, format):
            "record \(index): TNF \(format.rawValue) (\(format)) cannot start a record"
        case let .invalidMaximumChunkSize(size):
            "maximum chunk size \(size) is below 1"
        case let .invalidLanguageCode(code):
            "language code \"\(code)\" is not 1 to 63 printable ASCII characters"
        case let .invalidMediaType(type):
            "\"\(type)\" is not a media type \"type/subtype\" of at most 255 bytes"
        case let .invalidExternalType(type):
            "\"\(type)\" is not an external type \"domain:type\" of at most 255 bytes"
        }
    }
}

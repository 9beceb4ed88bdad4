import Foundation

/// Why NDEF bytes could not be decoded, and where.
///
/// ``offset`` counts bytes from the start of the decoded input: the message for
/// ``NDEFMessage/init(bytes:)``, the record payload for the typed records'
/// `init(record:)` (a Smart Poster's offsets count from its payload, which is the inner message).
///
/// ```swift
/// do { _ = try NDEFMessage(bytes: [0xD1, 0x01]) }
/// catch { print(error) }   // at byte 2: expected the rest of a record header, found end of input
/// ```
public struct NDEFDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The byte offset in the input where the problem is.
    public var offset: Int
    /// What went wrong.
    public var reason: Reason

    /// Creates an error at a byte offset.
    package init(offset: Int, reason: Reason) {
        self.offset = offset
        self.reason = reason
    }

    /// `"at byte 5: expected …, found …"`.
    public var description: String {
        "at byte \(offset): \(reason)"
    }

    /// The same error with its offset moved by `base` bytes (to report a nested error relative
    /// to an outer buffer).
    package func shifted(by base: Int) -> NDEFDecodingError {
        NDEFDecodingError(offset: offset + base, reason: reason)
    }

    /// What went wrong, in words (``description``). A value, not an enum: new checks come
    /// without breaking an app's `switch`.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        package let kind: Kind

        package init(_ kind: Kind) { self.kind = kind }

        /// `"expected …, found …"`.
        public var description: String { kind.description }
    }
}

extension NDEFDecodingError.Reason {
    /// One case per way NDEF bytes can be malformed.
    package enum Kind: Hashable, Sendable, CustomStringConvertible {
        // MARK: Message structure

        /// The input has no bytes; a message has at least one record.
        case emptyInput
        /// The input ends inside a record header (flags, lengths).
        case truncatedHeader
        /// A TYPE, ID or PAYLOAD length (the length field is at the error offset) is larger than
        /// the bytes remaining after it.
        case lengthPastEnd(declared: Int, remaining: Int)
        /// The first record lacks the MB (message begin) flag.
        case missingMessageBegin
        /// A record after the first has the MB flag.
        case unexpectedMessageBegin
        /// The input ends without a record with the ME (message end) flag.
        case missingMessageEnd
        /// Bytes follow the record with the ME flag.
        case bytesAfterMessageEnd(count: Int)
        /// The record has the TNF 7 (reserved).
        case reservedTypeNameFormat
        /// A TNF 6 (unchanged) record that does not continue a chunked record.
        case unchangedOutsideChunk
        /// An empty (TNF 0) record with a non-zero TYPE, ID or PAYLOAD length (at the offset).
        case lengthInEmptyRecord(length: Int)
        /// An unknown (TNF 5) record with a non-zero TYPE length.
        case typeInUnknownRecord(length: Int)

        // MARK: Chunks

        /// A chunk with CF set also has ME set: the message would end mid-record.
        case chunkWithMessageEnd
        /// An empty (TNF 0) record with CF set.
        case chunkedEmptyRecord
        /// A middle or last chunk whose TNF is not 6 (unchanged).
        case continuationTypeNameFormat(found: NDEFTypeNameFormat)
        /// A middle or last chunk with a non-zero TYPE length.
        case continuationWithType(length: Int)
        /// A middle or last chunk with the IL flag.
        case continuationWithIdentifier
        /// The input ends while a chunked record still expects its last chunk.
        case unterminatedChunk

        // MARK: Typed payloads

        /// The record is not of the kind the typed decoder reads.
        case recordTypeMismatch(expected: String, found: String)
        /// The payload is empty but must start with a status or code byte.
        case emptyPayload
        /// The Text status byte has its reserved bit 6 set.
        case textReservedBitSet
        /// The Text status byte declares a language code of length 0.
        case emptyLanguageCode
        /// The Text language code has a byte that is not printable ASCII.
        case invalidLanguageCode
        /// A byte sequence that is not valid UTF-8 starts at the offset.
        case invalidUTF8
        /// An odd trailing byte or an unpaired surrogate is at the offset.
        case invalidUTF16
        /// A URI identifier code in the reserved range `24`–`FF`.
        case reservedURIPrefix(code: UInt8)
        /// A Smart Poster without a URI record.
        case smartPosterMissingURI
        /// A Smart Poster with a second record of a kind allowed once (`U`, `act`, `s`, `t`).
        case smartPosterDuplicateRecord(type: String)
        /// A Smart Poster action code other than 0, 1 or 2.
        case reservedSmartPosterAction(code: UInt8)
        /// A fixed-size payload (`act`: 1 byte, `s`: 4 bytes) with another length.
        case unexpectedPayloadLength(expected: Int, found: Int)
        /// A media type that is not `type/subtype[;parameters]` made of token characters.
        case invalidMediaType(String)
        /// An external type that is not `domain:type` made of printable ASCII.
        case invalidExternalType(String)

        /// `"expected …, found …"`.
        package var description: String {
            switch self {
            case .emptyInput:
                "expected an NDEF record, found no bytes"
            case .truncatedHeader:
                "expected the rest of a record header, found end of input"
            case let .lengthPastEnd(declared, remaining):
                "expected a length of at most \(remaining) (the bytes remaining), found \(declared)"
            case .missingMessageBegin:
                "expected the MB flag on the first record, found it clear"
            case .unexpectedMessageBegin:
                "expected the MB flag clear after the first record, found it set"
            case .missingMessageEnd:
                "expected another record (no record had the ME flag), found end of input"
            case let .bytesAfterMessageEnd(count):
                "expected end of input after the ME record, found \(count) more byte(s)"
            case .reservedTypeNameFormat:
                "expected a TNF of 0 to 6, found 7 (reserved)"
            case .unchangedOutsideChunk:
                "expected TNF 6 (unchanged) only in a middle or last chunk, found it on a record start"
            case let .lengthInEmptyRecord(length):
                "expected length 0 in an empty (TNF 0) record, found \(length)"
            case let .typeInUnknownRecord(length):
                "expected TYPE length 0 in an unknown (TNF 5) record, found \(length)"
            case .chunkWithMessageEnd:
                "expected ME clear on a chunk with CF set, found both set"
            case .chunkedEmptyRecord:
                "expected CF clear on an empty (TNF 0) record, found it set"
            case let .continuationTypeNameFormat(found):
                "expected TNF 6 (unchanged) on a continuation chunk, found \(found.rawValue) (\(found))"
            case let .continuationWithType(length):
                "expected TYPE length 0 on a continuation chunk, found \(length)"
            case .continuationWithIdentifier:
                "expected IL clear on a continuation chunk, found it set"
            case .unterminatedChunk:
                "expected the last chunk (CF clear) of a chunked record, found end of input"
            case let .recordTypeMismatch(expected, found):
                "expected \(expected), found \(found)"
            case .emptyPayload:
                "expected a status or code byte, found an empty payload"
            case .textReservedBitSet:
                "expected bit 6 (RFU) of the Text status byte clear, found it set"
            case .emptyLanguageCode:
                "expected a language code length of 1 to 63, found 0"
            case .invalidLanguageCode:
                "expected a printable ASCII language code, found another byte"
            case .invalidUTF8:
                "expected valid UTF-8, found an invalid byte sequence"
            case .invalidUTF16:
                "expected valid UTF-16, found an odd byte or an unpaired surrogate"
            case let .reservedURIPrefix(code):
                "expected a URI identifier code of 0x00 to 0x23, found 0x\(String(format: "%02X", code))"
            case .smartPosterMissingURI:
                "expected one URI record in the Smart Poster, found none"
            case let .smartPosterDuplicateRecord(type):
                "expected one \"\(type)\" record in the Smart Poster, found another"
            case let .reservedSmartPosterAction(code):
                "expected a Smart Poster action of 0, 1 or 2, found \(code)"
            case let .unexpectedPayloadLength(expected, found):
                "expected a payload of \(expected) byte(s), found \(found)"
            case let .invalidMediaType(type):
                "expected a media type \"type/subtype\", found \"\(type)\""
            case let .invalidExternalType(type):
                "expected an external type \"domain:type\", found \"\(type)\""
            }
        }
    }

    package static let emptyInput = Self(.emptyInput)
    package static let truncatedHeader = Self(.truncatedHeader)
    package static func lengthPastEnd(declared: Int, remaining: Int) -> Self {
        Self(.lengthPastEnd(declared: declared, remaining: remaining))
    }
    package static let missingMessageBegin = Self(.missingMessageBegin)
    package static let unexpectedMessageBegin = Self(.unexpectedMessageBegin)
    package static let missingMessageEnd = Self(.missingMessageEnd)
    package static func bytesAfterMessageEnd(count: Int) -> Self { Self(.bytesAfterMessageEnd(count: count)) }
    package static let reservedTypeNameFormat = Self(.reservedTypeNameFormat)
    package static let unchangedOutsideChunk = Self(.unchangedOutsideChunk)
    package static func lengthInEmptyRecord(length: Int) -> Self { Self(.lengthInEmptyRecord(length: length)) }
    package static func typeInUnknownRecord(length: Int) -> Self { Self(.typeInUnknownRecord(length: length)) }
    package static let chunkWithMessageEnd = Self(.chunkWithMessageEnd)
    package static let chunkedEmptyRecord = Self(.chunkedEmptyRecord)
    package static func continuationTypeNameFormat(found: NDEFTypeNameFormat) -> Self {
        Self(.continuationTypeNameFormat(found: found))
    }
    package static func continuationWithType(length: Int) -> Self { Self(.continuationWithType(length: length)) }
    package static let continuationWithIdentifier = Self(.continuationWithIdentifier)
    package static let unterminatedChunk = Self(.unterminatedChunk)
    package static func recordTypeMismatch(expected: String, found: String) -> Self {
        Self(.recordTypeMismatch(expected: expected, found: found))
    }
    package static let emptyPayload = Self(.emptyPayload)
    package static let textReservedBitSet = Self(.textReservedBitSet)
    package static let emptyLanguageCode = Self(.emptyLanguageCode)
    package static let invalidLanguageCode = Self(.invalidLanguageCode)
    package static let invalidUTF8 = Self(.invalidUTF8)
    package static let invalidUTF16 = Self(.invalidUTF16)
    package static func reservedURIPrefix(code: UInt8) -> Self { Self(.reservedURIPrefix(code: code)) }
    package static let smartPosterMissingURI = Self(.smartPosterMissingURI)
    package static func smartPosterDuplicateRecord(type: String) -> Self {
        Self(.smartPosterDuplicateRecord(type: type))
    }
    package static func reservedSmartPosterAction(code: UInt8) -> Self {
        Self(.reservedSmartPosterAction(code: code))
    }
    package static func unexpectedPayloadLength(expected: Int, found: Int) -> Self {
        Self(.unexpectedPayloadLength(expected: expected, found: found))
    }
    package static func invalidMediaType(_ value0: String) -> Self { Self(.invalidMediaType(value0)) }
    package static func invalidExternalType(_ value0: String) -> Self { Self(.invalidExternalType(value0)) }
}

/// A record's content understood as the most specific type this library knows.
///
/// ```swift
/// switch try record.parsedPayload() {
/// case .uri(let uri): print(uri.uri)
/// case .text(let text): print(text.languageCode, text.text)
/// default: break
/// }
/// ```
@nonexhaustive
public enum NDEFPayload: Hashable, Sendable {
    /// An empty (TNF 0) record.
    case empty
    /// A well-known Text (`T`) record.
    case text(NDEFTextRecord)
    /// A well-known URI (`U`) record.
    case uri(NDEFURIRecord)
    /// A well-known Smart Poster (`Sp`) record.
    case smartPoster(NDEFSmartPosterRecord)
    /// A media-type (TNF 2) record.
    case media(NDEFMediaRecord)
    /// An external-type (TNF 4) record.
    case external(NDEFExternalRecord)
    /// An absolute-URI (TNF 3) record.
    case absoluteURI(NDEFAbsoluteURIRecord)
    /// Any other record (other well-known types, unknown, unchanged or reserved TNF), as is.
    case other(NDEFRecord)

    /// The record for this content. Record IDs are not part of typed payloads, so a parsed
    /// record's ID is not restored.
    ///
    /// - Throws: ``NDEFEncodingError`` from a Text or Smart Poster with an invalid language code.
    public func makeRecord() throws(NDEFEncodingError) -> NDEFRecord {
        switch self {
        case .empty: .empty
        case let .text(text): try text.makeRecord()
        case let .uri(uri): uri.record
        case let .smartPoster(poster): try poster.makeRecord()
        case let .media(media): media.record
        case let .external(external): external.record
        case let .absoluteURI(absolute): absolute.record
        case let .other(record): record
        }
    }
}

extension NDEFRecord {
    /// The record's content as the most specific known type.
    ///
    /// TNF 0 is ``NDEFPayload/empty``; well-known `T`, `U` and `Sp` are text, URI and Smart
    /// Poster; TNF 2, 3 and 4 are media, absolute URI and external; everything else is
    /// ``NDEFPayload/other(_:)``.
    ///
    /// - Throws: ``NDEFDecodingError`` (offset relative to the payload) when a known type is
    ///   malformed: a bad Text status byte, a reserved URI code, invalid UTF-8, a Smart Poster
    ///   without a URI, an invalid media or external type…
    public func parsedPayload() throws(NDEFDecodingError) -> NDEFPayload {
        switch typeNameFormat {
        case .empty:
            return .empty
        case .wellKnown where isWellKnown(NDEFTextRecord.typeName):
            return .text(try NDEFTextRecord(record: self))
        case .wellKnown where isWellKnown(NDEFURIRecord.typeName):
            return .uri(try NDEFURIRecord(record: self))
        case .wellKnown where isWellKnown(NDEFSmartPosterRecord.typeName):
            return .smartPoster(try NDEFSmartPosterRecord(record: self))
        case .media:
            return .media(try NDEFMediaRecord(record: self))
        case .absoluteURI:
            return .absoluteURI(try NDEFAbsoluteURIRecord(record: self))
        case .external:
            return .external(try NDEFExternalRecord(record: self))
        case .wellKnown, .unknown, .unchanged, .reserved:
            return .other(self)
        }
    }
}

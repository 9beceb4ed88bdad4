/// A media-type record (TNF 2): a MIME type such as `image/png` and raw payload bytes.
///
/// The media type is kept exactly as given (not lowercased) but must have the shape of
/// RFC 2046 / RFC 6838: `type/subtype` of token characters, optionally followed by
/// `; name=value` parameters, at most 255 bytes. Compare types case-insensitively with
/// ``hasMediaType(_:)``.
///
/// ```swift
/// let icon = try NDEFMediaRecord(mediaType: "image/png", payload: pngBytes)
/// let record = icon.record   // TNF 2, type "image/png"
/// ```
public struct NDEFMediaRecord: Hashable, Sendable {
    /// The media type, as given.
    public var mediaType: String
    /// The payload bytes.
    public var payload: [UInt8]

    /// Creates a media record after checking the media type's shape.
    ///
    /// - Throws: ``NDEFEncodingError/invalidMediaType(_:)``.
    public init(mediaType: String, payload: [UInt8]) throws(NDEFEncodingError) {
        guard NDEFMediaType.isValid(mediaType) else { throw .invalidMediaType(mediaType) }
        self.mediaType = mediaType
        self.payload = payload
    }

    /// Reads a media record (offset 0 for every error: the type is not in the payload).
    ///
    /// - Throws: ``NDEFDecodingError`` for another TNF or an invalid media type.
    public init(record: NDEFRecord) throws(NDEFDecodingError) {
        guard record.typeNameFormat == .media else {
            throw NDEFDecodingError(
                offset: 0, reason: .recordTypeMismatch(expected: "a media record", found: record.kindDescription))
        }
        let type = String(decoding: record.type, as: UTF8.self)
        guard NDEFMediaType.isValid(type) else { throw NDEFDecodingError(offset: 0, reason: .invalidMediaType(type)) }
        self.mediaType = type
        self.payload = record.payload
    }

    /// Whether `mediaType` has a valid shape (what the throwing initializer checks).
    package static func isValidMediaType(_ mediaType: String) -> Bool {
        NDEFMediaType.isValid(mediaType)
    }

    /// The `type/subtype` part, lowercased, without parameters: `Text/Plain; charset=x` → `text/plain`.
    public var essence: String {
        let bare = mediaType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(bare).trimmingASCIIWhitespace().lowercasedASCII()
    }

    /// Whether the essence equals `other`'s, ignoring case: `hasMediaType("image/png")`.
    public func hasMediaType(_ other: String) -> Bool {
        essence == other.lowercasedASCII()
    }

    /// The TNF 2 record.
    public var record: NDEFRecord {
        NDEFRecord(typeNameFormat: .media, type: Array(mediaType.utf8), payload: payload)
    }
}

extension String {
    /// ASCII-only lowercasing (NDEF type names are ASCII; no locale rules).
    func lowercasedASCII() -> String {
        String(decoding: utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    func trimmingASCIIWhitespace() -> String {
        let bytes = Array(utf8)
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}

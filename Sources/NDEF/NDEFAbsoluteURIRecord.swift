/// An absolute-URI record (TNF 3): the URI (RFC 3986) is the TYPE; the payload is usually empty.
///
/// The URI is written as given in UTF-8; encoding a message fails with
/// ``NDEFEncodingError/typeTooLong(recordIndex:length:)`` when it is longer than 255 bytes.
///
/// ```swift
/// let record = NDEFAbsoluteURIRecord(uri: "https://example.com/schema").record
/// ```
public struct NDEFAbsoluteURIRecord: Hashable, Sendable {
    /// The URI carried in the TYPE field.
    public var uri: String
    /// The payload, empty unless the URI names a payload format.
    public var payload: [UInt8]

    /// Creates an absolute-URI record with an empty payload.
    public init(uri: String) {
        self.init(uri: uri, payload: [])
    }

    /// Creates an absolute-URI record with a payload.
    public init(uri: String, payload: [UInt8]) {
        self.uri = uri
        self.payload = payload
    }

    /// Reads an absolute-URI record (offsets count from the start of the TYPE field).
    ///
    /// - Throws: ``NDEFDecodingError`` for another TNF or a TYPE that is not UTF-8.
    public init(record: NDEFRecord) throws(NDEFDecodingError) {
        guard record.typeNameFormat == .absoluteURI else {
            throw NDEFDecodingError(
                offset: 0,
                reason: .recordTypeMismatch(expected: "an absolute-URI record", found: record.kindDescription))
        }
        self.uri = try NDEFUnicode.decodeUTF8(record.type[...], base: 0)
        self.payload = record.payload
    }

    /// The TNF 3 record.
    public var record: NDEFRecord {
        NDEFRecord(typeNameFormat: .absoluteURI, type: Array(uri.utf8), payload: payload)
    }
}

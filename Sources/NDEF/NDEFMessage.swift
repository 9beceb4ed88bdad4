/// An NDEF message: one or more records, as stored in an NDEF TLV or an NDEF file.
///
/// ```swift
/// let message = NDEFMessage(records: [NDEFURIRecord(uri: "https://example.com").record])
/// let bytes = try message.encoded()                 // D1 01 0C 55 04 65 78 61 …
/// let again = try NDEFMessage(bytes: bytes)         // == message
/// ```
public struct NDEFMessage: Hashable, Sendable {
    /// The logical records, in order.
    public var records: [NDEFRecord]

    /// Creates a message from records. Encoding checks that there is at least one.
    public init(records: [NDEFRecord]) {
        self.records = records
    }

    /// The empty NDEF message: one empty record, `D0 00 00`.
    public static let empty = NDEFMessage(records: [.empty])

    /// Decodes a message from untrusted bytes, reassembling chunked records.
    ///
    /// The whole input must be exactly one message: it starts with an MB record, ends with the
    /// ME record and has no bytes after it. An empty byte array is an error (a message has at
    /// least one record). Decoding never traps and never allocates more than the input size.
    ///
    /// - Throws: ``NDEFDecodingError`` with the byte offset of the problem and what was expected.
    public init(bytes: [UInt8]) throws(NDEFDecodingError) {
        let decoded = try NDEFMessageDecoder(bytes: bytes).decode()
        self.records = decoded.map(\.record)
    }

    /// Encodes the message without chunking.
    ///
    /// Each record gets the SR (short record) flag when its payload is shorter than 256 bytes,
    /// and the IL flag when its identifier is not empty.
    ///
    /// - Throws: ``NDEFEncodingError`` when the message has no record or a record breaks an
    ///   NDEF rule (field too long, empty record with content, unknown record with a type,
    ///   `unchanged` or `reserved` TNF).
    public func encoded() throws(NDEFEncodingError) -> [UInt8] {
        try NDEFMessageEncoder(records: records, maximumChunkSize: nil).encode()
    }

    /// Encodes the message, splitting every payload longer than `maximumChunkSize` bytes into
    /// chunks (the first carries TNF, TYPE and ID; the rest are `unchanged` with no type or ID).
    ///
    /// ```swift
    /// let bytes = try message.encoded(maximumChunkSize: 64)
    /// try NDEFMessage(bytes: bytes) == message           // chunks are reassembled
    /// ```
    ///
    /// - Parameter maximumChunkSize: the largest payload of one chunk, at least 1.
    /// - Throws: ``NDEFEncodingError/invalidMaximumChunkSize(_:)`` when it is below 1, and
    ///   the same errors as ``encoded()``.
    public func encoded(maximumChunkSize: Int) throws(NDEFEncodingError) -> [UInt8] {
        guard maximumChunkSize >= 1 else { throw .invalidMaximumChunkSize(maximumChunkSize) }
        return try NDEFMessageEncoder(records: records, maximumChunkSize: maximumChunkSize).encode()
    }
}

extension NDEFMessage {
    /// The message as a reader decodes the bytes a write stores for it (none for a message
    /// without records), or `nil` when they do not decode.
    package var decodedAsStored: NDEFMessage? {
        guard !records.isEmpty else { return NDEFMessage(records: []) }
        guard let bytes = try? encoded() else { return nil }
        return try? NDEFMessage(bytes: bytes)
    }
}

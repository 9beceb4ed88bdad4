/// An NFC Forum well-known Text record (`T`): text with its IANA language code.
///
/// Payload: a status byte (bit 7: 0 = UTF-8, 1 = UTF-16; bit 6 reserved, 0; bits 5–0: language
/// code length 1…63), the ASCII language code, then the text.
///
/// UTF-16 rule: decoding honours a byte-order mark (`FE FF` big-endian, `FF FE` little-endian,
/// dropped from the text) and assumes big-endian without one; encoding writes big-endian with a
/// `FE FF` BOM. A text that itself starts with U+FEFF therefore survives a round trip.
///
/// ```swift
/// let record = NDEFTextRecord(text: "elephant").record
/// // payload 02 65 6E 65 6C 65 70 68 61 6E 74
/// let text = try NDEFTextRecord(record: record).text   // "elephant"
/// ```
public struct NDEFTextRecord: Hashable, Sendable {
    /// How the text is encoded in the payload.
    public enum Encoding: Hashable, Sendable {
        /// UTF-8 (status bit 7 clear).
        case utf8
        /// UTF-16 (status bit 7 set); written big-endian with a BOM.
        case utf16
    }

    /// The well-known type name, `T`.
    package static let typeName = "T"

    /// The text.
    public var text: String
    /// The IANA language code, e.g. `en` or `en-US`: 1 to 63 printable ASCII characters.
    public var languageCode: String
    /// The payload text encoding.
    public var encoding: Encoding

    /// Creates a Text record. The language code is checked when the record is built
    /// (``record`` traps, ``makeRecord()`` throws).
    public init(text: String, languageCode: String = "en", encoding: Encoding = .utf8) {
        self.text = text
        self.languageCode = languageCode
        self.encoding = encoding
    }

    /// Reads a Text record; error offsets count from the start of the payload.
    ///
    /// - Throws: ``NDEFDecodingError`` for another record type, an empty payload, a set
    ///   reserved bit, a language code of length 0, past the end or not ASCII, or invalid text.
    public init(record: NDEFRecord) throws(NDEFDecodingError) {
        guard record.isWellKnown(Self.typeName) else {
            throw NDEFDecodingError(
                offset: 0, reason: .recordTypeMismatch(expected: "well-known \"T\"", found: record.kindDescription))
        }
        let payload = record.payload
        guard let status = payload.first else { throw NDEFDecodingError(offset: 0, reason: .emptyPayload) }
        guard status & 0x40 == 0 else { throw NDEFDecodingError(offset: 0, reason: .textReservedBitSet) }
        let languageLength = Int(status & 0x3F)
        guard languageLength > 0 else { throw NDEFDecodingError(offset: 0, reason: .emptyLanguageCode) }
        guard languageLength <= payload.count - 1 else {
            throw NDEFDecodingError(
                offset: 0, reason: .lengthPastEnd(declared: languageLength, remaining: payload.count - 1))
        }
        let language = payload[1...languageLength]
        if let bad = language.firstIndex(where: { !(0x21...0x7E).contains($0) }) {
            throw NDEFDecodingError(offset: bad, reason: .invalidLanguageCode)
        }
        let textStart = 1 + languageLength
        let textBytes = payload[textStart...]
        self.languageCode = String(decoding: language, as: UTF8.self)
        if status & 0x80 == 0 {
            self.encoding = .utf8
            self.text = try NDEFUnicode.decodeUTF8(textBytes, base: textStart)
        } else {
            self.encoding = .utf16
            self.text = try NDEFUnicode.decodeUTF16(textBytes, base: textStart)
        }
    }

    /// Whether `code` can be a Text language code: 1 to 63 printable ASCII characters, no space.
    package static func isValidLanguageCode(_ code: String) -> Bool {
        let bytes = Array(code.utf8)
        return (1...63).contains(bytes.count) && NDEFUnicode.isVisibleASCII(bytes)
    }

    /// The well-known `T` record.
    ///
    /// - Precondition: ``languageCode`` is valid (a BCP 47 tag of at most 63 bytes); use
    ///   ``makeRecord()`` to get an error instead when it comes from user input.
    public var record: NDEFRecord {
        do {
            return try makeRecord()
        } catch {
            preconditionFailure("NDEFTextRecord.record: \(error)")
        }
    }

    /// The well-known `T` record, or an error when the language code is invalid.
    ///
    /// - Throws: ``NDEFEncodingError/invalidLanguageCode(_:)``.
    public func makeRecord() throws(NDEFEncodingError) -> NDEFRecord {
        guard Self.isValidLanguageCode(languageCode) else { throw .invalidLanguageCode(languageCode) }
        let language = Array(languageCode.utf8)
        var payload: [UInt8] = [UInt8(language.count) | (encoding == .utf16 ? 0x80 : 0)]
        payload += language
        switch encoding {
        case .utf8: payload += Array(text.utf8)
        case .utf16: payload += NDEFUnicode.encodeUTF16BigEndianWithBOM(text)
        }
        return .wellKnown(Self.typeName, payload: payload)
    }
}

/// An NFC Forum external-type record (TNF 4): TYPE `domain:type`, e.g. the Android Application
/// Record `android.com:pkg` whose payload is a package name.
///
/// The domain and type must be non-empty printable ASCII without spaces; the domain has no
/// `:` (the first colon separates them), and the whole name is at most 255 bytes. NFC Forum
/// external type names are case-insensitive, so equality and hashing ignore ASCII case in
/// ``domain`` and ``externalType`` (a lowercase domain is recommended); the payload compares
/// exactly and the names are written as given.
///
/// ```swift
/// let aar = try NDEFExternalRecord(domain: "android.com", type: "pkg", payload: Array("com.example".utf8))
/// ```
public struct NDEFExternalRecord: Hashable, Sendable {
    /// The issuing organisation's domain, e.g. `android.com`.
    public var domain: String
    /// The type within the domain, e.g. `pkg`.
    public var externalType: String
    /// The payload bytes.
    public var payload: [UInt8]

    /// Creates an external record after checking the name.
    ///
    /// - Throws: ``NDEFEncodingError/invalidExternalType(_:)``.
    public init(domain: String, type: String, payload: [UInt8]) throws(NDEFEncodingError) {
        let name = domain + ":" + type
        guard let parts = Self.split(name), parts.domain == domain else { throw .invalidExternalType(name) }
        self.domain = domain
        self.externalType = type
        self.payload = payload
    }

    /// Creates an external record from its full name, `domain:type`.
    ///
    /// - Throws: ``NDEFEncodingError/invalidExternalType(_:)``.
    public init(typeString: String, payload: [UInt8]) throws(NDEFEncodingError) {
        guard let parts = Self.split(typeString) else { throw .invalidExternalType(typeString) }
        self.domain = parts.domain
        self.externalType = parts.type
        self.payload = payload
    }

    /// Reads an external record (offset 0 for every error: the type is not in the payload).
    ///
    /// - Throws: ``NDEFDecodingError`` for another TNF or an invalid name.
    public init(record: NDEFRecord) throws(NDEFDecodingError) {
        let name = String(decoding: record.type, as: UTF8.self)
        guard record.typeNameFormat == .external else {
            throw NDEFDecodingError(
                offset: 0, reason: .recordTypeMismatch(expected: "an external record", found: record.kindDescription))
        }
        guard let parts = Self.split(name) else {
            throw NDEFDecodingError(offset: 0, reason: .invalidExternalType(name))
        }
        self.domain = parts.domain
        self.externalType = parts.type
        self.payload = record.payload
    }

    /// The full name, `domain:type`.
    public var typeString: String {
        domain + ":" + externalType
    }

    /// The TNF 4 record.
    public var record: NDEFRecord {
        NDEFRecord(typeNameFormat: .external, type: Array(typeString.utf8), payload: payload)
    }

    /// Equal when the names match ignoring ASCII case and the payloads are the same.
    public static func == (lhs: NDEFExternalRecord, rhs: NDEFExternalRecord) -> Bool {
        lhs.domain.lowercasedASCII() == rhs.domain.lowercasedASCII()
            && lhs.externalType.lowercasedASCII() == rhs.externalType.lowercasedASCII()
            && lhs.payload == rhs.payload
    }

    /// Hashes the lowercased names and the payload, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(domain.lowercasedASCII())
        hasher.combine(externalType.lowercasedASCII())
        hasher.combine(payload)
    }

    /// Splits `domain:type` at the first colon, or `nil` when the name is invalid.
    private static func split(_ name: String) -> (domain: String, type: String)? {
        let bytes = Array(name.utf8)
        guard bytes.count <= 255, NDEFUnicode.isVisibleASCII(bytes),
            let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            colon > 0, colon < bytes.count - 1
        else { return nil }
        return (
            String(decoding: bytes[..<colon], as: UTF8.self), String(decoding: bytes[(colon + 1)...], as: UTF8.self)
        )
    }
}

/// One logical NDEF record: a type name format, a type, an optional identifier and a payload.
///
/// A record is plain data. The structural rules of NDEF 1.0 (an empty record has no type, ID or
/// payload; an unknown record has no type; `unchanged` and `reserved` never appear in a logical
/// record) are checked when a message is encoded or decoded. A chunked record read from a tag is
/// reassembled into one `NDEFRecord` whose payload is the concatenation of the chunk payloads.
///
/// ```swift
/// let record = NDEFRecord(typeNameFormat: .media, type: Array("text/plain".utf8),
///                         payload: Array("hello".utf8))
/// let bytes = try NDEFMessage(records: [record]).encoded()
/// ```
public struct NDEFRecord: Hashable, Sendable {
    /// How to read ``type``.
    public var typeNameFormat: NDEFTypeNameFormat
    /// The TYPE field: at most 255 bytes when encoded.
    public var type: [UInt8]
    /// The ID field: at most 255 bytes when encoded; empty means "no ID" (IL flag clear).
    public var identifier: [UInt8]
    /// The PAYLOAD field (the whole logical payload of a chunked record).
    public var payload: [UInt8]

    /// Creates a record from its fields.
    public init(
        typeNameFormat: NDEFTypeNameFormat,
        type: [UInt8] = [],
        identifier: [UInt8] = [],
        payload: [UInt8] = []
    ) {
        self.typeNameFormat = typeNameFormat
        self.type = type
        self.identifier = identifier
        self.payload = payload
    }

    /// The empty record (TNF 0, all lengths 0). A message of just this record encodes as `D0 00 00`.
    public static let empty = NDEFRecord(typeNameFormat: .empty)

    /// Creates an NFC Forum well-known record (TNF 1) whose type is the ASCII name, e.g. `"T"`.
    public static func wellKnown(_ typeName: String, identifier: [UInt8] = [], payload: [UInt8]) -> NDEFRecord {
        NDEFRecord(typeNameFormat: .wellKnown, type: Array(typeName.utf8), identifier: identifier, payload: payload)
    }

    /// Whether this is a well-known (TNF 1) record with the given type name (compared
    /// case-sensitively, as NFC Forum RTD names are).
    public func isWellKnown(_ typeName: String) -> Bool {
        typeNameFormat == .wellKnown && type.elementsEqual(typeName.utf8)
    }
}

extension NDEFRecord {
    /// A short human description of the record's kind for error messages,
    /// e.g. `well-known "T"` or `TNF 0 (empty)`.
    var kindDescription: String {
        switch typeNameFormat {
        case .wellKnown, .media, .absoluteURI, .external:
            "\(typeNameFormat) \"\(String(decoding: type, as: UTF8.self))\""
        case .empty, .unknown, .unchanged, .reserved:
            "TNF \(typeNameFormat.rawValue) (\(typeNameFormat))"
        }
    }
}

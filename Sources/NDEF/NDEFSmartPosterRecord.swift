/// An NFC Forum Smart Poster (`Sp`): a URI with titles, a recommended action, the size and
/// type of the resource and icons, carried as an NDEF message inside the payload.
///
/// Decoding requires exactly one URI record and at most one `act`, `s` and `t` record; titles
/// (`T`) may come in several languages; media records of type `image/*` or `video/*` are icons;
/// any other record is kept in ``otherRecords``. Record IDs inside the poster are not kept.
///
/// Encoding writes titles, the URI, `act`, `s`, `t`, icons, then the other records: the layout
/// of the libnfc example. Do not put `U`, `T`, `act`, `s`, `t` or `image/*` / `video/*` records
/// in ``otherRecords``: they would come back as those fields, or fail as duplicates.
///
/// ```swift
/// let poster = NDEFSmartPosterRecord(uri: NDEFURIRecord(uri: "http://libnfc.org"),
///                                    titles: [NDEFTextRecord(text: "Libnfc")])
/// let bytes = try NDEFMessage(records: [poster.record]).encoded()
/// ```
public struct NDEFSmartPosterRecord: Hashable, Sendable {
    /// What the reader should do with the URI (the `act` record).
    public enum Action: Hashable, Sendable, CaseIterable {
        /// Open / execute the URI.
        case doAction
        /// Save it for later.
        case save
        /// Open it for editing.
        case edit

        /// The `act` record's byte: 0, 1 or 2.
        package var code: UInt8 {
            switch self {
            case .doAction: 0
            case .save: 1
            case .edit: 2
            }
        }

        /// The action whose `act` byte is `code`, or `nil` for a reserved one.
        package init?(code: UInt8) {
            guard let action = Self.allCases.first(where: { $0.code == code }) else { return nil }
            self = action
        }
    }

    /// The well-known type name, `Sp`.
    package static let typeName = "Sp"

    /// The URI the poster points to.
    public var uri: NDEFURIRecord
    /// Titles, usually one per language.
    public var titles: [NDEFTextRecord]
    /// The recommended action.
    public var action: Action?
    /// The size of the referenced resource in bytes (the 4-byte big-endian `s` record).
    public var size: UInt32?
    /// The MIME type of the referenced resource (the UTF-8 `t` record).
    public var mimeType: String?
    /// Icons: `image/*` or `video/*` media records.
    public var icons: [NDEFMediaRecord]
    /// Records of other kinds, kept in order.
    public var otherRecords: [NDEFRecord]

    /// Creates a Smart Poster.
    public init(
        uri: NDEFURIRecord, titles: [NDEFTextRecord] = [], action: Action? = nil, size: UInt32? = nil,
        mimeType: String? = nil, icons: [NDEFMediaRecord] = [], otherRecords: [NDEFRecord] = []
    ) {
        self.uri = uri
        self.titles = titles
        self.action = action
        self.size = size
        self.mimeType = mimeType
        self.icons = icons
        self.otherRecords = otherRecords
    }

    /// Reads a Smart Poster; error offsets count from the start of its payload (the inner message).
    ///
    /// - Throws: ``NDEFDecodingError`` for another record type, a malformed inner message or
    ///   inner record, a missing URI, a duplicate `U` / `act` / `s` / `t`, or a reserved action.
    public init(record: NDEFRecord) throws(NDEFDecodingError) {
        guard record.isWellKnown(Self.typeName) else {
            throw NDEFDecodingError(
                offset: 0, reason: .recordTypeMismatch(expected: "well-known \"Sp\"", found: record.kindDescription))
        }
        var uri: NDEFURIRecord?
        self.init(uri: NDEFURIRecord(uri: ""))
        var seen: Set<String> = []
        for inner in try NDEFMessageDecoder(bytes: record.payload).decode() {
            let item = inner.record
            let payloadOffset = inner.payloadOffset
            if item.typeNameFormat == .wellKnown, ["U", "act", "s", "t"].contains(where: { item.isWellKnown($0) }) {
                let name = String(decoding: item.type, as: UTF8.self)
                guard seen.insert(name).inserted else {
                    throw NDEFDecodingError(offset: inner.headerOffset, reason: .smartPosterDuplicateRecord(type: name))
                }
            }
            if item.isWellKnown(NDEFURIRecord.typeName) {
                uri = try Self.shifting(payloadOffset) { () throws(NDEFDecodingError) in try NDEFURIRecord(record: item)
                }
            } else if item.isWellKnown(NDEFTextRecord.typeName) {
                titles.append(
                    try Self.shifting(payloadOffset) { () throws(NDEFDecodingError) in try NDEFTextRecord(record: item)
                    })
            } else if item.isWellKnown("act") {
                let code = try Self.singleValue(item.payload, length: 1, at: payloadOffset)
                guard let value = Action(code: UInt8(code)) else {
                    throw NDEFDecodingError(
                        offset: payloadOffset, reason: .reservedSmartPosterAction(code: UInt8(code)))
                }
                action = value
            } else if item.isWellKnown("s") {
                size = try Self.singleValue(item.payload, length: 4, at: payloadOffset)
            } else if item.isWellKnown("t") {
                mimeType = try NDEFUnicode.decodeUTF8(item.payload[...], base: payloadOffset)
            } else if Self.isIcon(item) {
                icons.append(
                    try Self.shifting(inner.headerOffset) { () throws(NDEFDecodingError) in
                        try NDEFMediaRecord(record: item)
                    })
            } else {
                otherRecords.append(item)
            }
        }
        guard let uri else { throw NDEFDecodingError(offset: 0, reason: .smartPosterMissingURI) }
        self.uri = uri
    }

    /// The title in `languageCode` (compared ignoring ASCII case), or `nil`.
    package func title(forLanguage languageCode: String) -> NDEFTextRecord? {
        titles.first { $0.languageCode.lowercasedASCII() == languageCode.lowercasedASCII() }
    }

    /// The inner message: titles, URI, `act`, `s`, `t`, icons, other records.
    ///
    /// - Throws: ``NDEFEncodingError/invalidLanguageCode(_:)`` from a title.
    package func makeMessage() throws(NDEFEncodingError) -> NDEFMessage {
        var records: [NDEFRecord] = []
        for title in titles { records.append(try title.makeRecord()) }
        records.append(uri.record)
        if let action { records.append(.wellKnown("act", payload: [action.code])) }
        if let size {
            records.append(
                .wellKnown(
                    "s",
                    payload: [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
            )
        }
        if let mimeType { records.append(.wellKnown("t", payload: Array(mimeType.utf8))) }
        records += icons.map(\.record)
        records += otherRecords
        return NDEFMessage(records: records)
    }

    /// The well-known `Sp` record, or an error from a title or an unencodable other record.
    public func makeRecord() throws(NDEFEncodingError) -> NDEFRecord {
        .wellKnown(Self.typeName, payload: try makeMessage().encoded())
    }

    /// The well-known `Sp` record.
    ///
    /// - Precondition: the titles' language codes are valid and ``otherRecords`` are encodable;
    ///   use ``makeRecord()`` to get an error instead.
    public var record: NDEFRecord {
        do {
            return try makeRecord()
        } catch {
            preconditionFailure("NDEFSmartPosterRecord.record: \(error)")
        }
    }

    private static func isIcon(_ record: NDEFRecord) -> Bool {
        guard record.typeNameFormat == .media else { return false }
        let type = String(decoding: record.type, as: UTF8.self).lowercasedASCII()
        return type.hasPrefix("image/") || type.hasPrefix("video/")
    }

    /// A big-endian unsigned value from a payload that must be exactly `length` bytes.
    private static func singleValue(_ payload: [UInt8], length: Int, at offset: Int) throws(NDEFDecodingError) -> UInt32
    {
        guard payload.count == length else {
            throw NDEFDecodingError(
                offset: offset, reason: .unexpectedPayloadLength(expected: length, found: payload.count))
        }
        return payload.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Runs a nested decoder and moves its error offsets by `base`.
    private static func shifting<T>(_ base: Int, _ body: () throws(NDEFDecodingError) -> T) throws(NDEFDecodingError)
        -> T
    {
        do {
            return try body()
        } catch {
            throw error.shifted(by: base)
        }
    }
}

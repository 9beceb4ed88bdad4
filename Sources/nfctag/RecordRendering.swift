import NFCTagKit

/// How records are shown: JSON objects with the contract's fields, and lines for people.
///
/// JSON fields: `tnf`, `type`, `id`, `payload` (hex), and when known `uri`, `text` with
/// `lang` and `encoding`, `records` (a Smart Poster's inner message).
enum RecordRendering {
    /// The record as JSON; a payload that does not parse is shown raw.
    static func json(_ record: NDEFRecord) -> JSONValue {
        (try? jsonChecked(record)) ?? .object(basicFields(record))
    }

    /// The record as JSON; throws when a well-known payload is malformed.
    static func jsonChecked(_ record: NDEFRecord) throws(NDEFDecodingError) -> JSONValue {
        var fields = basicFields(record)
        switch try record.parsedPayload() {
        case .uri(let uri):
            fields.append(("uri", .string(uri.uri)))
        case .text(let text):
            fields.append(("text", .string(text.text)))
            fields.append(("lang", .string(text.languageCode)))
            fields.append(("encoding", .string(text.encoding == .utf8 ? "utf-8" : "utf-16")))
        case .smartPoster(let poster):
            fields.append(("uri", .string(poster.uri.uri)))
            let inner = try NDEFMessage(bytes: record.payload)
            fields.append(("records", .array(try inner.records.map(jsonChecked))))
        case .absoluteURI(let absolute):
            fields.append(("uri", .string(absolute.uri)))
        case .external(let external):
            fields.append(("domain", .string(external.domain)))
            fields.append(("external_type", .string(external.externalType)))
        case .media, .empty, .other:
            break
        }
        return .object(fields)
    }

    private static func basicFields(_ record: NDEFRecord) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("tnf", .string(record.typeNameFormat.description))]
        fields.append(("type", .string(text(record.type))))
        if !isPlainText(record.type) { fields.append(("type_hex", .string(record.type.hexString()))) }
        fields.append(("id", .string(text(record.identifier))))
        if !isPlainText(record.identifier) { fields.append(("id_hex", .string(record.identifier.hexString()))) }
        fields.append(("payload", .string(record.payload.hexString())))
        return fields
    }

    /// Lines for a person, one or more per record, numbered from 1.
    static func lines(_ records: [NDEFRecord], indent: String) -> [String] {
        var lines: [String] = []
        for (number, record) in zip(1..., records) {
            let head = "\(indent)\(number). "
            let id = record.identifier.isEmpty ? "" : "  id \(text(record.identifier))"
            switch try? record.parsedPayload() {
            case .uri(let uri)?:
                lines.append("\(head)URI \(uri.uri)\(id)")
            case .text(let text)?:
                let encoding = text.encoding == .utf8 ? "utf-8" : "utf-16"
                lines.append("\(head)Text (\(text.languageCode), \(encoding)) \"\(text.text)\"\(id)")
            case .smartPoster(let poster)?:
                lines.append("\(head)Smart Poster \(poster.uri.uri)\(id)")
                if let inner = try? NDEFMessage(bytes: record.payload) {
                    lines += self.lines(inner.records, indent: indent + "   ")
                }
            case .media(let media)?:
                lines.append("\(head)MIME \(media.mediaType), \(media.payload.count) bytes\(id)")
            case .external(let external)?:
                lines.append(
                    "\(head)External \(external.domain):\(external.externalType), payload \(external.payload.hexString())\(id)"
                )
            case .absoluteURI(let absolute)?:
                lines.append("\(head)Absolute URI \(absolute.uri)\(id)")
            case .empty?:
                lines.append("\(head)Empty record")
            case .other?, nil:
                let type = text(record.type)
                lines.append(
                    "\(head)\(record.typeNameFormat.description) '\(type)', payload \(record.payload.hexString())\(id)")
            }
        }
        return lines
    }

    private static func isPlainText(_ bytes: [UInt8]) -> Bool {
        guard let string = String(validating: bytes, as: UTF8.self) else { return false }
        return !string.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

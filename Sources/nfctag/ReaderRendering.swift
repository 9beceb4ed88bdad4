import NFCTagKit

/// Readers and reader events as JSON and as lines for people.
enum ReaderRendering {
    /// `{"connstring", "name", "kind", "serial", "firmware", "serial_speed", "in_use"}`.
    static func json(_ reader: NFCReader) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("connstring", .string(reader.connectionString)),
            ("name", .string(reader.name)),
            ("kind", .string(reader.kind.rawValue)),
            ("serial", reader.serialNumber.map(JSONValue.string) ?? .null),
            ("firmware", reader.info?.firmware.map { .string($0.description) } ?? .null),
            ("serial_speed", reader.info?.serialSpeed.map(JSONValue.int) ?? .null),
        ]
        if let inUse = reader.inUse {
            fields.append(("in_use", .object([("reason", .string(inUse.description)), ("fix", .string(inUse.fix))])))
        }
        return .object(fields)
    }

    /// One line for a person.
    static func line(_ reader: NFCReader) -> String {
        var parts = ["\(reader.connectionString)  \(reader.name)  [\(reader.kind.rawValue)]"]
        if let serial = reader.serialNumber { parts.append("serial \(serial)") }
        if let firmware = reader.info?.firmware { parts.append("firmware \(firmware)") }
        if let speed = reader.info?.serialSpeed { parts.append("\(speed) baud") }
        if let inUse = reader.inUse { parts.append("IN USE — \(inUse)") }
        return parts.joined(separator: "  ")
    }

    /// The `monitor --json` object of one event.
    static func json(_ event: ReaderEvent) -> JSONValue {
        var fields: [(String, JSONValue)] = [("event", .string(event.name))]
        switch event {
        case .connected(let info), .reconnectSucceeded(let info):
            fields.append(("connstring", .string(info.connectionString)))
            fields.append(("name", .string(info.name)))
        case .disconnected(let reason), .reconnectStarted(let reason, _):
            fields.append(("reason", .string(reason.name)))
            fields.append(("detail", .string(reason.description)))
        case .reconnectFailed:
            break
        case .tagDetected(let uid, let chip):
            fields.append(("uid", .string(uid.hexString())))
            fields.append(("chip", .string(chip?.rawValue ?? "unknown")))
        case .tagRemoved(let uid):
            fields.append(("uid", .string(uid.hexString())))
        }
        return .object(fields)
    }
}

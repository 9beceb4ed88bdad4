import NFCTagKit

/// The JSON fields and text lines of the tag commands: `uid`, `chip`, `atqa`, `sak`,
/// `ndef` = {`status`, `capacity`, `length`}.
enum TagRendering {
    /// `uid`, `chip`, `atqa`, `sak`.
    static func identity(_ tag: NDEFDetectedTag) -> [(String, JSONValue)] {
        [
            ("uid", .string(tag.uid.hexString())), ("chip", .string(tag.chipName)),
            ("atqa", .string(tag.target.atqa.hexString())), ("sak", .string([tag.target.sak].hexString())),
        ]
    }

    /// `read-write`, `read-only` or `not-supported`.
    static func name(_ availability: NDEFAvailability) -> String {
        switch availability {
        case .readWrite: "read-write"
        case .readOnly: "read-only"
        case .notSupported: "not-supported"
        }
    }

    /// The `ndef` object.
    static func json(_ status: NDEFStatus) -> JSONValue {
        .object([
            ("status", .string(name(status.availability))), ("capacity", .int(status.capacity)),
            ("length", .int(status.length)),
        ])
    }

    /// `NDEF read-write, 21/492 bytes`.
    static func line(_ status: NDEFStatus?) -> String {
        guard let status else { return "NDEF status unknown" }
        if status.availability == .notSupported { return "NDEF not supported" }
        return "NDEF \(name(status.availability)), \(status.length)/\(status.capacity) bytes"
    }

    /// `04a1b2c3d4e5f6  ntag215  ATQA 0044  SAK 00`.
    static func line(_ tag: NDEFDetectedTag) -> String {
        "\(tag.uid.hexString())  \(tag.chipName)  ATQA \(tag.target.atqa.hexString())  SAK \([tag.target.sak].hexString())"
    }

    /// The status for scan and info: unsupported tags (and unidentified ones, `nil`) are
    /// `not-supported`; other failures nil.
    static func status(of tag: (any NFCNDEFTag)?) async -> (NDEFStatus?, NDEFSessionError?) {
        let notSupported = NDEFStatus(availability: .notSupported, capacity: 0, length: 0)
        guard let tag else { return (notSupported, nil) }
        do {
            return (try await tag.queryNDEFStatus(), nil)
        } catch .unsupportedTag {
            return (notSupported, nil)
        } catch {
            return (nil, error)
        }
    }
}

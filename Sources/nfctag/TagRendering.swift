import NFCTagKit

/// The JSON fields and text lines of the tag commands: `uid`, `chip`, `technology`, `atqa`
/// and `sak` (a FeliCa card: `idm`, `pmm`, `system_codes`; a type B card: `atqb`), `ndef` =
/// {`status`, `capacity`, `length`}.
enum TagRendering {
    /// `uid`, `chip`, `technology`, then `atqa` and `sak`, a FeliCa card's `idm`, `pmm`
    /// and `system_codes` (the one Polling answered for), or a type B card's `atqb`.
    static func identity(_ tag: NDEFDetectedTag) -> [(String, JSONValue)] {
        let common: [(String, JSONValue)] = [("uid", .string(tag.uid.hexString())), ("chip", .string(tag.chipName))]
        switch tag.target {
        case .feliCa(let card):
            return common + [
                ("technology", .string("felica")), ("idm", .string(card.idm.hexString())),
                ("pmm", .string(card.pmm.hexString())),
                ("system_codes", .array(card.systemCode.map { [.string(FeliCaVerbs.hex4($0))] } ?? [])),
            ]
        case .iso14443B(let card):
            return common + [("technology", .string("iso14443b")), ("atqb", .string(card.atqb.hexString()))]
        case .type1(let type1):
            return common + [("technology", .string("jewel")), ("header_rom", .string(type1.headerROM.hexString()))]
        case .st25tb(let card):
            return common + [
                ("technology", .string("iso14443b")), ("product", .string(card.chip?.product ?? "unknown")),
            ]
        case .iso14443A(let typeA):
            return common + [
                ("technology", .string("iso14443a")), ("atqa", .string(typeA.atqa.hexString())),
                ("sak", .string([typeA.sak].hexString())),
            ]
        }
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

    /// `04a1b2c3d4e5f6  ntag215  ATQA 0044  SAK 00`; for an ST25TB
    /// `b6c061a0001b02d0  st25tb  ST25TB512-AC`; for a FeliCa card
    /// `012e4c2a31120b05  felica-lite-s  PMm 00f1000000014300  SC 88b4`; for a type B card
    /// `e8253eec  type4  ATQB 50e8253eec00000011008185`.
    static func line(_ tag: NDEFDetectedTag) -> String {
        switch tag.target {
        case .feliCa(let card):
            let code = card.systemCode.map { "  SC \(FeliCaVerbs.hex4($0))" } ?? ""
            return "\(tag.uid.hexString())  \(tag.chipName)  PMm \(card.pmm.hexString())\(code)"
        case .iso14443B(let card):
            return "\(tag.uid.hexString())  \(tag.chipName)  ATQB \(card.atqb.hexString())"
        case .type1(let type1):
            return "\(tag.uid.hexString())  \(tag.chipName)  HR \(type1.headerROM.hexString())"
        case .st25tb(let card):
            return "\(tag.uid.hexString())  \(tag.chipName)  \(card.chip?.product ?? "unknown product")"
        case .iso14443A(let typeA):
            return
                "\(tag.uid.hexString())  \(tag.chipName)  ATQA \(typeA.atqa.hexString())  SAK \([typeA.sak].hexString())"
        }
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

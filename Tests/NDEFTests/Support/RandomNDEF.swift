@testable import NDEF
import TestSupport

/// Generators of random NDEF values for the property tests.
extension SplitMix64 {
    /// A payload size: mostly short, sometimes past 255 to force long records.
    mutating func payloadSize() -> Int {
        switch Int.random(in: 0..<10, using: &self) {
        case 0: 0
        case 1...6: Int.random(in: 1...80, using: &self)
        case 7: Int.random(in: 240...270, using: &self)
        default: Int.random(in: 256...1200, using: &self)
        }
    }

    mutating func identifier() -> [UInt8] {
        switch Int.random(in: 0..<4, using: &self) {
        case 0, 1: []
        case 2: bytes(Int.random(in: 1...8, using: &self))
        default: bytes(Int.random(in: 200...255, using: &self))
        }
    }

    mutating func typeBytes() -> [UInt8] {
        chance(1, in: 8) ? bytes(Int.random(in: 200...255, using: &self)) : bytes(Int.random(in: 0...12, using: &self))
    }

    /// A record of any encodable TNF (0 to 5).
    mutating func record() -> NDEFRecord {
        let format = NDEFTypeNameFormat(rawValue: UInt8.random(in: 0...5, using: &self))!
        switch format {
        case .empty:
            return .empty
        case .unknown:
            return NDEFRecord(typeNameFormat: .unknown, identifier: identifier(), payload: bytes(payloadSize()))
        default:
            return NDEFRecord(
                typeNameFormat: format, type: typeBytes(), identifier: identifier(), payload: bytes(payloadSize()))
        }
    }

    mutating func message() -> NDEFMessage {
        NDEFMessage(records: (0..<Int.random(in: 1...5, using: &self)).map { _ in record() })
    }

    /// Text with ASCII, Latin, CJK, emoji (astral), combining marks and BOM-like scalars.
    mutating func unicodeText() -> String {
        let ranges: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0xA0...0x24F, 0x300...0x36F, 0x4E00...0x9FFF, 0x1F300...0x1F64F, 0xFEFF...0xFEFF,
            0xFFFE...0xFFFE, 0x10000...0x10FFFF, 0x0...0x1F,
        ]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...40, using: &self) {
            let range = ranges[Int.random(in: 0..<ranges.count, using: &self)]
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &self)) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    mutating func languageCode() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        let count = chance(1, in: 10) ? 63 : Int.random(in: 1...8, using: &self)
        return String((0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &self)] })
    }

    mutating func textRecord() -> NDEFTextRecord {
        NDEFTextRecord(text: unicodeText(), languageCode: languageCode(), encoding: chance(1, in: 2) ? .utf8 : .utf16)
    }

    mutating func uri() -> String {
        let prefix = NDEFURIRecord.prefixTable[Int.random(in: 0..<NDEFURIRecord.prefixTable.count, using: &self)]
        return prefix
            + (chance(1, in: 2) ? "example.com/path?q=\(UInt16.random(in: 0...9999, using: &self))" : unicodeText())
    }

    mutating func mediaType() -> String {
        let types = [
            "image/png", "image/jpeg", "video/mp4", "text/plain; charset=utf-8", "application/vnd.bluetooth.ep.oob",
            "Image/SVG+XML", "application/x-foo; a=\"b; c\"",
        ]
        return types[Int.random(in: 0..<types.count, using: &self)]
    }

    mutating func smartPoster() throws -> NDEFSmartPosterRecord {
        let icons = try (0..<Int.random(in: 0...2, using: &self)).map { _ in
            try NDEFMediaRecord(mediaType: chance(1, in: 2) ? "image/png" : "video/mp4", payload: bytes(payloadSize()))
        }
        let others = try (0..<Int.random(in: 0...2, using: &self)).map { _ in
            chance(1, in: 2)
                ? try NDEFExternalRecord(
                    domain: "example.com", type: "x\(UInt8.random(in: 0...9, using: &self))", payload: bytes(5)
                ).record
                : NDEFRecord(typeNameFormat: .unknown, payload: bytes(payloadSize()))
        }
        return NDEFSmartPosterRecord(
            uri: NDEFURIRecord(uri: uri()),
            titles: (0..<Int.random(in: 0...3, using: &self)).map { _ in textRecord() },
            action: chance(1, in: 2) ? NDEFSmartPosterRecord.Action.allCases.randomElement(using: &self) : nil,
            size: chance(1, in: 2) ? UInt32.random(in: 0...UInt32.max, using: &self) : nil,
            mimeType: chance(1, in: 2) ? mediaType() : nil,
            icons: icons,
            otherRecords: others
        )
    }
}

import Foundation

/// An NFC Forum well-known URI record (`U`): an identifier code standing for a common prefix,
/// then the rest of the URI in UTF-8.
///
/// Encoding picks the longest of the URI RTD's 36 prefixes that the URI starts with
/// (compared byte for byte, case-sensitively), so `https://www.x` uses code `02` and `urn:nfc:x` code `23`.
/// Codes `24`–`FF` are reserved and fail to decode.
///
/// ```swift
/// let record = NDEFURIRecord(uri: "http://www.adafruit.com").record
/// // payload 01 61 64 61 66 72 75 69 74 2E 63 6F 6D
/// ```
public struct NDEFURIRecord: Hashable, Sendable {
    /// The well-known type name, `U`.
    package static let typeName = "U"

    /// The URI prefixes of NFC Forum URI RTD 1.0 (§3.2.2, Table 3); the index is the
    /// identifier code (`00`…`23`). The one table of the package: checked against nfcpy's
    /// ndeflib, proxmark3's NDEF decoder and Android's `NdefRecord` (which stops at `22`).
    package static let prefixTable: [String] = [
        "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:",
        "ftp://anonymous:anonymous@", "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://",
        "ftp://", "dav://", "news:", "telnet://", "imap:", "rtsp://", "urn:", "pop:", "sip:",
        "sips:", "tftp:", "btspp://", "btl2cap://", "btgoep://", "tcpobex://", "irdaobex://",
        "file://", "urn:epc:id:", "urn:epc:tag:", "urn:epc:pat:", "urn:epc:raw:", "urn:epc:",
        "urn:nfc:",
    ]

    /// The whole URI, prefix included.
    public var uri: String

    /// Creates a URI record.
    public init(uri: String) {
        self.uri = uri
    }

    /// Reads a URI record; error offsets count from the start of the payload.
    ///
    /// - Throws: ``NDEFDecodingError`` for another record type, an empty payload, a reserved
    ///   identifier code, or a remainder that is not UTF-8.
    public init(record: NDEFRecord) throws(NDEFDecodingError) {
        guard record.isWellKnown(Self.typeName) else {
            throw NDEFDecodingError(
                offset: 0, reason: .recordTypeMismatch(expected: "well-known \"U\"", found: record.kindDescription))
        }
        guard let code = record.payload.first else { throw NDEFDecodingError(offset: 0, reason: .emptyPayload) }
        guard Int(code) < Self.prefixTable.count else {
            throw NDEFDecodingError(offset: 0, reason: .reservedURIPrefix(code: code))
        }
        let remainder = try NDEFUnicode.decodeUTF8(record.payload[1...], base: 1)
        self.uri = Self.prefixTable[Int(code)] + remainder
    }

    /// The identifier code encoding uses: the longest matching prefix, or 0.
    package var prefixCode: UInt8 {
        let bytes = Array(uri.utf8)
        var best = (code: 0, length: 0)
        for (code, prefix) in Self.prefixTable.enumerated() {
            let prefixBytes = Array(prefix.utf8)
            if prefixBytes.count > best.length, bytes.starts(with: prefixBytes) {
                best = (code, prefixBytes.count)
            }
        }
        return UInt8(best.code)
    }

    /// The well-known `U` record: the prefix code, then the rest of the URI in UTF-8.
    public var record: NDEFRecord {
        let code = prefixCode
        let prefixLength = Self.prefixTable[Int(code)].utf8.count
        return .wellKnown(Self.typeName, payload: [code] + Array(uri.utf8.dropFirst(prefixLength)))
    }

    /// The URI as a Foundation `URL`, when it parses as one.
    public var url: URL? {
        URL(string: uri)
    }
}

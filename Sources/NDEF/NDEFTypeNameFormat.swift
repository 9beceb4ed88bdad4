/// The 3-bit Type Name Format (TNF) of an NDEF record header: how to read the record's TYPE field.
///
/// ```swift
/// let tnf = NDEFTypeNameFormat(rawValue: 0xD1 & 0x07)   // .wellKnown
/// print(tnf!)                                          // "well-known"
/// ```
public enum NDEFTypeNameFormat: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// TNF 0: an empty record; its TYPE, ID and PAYLOAD lengths are all 0.
    case empty = 0
    /// TNF 1: an NFC Forum well-known type (`urn:nfc:wkt:`), such as `T`, `U` or `Sp`.
    case wellKnown = 1
    /// TNF 2: a media type (RFC 2046), such as `text/plain`.
    case media = 2
    /// TNF 3: an absolute URI (RFC 3986) in the TYPE field.
    case absoluteURI = 3
    /// TNF 4: an NFC Forum external type (`urn:nfc:ext:`), `domain:type`.
    case external = 4
    /// TNF 5: unknown payload type; the TYPE length is 0.
    case unknown = 5
    /// TNF 6: unchanged; only on the middle and last chunks of a chunked record.
    case unchanged = 6
    /// TNF 7: reserved by the NFC Forum; a decode error.
    case reserved = 7

    /// The name the `nfctag` JSON output uses: `empty`, `well-known`, `media`, `absolute-uri`,
    /// `external`, `unknown`, `unchanged` or `reserved`.
    public var description: String {
        switch self {
        case .empty: "empty"
        case .wellKnown: "well-known"
        case .media: "media"
        case .absoluteURI: "absolute-uri"
        case .external: "external"
        case .unknown: "unknown"
        case .unchanged: "unchanged"
        case .reserved: "reserved"
        }
    }
}

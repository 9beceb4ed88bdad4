import NFCChips

/// An ISO/IEC 7816-4 command APDU: CLA INS P1 P2, optional command data and the expected
/// answer length Ne — Core NFC's `NFCISO7816APDU`.
///
/// The bytes follow the four cases of ISO/IEC 7816-4 §5.1, short or extended:
///
/// | case | data | Ne | short | extended |
/// |---|---|---|---|---|
/// | 1 | — | — | `CLA INS P1 P2` | (same) |
/// | 2 | — | 1…65536 | `… Le` (256 → `00`) | `… 00 Le1 Le2` (65536 → `00 00`) |
/// | 3 | 1…65535 | — | `… Lc data` | `… 00 Lc1 Lc2 data` |
/// | 4 | 1…65535 | 1…65536 | `… Lc data Le` | `… 00 Lc1 Lc2 data Le1 Le2` |
///
/// The extended form is used when the data is longer than 255 bytes, Ne is above 256, or
/// the caller asks for it (``usesExtendedLength``). The limits come from `ChipTables.iso7816`.
///
/// ```swift
/// let select = try APDU(cla: 0x00, ins: 0xA4, p1: 0x04, p2: 0x00,
///                       data: [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01], expectedResponseLength: 256)
/// select.bytes            // 00 A4 04 00 07 D2 76 00 00 85 01 01 00
/// try APDU(bytes: select.bytes) == select   // true
/// ```
public struct APDU: Sendable, Hashable, CustomStringConvertible {
    /// The class byte.
    public let cla: UInt8
    /// The instruction byte.
    public let ins: UInt8
    /// The first parameter byte.
    public let p1: UInt8
    /// The second parameter byte.
    public let p2: UInt8
    /// The command data (Nc bytes; empty in cases 1 and 2).
    public let data: [UInt8]
    /// Ne, the most answer data expected (`nil` in cases 1 and 3, where no Le is sent).
    public let expectedResponseLength: Int?
    /// Whether the length fields are extended (three-byte Lc, two- or three-byte Le).
    /// Always `false` for case 1, which has no length field.
    public let usesExtendedLength: Bool

    /// An APDU; `extendedLength` forces the extended form even when short lengths would do.
    ///
    /// - Throws: ``TagCommandError/invalidArgument(_:)`` when the data is longer than 65535 bytes or Ne is
    ///   outside 1…65536.
    public init(
        cla: UInt8, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [],
        expectedResponseLength: Int? = nil, extendedLength: Bool = false
    ) throws(TagCommandError) {
        let iso = ChipTables.iso7816
        guard data.count <= iso.extendedMaximumNc else {
            throw .invalidArgument(
                "the command data has \(data.count) bytes; an APDU carries at most \(iso.extendedMaximumNc)")
        }
        if let ne = expectedResponseLength, !(1...iso.extendedMaximumNe).contains(ne) {
            throw .invalidArgument("the expected answer length \(ne) is outside 1…\(iso.extendedMaximumNe)")
        }
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.expectedResponseLength = expectedResponseLength
        let needsExtended = data.count > iso.shortMaximumNc || (expectedResponseLength ?? 0) > iso.shortMaximumNe
        let hasLengthField = !data.isEmpty || expectedResponseLength != nil
        self.usesExtendedLength = hasLengthField && (extendedLength || needsExtended)
    }

    /// Decodes `bytes` by the rules of ISO/IEC 7816-4 §5.1: the body after the header is
    /// empty (case 1), one byte (2S), `00` and two bytes (2E), `Lc data` (3S), `Lc data Le`
    /// (4S), `00 Lc1 Lc2 data` (3E) or `00 Lc1 Lc2 data Le1 Le2` (4E).
    ///
    /// - Throws: ``TagCommandError/invalidArgument(_:)`` when the lengths do not add up.
    public init(bytes: [UInt8]) throws(TagCommandError) {
        let iso = ChipTables.iso7816
        guard bytes.count >= iso.headerLength else {
            throw .invalidArgument(
                "not an ISO 7816-4 APDU: an APDU has at least \(iso.headerLength) bytes (CLA INS P1 P2), found \(bytes.count)"
            )
        }
        let header = Array(bytes.prefix(iso.headerLength))
        let body = Array(bytes.dropFirst(iso.headerLength))
        func make(_ data: [UInt8], _ ne: Int?, extended: Bool) throws(TagCommandError) -> APDU {
            try APDU(
                cla: header[0], ins: header[1], p1: header[2], p2: header[3], data: data,
                expectedResponseLength: ne, extendedLength: extended)
        }
        let shortNe = { (byte: UInt8) in byte == 0 ? iso.shortMaximumNe : Int(byte) }
        let extendedNe = { (high: UInt8, low: UInt8) in
            let value = Int(high) << 8 | Int(low)
            return value == 0 ? iso.extendedMaximumNe : value
        }
        guard let first = body.first else {
            self = try make([], nil, extended: false)  // case 1
            return
        }
        if body.count == 1 {
            self = try make([], shortNe(first), extended: false)  // case 2S
            return
        }
        if first != iso.extendedLengthMarker {
            let nc = Int(first)
            switch body.count {
            case 1 + nc: self = try make(Array(body.dropFirst()), nil, extended: false)  // 3S
            case 2 + nc:  // 4S
                self = try make(Array(body.dropFirst().dropLast()), shortNe(body[body.count - 1]), extended: false)
            default:
                throw .invalidArgument(
                    "not an ISO 7816-4 APDU: Lc \(nc) does not match the \(body.count - 1) bytes after it")
            }
            return
        }
        guard body.count >= 3 else {
            throw .invalidArgument("not an ISO 7816-4 APDU: an extended length field needs two bytes after 00")
        }
        if body.count == 3 {
            self = try make([], extendedNe(body[1], body[2]), extended: true)  // case 2E
            return
        }
        let nc = Int(body[1]) << 8 | Int(body[2])
        guard nc > 0 else { throw .invalidArgument("not an ISO 7816-4 APDU: an extended Lc of 00 00 is not allowed") }
        let data = Array(body.dropFirst(3).prefix(nc))
        switch body.count {
        case 3 + nc: self = try make(data, nil, extended: true)  // 3E
        case 5 + nc:  // 4E
            self = try make(data, extendedNe(body[body.count - 2], body[body.count - 1]), extended: true)
        default:
            throw .invalidArgument(
                "not an ISO 7816-4 APDU: extended Lc \(nc) does not match the \(body.count - 3) bytes after it")
        }
    }

    /// The ISO case of the APDU.
    package var isoCase: APDUCase {
        switch (data.isEmpty, expectedResponseLength == nil) {
        case (true, true): .case1
        case (true, false): usesExtendedLength ? .case2Extended : .case2Short
        case (false, true): usesExtendedLength ? .case3Extended : .case3Short
        case (false, false): usesExtendedLength ? .case4Extended : .case4Short
        }
    }

    /// The bytes as sent to the tag.
    public var bytes: [UInt8] {
        let iso = ChipTables.iso7816
        var bytes = [cla, ins, p1, p2]
        if usesExtendedLength {
            bytes.append(iso.extendedLengthMarker)
            if !data.isEmpty { bytes += [UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data }
            if let ne = expectedResponseLength {
                let le = ne == iso.extendedMaximumNe ? 0 : ne
                bytes += [UInt8(le >> 8 & 0xFF), UInt8(le & 0xFF)]
            }
        } else {
            if !data.isEmpty { bytes += [UInt8(data.count)] + data }
            if let ne = expectedResponseLength { bytes.append(ne == iso.shortMaximumNe ? 0 : UInt8(ne)) }
        }
        return bytes
    }

    /// The same command asking for `expectedResponseLength` bytes (the `6Cxx` retry).
    package func withExpectedResponseLength(_ expectedResponseLength: Int) throws(TagCommandError) -> APDU {
        try APDU(
            cla: cla, ins: ins, p1: p1, p2: p2, data: data, expectedResponseLength: expectedResponseLength,
            extendedLength: usesExtendedLength)
    }

    /// The APDU in hex, e.g. `00a4040007d276000085010100`.
    public var description: String { bytes.hexString() }
}

/// The four command-response cases of ISO/IEC 7816-4 §5.1, short (S) or extended (E).
package enum APDUCase: String, Sendable, Hashable, CaseIterable {
    /// No data, no answer data.
    case case1 = "1"
    /// Answer data expected, short Le.
    case case2Short = "2S"
    /// Answer data expected, extended Le.
    case case2Extended = "2E"
    /// Command data, short Lc.
    case case3Short = "3S"
    /// Command data, extended Lc.
    case case3Extended = "3E"
    /// Command data and answer data, short Lc and Le.
    case case4Short = "4S"
    /// Command data and answer data, extended Lc and Le.
    case case4Extended = "4E"
}

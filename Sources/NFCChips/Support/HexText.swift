/// Bytes as hexadecimal text: the one formatter every module uses (UIDs, frames, keys,
/// error messages, dumps, the command line).
///
/// ```swift
/// [0x04, 0xE0, 0x5A].hexString()                                   // "04e05a"
/// [0x04, 0xE0, 0x5A].hexString(uppercase: true, separator: " ")   // "04 E0 5A"
/// ```
extension Sequence where Element == UInt8 {
    /// Two digits a byte, `separator` between bytes; lowercase unless `uppercase`.
    package func hexString(uppercase: Bool = false, separator: String = "") -> String {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * (2 + separator.utf8.count))
        for byte in self {
            if !text.isEmpty { text.append(contentsOf: separator.utf8) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension UInt8 {
    /// The byte as two hex digits (`0A`, or `0a` unless `uppercase`).
    package func hexString(uppercase: Bool = false) -> String {
        CollectionOfOne(self).hexString(uppercase: uppercase)
    }
}

extension UInt16 {
    /// The value as four hex digits, big-endian (`072f`, or `072F` when `uppercase`).
    package func hexString(uppercase: Bool = false) -> String {
        [UInt8(self >> 8), UInt8(self & 0xFF)].hexString(uppercase: uppercase)
    }
}

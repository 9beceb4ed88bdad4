import Foundation

/// A value that the datasheet tables write as hexadecimal text.
///
/// The `datasheets/` JSON files use two spellings, documented in `datasheets/README.md`:
/// - a single number (page address, command code, mask, register address) is a string
///   `"0x29"`: the prefix `0x` followed by 1–16 hexadecimal digits;
/// - a byte string (GET_VERSION answer, key, frame) is a string of two-digit hexadecimal
///   bytes separated by single spaces, in memory / transmission order: `"00 04 04 02"`.
///   The empty byte string is `""`.
///
/// ```swift
/// let page = try UInt8(hexText: "0x29")          // 41
/// let bytes = try [UInt8](hexText: "E1 10 12 00") // [0xE1, 0x10, 0x12, 0x00]
/// ```
package protocol HexRepresentable: Equatable, Sendable {
    /// Decodes the value from its hexadecimal text.
    init(hexText: String) throws(HexTextError)
    /// The hexadecimal text that ``init(hexText:)`` accepts.
    var hexText: String { get }
    /// The value as a Swift literal, used by `nfcchips-gen` to write the generated tables.
    var swiftLiteral: String { get }
}

/// Why a hexadecimal text from a datasheet table could not be decoded.
package struct HexTextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text that was rejected.
    package var text: String
    /// What was expected instead.
    package var expected: String

    /// Creates an error for `text`, saying what was `expected`.
    package init(text: String, expected: String) {
        self.text = text
        self.expected = expected
    }

    /// A sentence naming the text and the expected spelling.
    package var description: String { "invalid hex text \"\(text)\": expected \(expected)" }
}

/// Parses `"0x…"` text into an unsigned magnitude no larger than `maximum`.
func parseHexNumber(_ text: String, maximum: UInt64) throws(HexTextError) -> UInt64 {
    let expected = "\"0x\" followed by 1–16 hex digits, at most 0x\(String(maximum, radix: 16, uppercase: true))"
    guard text.hasPrefix("0x"), text.count > 2, text.count <= 18 else {
        throw HexTextError(text: text, expected: expected)
    }
    guard let value = UInt64(text.dropFirst(2), radix: 16), value <= maximum else {
        throw HexTextError(text: text, expected: expected)
    }
    return value
}

/// Formats `value` as `0x` + at least `digits` uppercase hexadecimal digits.
func formatHexNumber(_ value: UInt64, digits: Int) -> String {
    let raw = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, digits - raw.count)) + raw
}

extension UInt8: HexRepresentable {
    /// Decodes `"0x00"`…`"0xFF"`.
    package init(hexText: String) throws(HexTextError) {
        self = UInt8(try parseHexNumber(hexText, maximum: UInt64(UInt8.max)))
    }
    /// `0x` and two uppercase digits.
    package var hexText: String { formatHexNumber(UInt64(self), digits: 2) }
    /// Same as ``hexText``.
    package var swiftLiteral: String { hexText }
}

extension UInt16: HexRepresentable {
    /// Decodes `"0x0"`…`"0xFFFF"`.
    package init(hexText: String) throws(HexTextError) {
        self = UInt16(try parseHexNumber(hexText, maximum: UInt64(UInt16.max)))
    }
    /// `0x` and four uppercase digits.
    package var hexText: String { formatHexNumber(UInt64(self), digits: 4) }
    /// Same as ``hexText``.
    package var swiftLiteral: String { hexText }
}

extension UInt32: HexRepresentable {
    /// Decodes `"0x0"`…`"0xFFFFFFFF"`.
    package init(hexText: String) throws(HexTextError) {
        self = UInt32(try parseHexNumber(hexText, maximum: UInt64(UInt32.max)))
    }
    /// `0x` and at least six uppercase digits.
    package var hexText: String { formatHexNumber(UInt64(self), digits: 6) }
    /// Same as ``hexText``.
    package var swiftLiteral: String { hexText }
}

extension Int: HexRepresentable {
    /// Decodes `"0x0"`…`"0x7FFFFFFF"` (page and block addresses).
    package init(hexText: String) throws(HexTextError) {
        self = Int(try parseHexNumber(hexText, maximum: UInt64(Int32.max)))
    }
    /// `0x` and at least two uppercase digits.
    package var hexText: String { formatHexNumber(UInt64(self), digits: 2) }
    /// Same as ``hexText``.
    package var swiftLiteral: String { hexText }
}

extension Array: HexRepresentable where Element == UInt8 {
    /// Decodes `"00 04 04 02"`: two-digit hex bytes separated by single spaces; `""` is empty.
    package init(hexText: String) throws(HexTextError) {
        self = []
        if hexText.isEmpty { return }
        let expected = "two-digit hex bytes separated by single spaces, e.g. \"00 0F 03\""
        let parts = hexText.split(separator: " ", omittingEmptySubsequences: false)
        reserveCapacity(parts.count)
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else {
                throw HexTextError(text: hexText, expected: expected)
            }
            append(byte)
        }
    }
    /// Two uppercase digits per byte, separated by single spaces.
    package var hexText: String { map { formatHexNumber(UInt64($0), digits: 2).dropFirst(2) }.joined(separator: " ") }
    /// An array literal such as `[0x00, 0x04]`.
    package var swiftLiteral: String { "[" + map(\.hexText).joined(separator: ", ") + "]" }
}

extension Optional: HexRepresentable where Wrapped: HexRepresentable {
    /// Decodes the wrapped value; `nil` only comes from a missing key or JSON `null`.
    package init(hexText: String) throws(HexTextError) {
        self = .some(try Wrapped(hexText: hexText))
    }
    /// The wrapped value's text, or `""` for `nil`.
    package var hexText: String { self?.hexText ?? "" }
    /// The wrapped value's literal, or `nil`.
    package var swiftLiteral: String { self?.swiftLiteral ?? "nil" }
}

extension HexRepresentable {
    /// The value a missing key or JSON `null` stands for; only optionals have one.
    package static var absentValue: Self? { nil }
}

extension Optional where Wrapped: HexRepresentable {
    /// A missing key or JSON `null` decodes as `nil`.
    package static var absentValue: Self? { .some(.none) }
}

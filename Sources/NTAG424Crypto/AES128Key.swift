/// An AES-128 key: exactly 16 bytes.
///
/// Its `description` never shows the key, so that a key printed by mistake, logged or put in
/// an error message does not leak.
///
/// ```swift
/// let key = try AES128Key(hex: "00000000000000000000000000000000")
/// let factory = AES128Key.zero   // the factory value of all five NTAG 424 DNA keys
/// ```
public struct AES128Key: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The 16 key bytes, in the order the datasheet and AN12196 print them.
    public let bytes: [UInt8]

    /// A key from its 16 bytes; ``NTAG424CryptoError/malformed(_:)`` for any other length.
    public init(_ bytes: [UInt8]) throws(NTAG424CryptoError) {
        guard bytes.count == 16 else { throw .malformed("an AES-128 key has 16 bytes, not \(bytes.count)") }
        self.bytes = bytes
    }

    /// A key from 32 hex digits (either case; spaces are ignored).
    public init(hex: String) throws(NTAG424CryptoError) {
        guard let bytes = HexBytes.decode(hex) else { throw .malformed("a key is 32 hex digits") }
        try self.init(bytes)
    }

    /// All zero: the factory value of the NTAG 424 DNA application keys 0–4 (NT4H2421Gx §8.2.1).
    public static let zero = try! AES128Key([UInt8](repeating: 0, count: 16))

    /// `AES128Key(16 bytes)`: never the key itself.
    public var description: String { "AES128Key(16 bytes)" }
    /// The same as ``description``: never the key itself.
    public var debugDescription: String { description }
}

/// Hex text ↔ bytes, for keys, URL parameters and tests.
public enum HexBytes {
    /// The bytes of `text` (pairs of hex digits, either case; spaces ignored), or `nil` when
    /// it holds anything else or an odd number of digits.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var bytes: [UInt8] = []
        var high: UInt8?
        for unit in text.utf8 {
            if unit == UInt8(ascii: " ") { continue }
            let nibble: UInt8
            switch unit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = unit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = unit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = unit - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let h = high {
                bytes.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? bytes : nil
    }

    /// `bytes` as hex digits without separators, upper case by default (as the tag mirrors them).
    public static func encode(_ bytes: some Sequence<UInt8>, uppercase: Bool = true) -> String {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

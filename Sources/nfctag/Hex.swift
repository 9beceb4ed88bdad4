/// Hexadecimal text read from the command line (printing uses `hexString()` from the library).
enum Hex {
    /// Parses hex digits, ignoring white space, `:` and `-` separators and an optional `0x`.
    /// Nil when a character is not a hex digit or the digit count is odd.
    static func decode(_ text: String) -> [UInt8]? {
        var digits = [UInt8]()
        var body = Substring(text)
        if body.hasPrefix("0x") || body.hasPrefix("0X") { body = body.dropFirst(2) }
        for scalar in body.unicodeScalars {
            switch scalar {
            case "0"..."9": digits.append(UInt8(scalar.value - 48))
            case "a"..."f": digits.append(UInt8(scalar.value - 87))
            case "A"..."F": digits.append(UInt8(scalar.value - 55))
            case " ", "\t", "\n", "\r", ":", "-": continue
            default: return nil
            }
        }
        guard digits.count % 2 == 0 else { return nil }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }
}

/// Bytes from hex text such as `"D1 01 0B 54"` (spaces ignored); traps on bad test data.
func hex(_ text: String) -> [UInt8] {
    let digits = text.filter { !$0.isWhitespace }
    precondition(digits.count % 2 == 0, "odd number of hex digits in test data")
    var bytes: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        guard let byte = UInt8(digits[index..<next], radix: 16) else {
            preconditionFailure("bad hex \(digits[index..<next])")
        }
        bytes.append(byte)
        index = next
    }
    return bytes
}

/// `"D1 01 0B"` for messages in expectations.
func hexString(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789ABCDEF")
    return bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]]) }.joined(separator: " ")
}

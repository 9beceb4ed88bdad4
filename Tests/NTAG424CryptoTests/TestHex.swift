import NTAG424Crypto

/// The bytes of a hex literal in a test (spaces allowed); a typo fails loudly.
func hex(_ text: String) -> [UInt8] {
    guard let bytes = HexBytes.decode(text) else { fatalError("not hex: \(text)") }
    return bytes
}

/// A key from a hex literal in a test.
func key(_ text: String) -> AES128Key {
    do { return try AES128Key(hex: text) } catch { fatalError("not a key: \(text)") }
}

import CryptoSupport

/// Two-key triple DES in CBC mode without padding, as the MIFARE Ultralight C uses it
/// for its mutual authentication (MF0ICU2 §7.5.5).
///
/// ```swift
/// let cipher = UltralightCCipher(key: ChipTables.spec(for: .ultralightC).ultralightCAuthentication!.defaultKey)
/// cipher.encrypt([0x51, 0xE7, 0x64, 0x60, 0x26, 0x78, 0xDF, 0x2B], iv: [UInt8](repeating: 0, count: 8))
/// // 57 72 93 FD 2F 34 CA 51 (the data sheet's ek(RndB))
/// ```
struct UltralightCCipher: Sendable {
    /// The 16-byte key K0..K15 (cipher order, not page order).
    let key: [UInt8]

    /// Encrypts whole 8-byte blocks.
    func encrypt(_ data: [UInt8], iv: [UInt8]) -> [UInt8] { run(data, iv: iv, encrypting: true) }

    /// Decrypts whole 8-byte blocks.
    func decrypt(_ data: [UInt8], iv: [UInt8]) -> [UInt8] { run(data, iv: iv, encrypting: false) }

    private func run(_ data: [UInt8], iv: [UInt8], encrypting: Bool) -> [UInt8] {
        precondition(
            key.count == 16 && iv.count == 8 && data.count % 8 == 0,
            "2-key 3DES-CBC takes a 16-byte key, an 8-byte IV and whole blocks")
        guard let output = LibCrypto.cbc("DES-EDE-CBC", encrypt: encrypting, key: key, iv: iv, data: data) else {
            preconditionFailure("libcrypto 2-key 3DES-CBC failed")
        }
        return output
    }
}

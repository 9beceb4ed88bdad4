import CLibCrypto

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
        precondition(key.count == 16 && iv.count == 8 && data.count % 8 == 0, "2-key 3DES-CBC takes a 16-byte key, an 8-byte IV and whole blocks")
        guard let context = EVP_CIPHER_CTX_new() else { preconditionFailure("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        var out = [UInt8](repeating: 0, count: data.count + 8)
        var written: Int32 = 0, final: Int32 = 0
        let ok = EVP_CipherInit_ex(context, EVP_des_ede_cbc(), nil, key, iv, encrypting ? 1 : 0) == 1
            && EVP_CIPHER_CTX_set_padding(context, 0) == 1
            && EVP_CipherUpdate(context, &out, &written, data, Int32(data.count)) == 1
            && out.withUnsafeMutableBufferPointer { EVP_CipherFinal_ex(context, $0.baseAddress! + Int(written), &final) } == 1
        guard ok else { preconditionFailure("libcrypto 2-key 3DES-CBC failed") }
        return Array(out.prefix(Int(written + final)))
    }
}

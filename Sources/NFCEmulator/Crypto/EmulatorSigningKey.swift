import CLibCrypto
import NFCChips

/// The emulator's own originality-signature key: ECDSA on the curve the tables name for
/// NXP signatures (secp128r1), over the raw 7-byte UID, signature r ‖ s.
///
/// It is a published test key, not NXP's: a signature it makes verifies only with
/// ``publicKey``, never with the keys in ``NFCChips/ChipTables/originalitySignatures``,
/// so a reader that checks against NXP's key sees an emulated tag for what it is.
///
/// ```swift
/// let signature = EmulatorSigningKey.sign(uid: [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80])  // 32 bytes
/// print(EmulatorSigningKey.publicKey.count)   // 33: 04 ‖ X ‖ Y
/// ```
public enum EmulatorSigningKey {
    /// The uncompressed public point `04 ‖ X ‖ Y` (33 bytes on secp128r1).
    public static var publicKey: [UInt8] { key.publicKey }

    /// Signs `uid` (used as the ECDSA message integer as is, without hashing) and returns
    /// r ‖ s, each padded to half the table's signature length. Every call draws a new
    /// nonce, so two signatures of one UID differ; both verify.
    public static func sign(uid: [UInt8]) -> [UInt8] { key.sign(uid) }

    /// The key of the NTAG 424 DNA originality signature: ECDSA on secp224r1, same rules
    /// (the raw 7-byte UID as the message), a 56-byte r ‖ s.
    public static var ntag424PublicKey: [UInt8] { key224.publicKey }

    /// Signs `uid` with the secp224r1 test key (56 bytes r ‖ s); see ``sign(uid:)``.
    public static func signNTAG424(uid: [UInt8]) -> [UInt8] { key224.sign(uid) }

    private static let key = OpenSSLSigningKey(der: OpenSSLSigningKey.secp128r1, signatureLength: ChipTables.originalitySignatures.signatureLength)
    private static let key224 = OpenSSLSigningKey(der: OpenSSLSigningKey.secp224r1, signatureLength: NTAG424DNATable.signatureLength)
}

/// The OpenSSL side of ``EmulatorSigningKey``: an `EVP_PKEY` loaded once from the test
/// key's SEC1 DER, used read-only afterwards (each signature gets its own context), which
/// makes sharing it between threads sound.
private final class OpenSSLSigningKey: @unchecked Sendable {
    /// SEC1 `ECPrivateKey` of the Type 2 test key on secp128r1 (private scalar and public point).
    /// Generated for this project with `openssl ecparam -name secp128r1 -genkey`.
    static let secp128r1: [UInt8] = [
        0x30, 0x44, 0x02, 0x01, 0x01, 0x04, 0x10, 0xC5, 0x60, 0x24, 0x36, 0x5C, 0x5B, 0xCE, 0xDE, 0x28,
        0x60, 0x16, 0x97, 0x23, 0xC3, 0x0C, 0x46, 0xA0, 0x07, 0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x1C,
        0xA1, 0x24, 0x03, 0x22, 0x00, 0x04, 0x92, 0xC4, 0xA7, 0x9A, 0xDA, 0xAB, 0x9F, 0x54, 0x4A, 0x7F,
        0xE9, 0x72, 0x0E, 0x29, 0xF6, 0xA1, 0xBC, 0xB7, 0x6B, 0xF0, 0xA2, 0xC5, 0x54, 0x98, 0x71, 0x60,
        0x2E, 0x80, 0x8E, 0x8C, 0xB4, 0xAD,
    ]

    /// SEC1 `ECPrivateKey` of the NTAG 424 DNA test key on secp224r1, generated for this
    /// project with `openssl ecparam -name secp224r1 -genkey`.
    static let secp224r1: [UInt8] = [
        0x30, 0x68, 0x02, 0x01, 0x01, 0x04, 0x1C, 0xE7, 0x0A, 0x8C, 0xB0, 0xA3, 0x66, 0xD8, 0xBF, 0xEA,
        0x97, 0x03, 0xE6, 0xE5, 0x62, 0xAF, 0x9D, 0xB4, 0xB8, 0x21, 0x15, 0xF6, 0x28, 0xB2, 0x0E, 0xB9,
        0x97, 0x62, 0x42, 0xA0, 0x07, 0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x21, 0xA1, 0x3C, 0x03, 0x3A,
        0x00, 0x04, 0xBF, 0xB6, 0x77, 0xEA, 0x5E, 0xC6, 0xCB, 0x6D, 0x52, 0x3A, 0x69, 0x57, 0x9C, 0x27,
        0x0C, 0xC3, 0xE8, 0xA3, 0xB5, 0xCF, 0xF9, 0xD7, 0xDB, 0xDD, 0xEB, 0xA6, 0xE2, 0xFA, 0xE0, 0xF2,
        0x33, 0x02, 0x71, 0xE7, 0x73, 0xF3, 0x9C, 0xED, 0x86, 0xAD, 0x37, 0xE0, 0x61, 0x8D, 0x02, 0xF5,
        0xF6, 0x58, 0x7F, 0x95, 0x11, 0xAB, 0xD9, 0x5B, 0x2C, 0xBC,
    ]

    private let pkey: OpaquePointer
    private let signatureLength: Int
    let publicKey: [UInt8]

    init(der: [UInt8], signatureLength: Int) {
        self.signatureLength = signatureLength
        let loaded: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PrivateKey(EVP_PKEY_EC, nil, &cursor, buffer.count)
        }
        guard let loaded else { preconditionFailure("libcrypto rejected the emulator's test key") }
        pkey = loaded
        var point: UnsafeMutablePointer<UInt8>?
        let length = EVP_PKEY_get1_encoded_public_key(loaded, &point)
        guard length > 0, let point else { preconditionFailure("libcrypto gave no public point for the test key") }
        publicKey = Array(UnsafeBufferPointer(start: point, count: length))
        CRYPTO_free(point, #fileID, #line)
    }

    deinit { EVP_PKEY_free(pkey) }

    func sign(_ message: [UInt8]) -> [UInt8] {
        let half = signatureLength / 2
        guard let context = EVP_PKEY_CTX_new(pkey, nil) else { preconditionFailure("EVP_PKEY_CTX_new failed") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_sign_init(context) == 1 else { preconditionFailure("EVP_PKEY_sign_init failed") }
        var length = 0
        guard EVP_PKEY_sign(context, nil, &length, message, message.count) == 1 else { preconditionFailure("EVP_PKEY_sign failed") }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_sign(context, &der, &length, message, message.count) == 1 else { preconditionFailure("EVP_PKEY_sign failed") }
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, length)
        }
        guard let signature else { preconditionFailure("libcrypto produced an unreadable signature") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?, s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var out = [UInt8](repeating: 0, count: 2 * half)
        out.withUnsafeMutableBufferPointer { buffer in
            _ = BN_bn2binpad(r, buffer.baseAddress, Int32(half))
            _ = BN_bn2binpad(s, buffer.baseAddress! + half, Int32(half))
        }
        return out
    }
}

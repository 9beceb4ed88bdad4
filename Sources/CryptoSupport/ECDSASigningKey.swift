internal import CLibCrypto

/// An ECDSA private key, loaded once from its SEC1 DER (`ECPrivateKey`) and used read-only
/// afterwards (each signature gets its own context), so sharing it between threads is sound.
/// The emulator signs its tags' originality signatures with published test keys through it.
///
/// ```swift
/// let key = ECDSASigningKey(sec1DER: der, signatureLength: 32)
/// let signature = key.sign(uid)      // r ‖ s, 16 bytes each
/// ```
package final class ECDSASigningKey: @unchecked Sendable {
    private let pkey: OpaquePointer
    private let signatureLength: Int
    /// The uncompressed public point `04 ‖ X ‖ Y`.
    package let publicKey: [UInt8]

    /// The key in `der`; a key libcrypto rejects is a programming error (the keys are
    /// constants of the caller).
    package init(sec1DER der: [UInt8], signatureLength: Int) {
        self.signatureLength = signatureLength
        let loaded: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PrivateKey(EVP_PKEY_EC, nil, &cursor, buffer.count)
        }
        guard let loaded else { preconditionFailure("libcrypto rejected the ECDSA key") }
        pkey = loaded
        var point: UnsafeMutablePointer<UInt8>?
        let length = EVP_PKEY_get1_encoded_public_key(loaded, &point)
        guard length > 0, let point else { preconditionFailure("libcrypto gave no public point for the key") }
        publicKey = Array(UnsafeBufferPointer(start: point, count: length))
        CRYPTO_free(point, #fileID, #line)
    }

    deinit { EVP_PKEY_free(pkey) }

    /// Signs `message` (used as the ECDSA message integer as is, without hashing) and
    /// returns r ‖ s, each padded to half the signature length. Every call draws a new
    /// nonce, so two signatures of one message differ; both verify.
    package func sign(_ message: [UInt8]) -> [UInt8] {
        let half = signatureLength / 2
        guard let context = EVP_PKEY_CTX_new(pkey, nil) else { preconditionFailure("EVP_PKEY_CTX_new failed") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_sign_init(context) == 1 else { preconditionFailure("EVP_PKEY_sign_init failed") }
        var length = 0
        guard EVP_PKEY_sign(context, nil, &length, message, message.count) == 1 else {
            preconditionFailure("EVP_PKEY_sign failed")
        }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_sign(context, &der, &length, message, message.count) == 1 else {
            preconditionFailure("EVP_PKEY_sign failed")
        }
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, length)
        }
        guard let signature else { preconditionFailure("libcrypto produced an unreadable signature") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var out = [UInt8](repeating: 0, count: 2 * half)
        out.withUnsafeMutableBufferPointer { buffer in
            _ = BN_bn2binpad(r, buffer.baseAddress, Int32(half))
            _ = BN_bn2binpad(s, buffer.baseAddress! + half, Int32(half))
        }
        return out
    }
}

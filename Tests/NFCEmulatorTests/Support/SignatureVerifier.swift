import CLibCrypto

/// Verifies an originality signature (secp128r1, raw UID, r ‖ s) with libcrypto, apart
/// from the emulator's signing code: the public key goes in as bare point bytes.
enum SignatureVerifier {
    static func verify(signature: [UInt8], uid: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == 32, let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { return false }
        defer { EVP_PKEY_CTX_free(context) }
        var pkey: OpaquePointer?
        let built: Bool = "group".withCString { groupKey in
            "secp128r1".withCString { group in
                "pub".withCString { pubKey in
                    var point = publicKey
                    return point.withUnsafeMutableBytes { pointBytes in
                        var params = [
                            OSSL_PARAM_construct_utf8_string(groupKey, UnsafeMutablePointer(mutating: group), 0),
                            OSSL_PARAM_construct_octet_string(pubKey, pointBytes.baseAddress, pointBytes.count),
                            OSSL_PARAM_construct_end(),
                        ]
                        // EVP_PKEY_PUBLIC_KEY: all parameters (0x84) and the public key (0x02).
                        return EVP_PKEY_fromdata_init(context) == 1
                            && EVP_PKEY_fromdata(context, &pkey, 0x86, &params) == 1
                    }
                }
            }
        }
        guard built, let pkey else { return false }
        defer { EVP_PKEY_free(pkey) }
        guard let ecdsa = ECDSA_SIG_new() else { return false }
        defer { ECDSA_SIG_free(ecdsa) }
        let r = BN_bin2bn(signature, 16, nil)
        let s = BN_bin2bn(Array(signature.suffix(16)), 16, nil)
        guard ECDSA_SIG_set0(ecdsa, r, s) == 1 else { return false }
        var der: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(ecdsa, &der)
        guard length > 0, let der else { return false }
        defer { CRYPTO_free(der, #fileID, #line) }
        guard let verifier = EVP_PKEY_CTX_new(pkey, nil) else { return false }
        defer { EVP_PKEY_CTX_free(verifier) }
        return EVP_PKEY_verify_init(verifier) == 1 && EVP_PKEY_verify(verifier, der, Int(length), uid, uid.count) == 1
    }
}

import CLibCrypto

/// The only door to OpenSSL's libcrypto: ECDSA verification on a named curve (originality
/// signatures), a CBC block cipher without padding (Ultralight C 3DES) and HMAC-SHA256
/// (per-tag passwords). Everything else in `NFCTags` stays free of C.
enum LibCrypto {
    /// The outcome of an ECDSA check.
    enum Verification: Equatable {
        case valid
        case invalid
        /// The key is not a point on the curve, or the curve is unknown to OpenSSL.
        case unusableKey
    }

    /// Verifies `signature` (r ‖ s, two big-endian halves) over `digest`, used as is (the
    /// NXP originality signature signs the raw UID, no hash).
    static func verifyECDSA(curve: String, publicKey: [UInt8], digest: [UInt8], signature: [UInt8]) -> Verification {
        guard !publicKey.isEmpty, !digest.isEmpty, !signature.isEmpty, signature.count.isMultiple(of: 2) else { return .invalid }
        let result = curve.withCString { curveName in
            publicKey.withUnsafeBufferPointer { key in
                digest.withUnsafeBufferPointer { message in
                    signature.withUnsafeBufferPointer { sig in
                        nfctagkit_ecdsa_verify_prehashed(curveName, key.baseAddress, key.count, message.baseAddress, message.count,
                                                         sig.baseAddress, sig.count / 2)
                    }
                }
            }
        }
        switch result {
        case 1: return .valid
        case 0: return .invalid
        default: return .unusableKey
        }
    }

    /// Encrypts or decrypts `data` (a whole number of blocks) with `cipher` in CBC mode,
    /// no padding; `nil` when OpenSSL refuses (unknown cipher, wrong key or IV length).
    static func cbc(_ cipher: String, encrypt: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) -> [UInt8]? {
        guard !data.isEmpty else { return [] }
        var output = [UInt8](repeating: 0, count: data.count)
        let ok = cipher.withCString { name in
            key.withUnsafeBufferPointer { keyBytes in
                iv.withUnsafeBufferPointer { ivBytes in
                    data.withUnsafeBufferPointer { input in
                        output.withUnsafeMutableBufferPointer { out in
                            nfctagkit_cipher_cbc(name, encrypt ? 1 : 0, keyBytes.baseAddress, ivBytes.baseAddress,
                                                 input.baseAddress, input.count, out.baseAddress)
                        }
                    }
                }
            }
        }
        return ok == 1 ? output : nil
    }

    /// HMAC-SHA256 of `message` under `key` (RFC 2104, FIPS 180-4): 32 bytes, or `nil`
    /// when OpenSSL refuses.
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: 32)
        var length = 0
        let result = key.withUnsafeBufferPointer { keyBytes in
            message.withUnsafeBufferPointer { data in
                output.withUnsafeMutableBufferPointer { out in
                    // A zero-length key still needs a valid pointer.
                    withUnsafeBytes(of: UInt8(0)) { empty in
                        EVP_Q_mac(nil, "HMAC", nil, "SHA256", nil, keyBytes.baseAddress.map(UnsafeRawPointer.init) ?? empty.baseAddress,
                                  keyBytes.count, data.baseAddress, data.count, out.baseAddress, out.count, &length)
                    }
                }
            }
        }
        return result != nil && length == output.count ? output : nil
    }
}

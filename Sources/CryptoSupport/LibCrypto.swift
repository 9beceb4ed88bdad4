internal import CLibCrypto

/// The only door to OpenSSL's libcrypto: ECDSA verification on a named curve (originality
/// signatures), block ciphers without padding (Ultralight C 3DES, NTAG 424 DNA AES-128 in
/// ECB and CBC), AES-CMAC and HMAC-SHA256 (per-tag passwords), and for the emulator's test
/// keys ECDSA signing (``ECDSASigningKey``). `NTAG424Crypto`, `NFCTags` and `NFCEmulator`
/// reach it through `package` access and stay free of C.
package enum LibCrypto {
    /// The outcome of an ECDSA check.
    package enum Verification: Equatable, Sendable {
        case valid
        case invalid
        /// The key is not a point on the curve, or the curve is unknown to OpenSSL.
        case unusableKey
    }

    /// Verifies `signature` (r ‖ s, two big-endian halves) over `digest`, used as is (the
    /// NXP originality signature signs the raw UID, no hash).
    package static func verifyECDSA(curve: String, publicKey: [UInt8], digest: [UInt8], signature: [UInt8])
        -> Verification
    {
        guard !publicKey.isEmpty, !digest.isEmpty, !signature.isEmpty, signature.count.isMultiple(of: 2) else {
            return .invalid
        }
        let result = curve.withCString { curveName in
            publicKey.withUnsafeBufferPointer { key in
                digest.withUnsafeBufferPointer { message in
                    signature.withUnsafeBufferPointer { sig in
                        nfctagkit_ecdsa_verify_prehashed(
                            curveName, key.baseAddress, key.count, message.baseAddress, message.count,
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
    package static func cbc(_ cipher: String, encrypt: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) -> [UInt8]? {
        block(cipher, encrypt: encrypt, key: key, iv: iv, data: data)
    }

    /// Encrypts or decrypts `data` (a whole number of blocks) with the named EVP cipher
    /// (`"AES-128-ECB"`, `"AES-128-CBC"`, `"DES-EDE-CBC"`, …), no padding; `iv` is ignored
    /// by ECB and may be empty there. `nil` when OpenSSL refuses.
    package static func block(_ cipher: String, encrypt: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) -> [UInt8]? {
        guard !data.isEmpty else { return [] }
        var output = [UInt8](repeating: 0, count: data.count)
        let ok = cipher.withCString { name in
            key.withUnsafeBufferPointer { keyBytes in
                iv.withUnsafeBufferPointer { ivBytes in
                    data.withUnsafeBufferPointer { input in
                        output.withUnsafeMutableBufferPointer { out in
                            nfctagkit_cipher_cbc(
                                name, encrypt ? 1 : 0, keyBytes.baseAddress, ivBytes.baseAddress,
                                input.baseAddress, input.count, out.baseAddress)
                        }
                    }
                }
            }
        }
        return ok == 1 ? output : nil
    }

    /// AES-CMAC (NIST SP 800-38B, RFC 4493) of `message` under `key` through EVP_MAC
    /// "CMAC" with the AES-128-CBC sub-cipher: 16 bytes, or `nil` when OpenSSL refuses.
    package static func aesCMAC(key: [UInt8], message: [UInt8]) -> [UInt8]? {
        mac("CMAC", subAlgorithm: "AES-128-CBC", key: key, message: message, length: 16)
    }

    /// CMAC (NIST SP 800-38B) of `message` under `key` with the named CBC sub-cipher
    /// (`"DES-EDE3-CBC"`, `"AES-128-CBC"`): `length` bytes (the block size), or `nil` when
    /// OpenSSL refuses.
    package static func cmac(subAlgorithm: String, key: [UInt8], message: [UInt8], length: Int) -> [UInt8]? {
        mac("CMAC", subAlgorithm: subAlgorithm, key: key, message: message, length: length)
    }

    /// HMAC-SHA256 of `message` under `key` (RFC 2104, FIPS 180-4): 32 bytes, or `nil`
    /// when OpenSSL refuses.
    package static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8]? {
        mac("HMAC", subAlgorithm: "SHA256", key: key, message: message, length: 32)
    }

    private static func mac(_ name: String, subAlgorithm: String, key: [UInt8], message: [UInt8], length expected: Int)
        -> [UInt8]?
    {
        var output = [UInt8](repeating: 0, count: expected)
        var length = 0
        let result = key.withUnsafeBufferPointer { keyBytes in
            message.withUnsafeBufferPointer { data in
                output.withUnsafeMutableBufferPointer { out in
                    // A zero-length key or message still needs a valid pointer.
                    withUnsafePointer(to: UInt8(0)) { empty in
                        EVP_Q_mac(
                            nil, name, nil, subAlgorithm, nil,
                            UnsafeRawPointer(keyBytes.baseAddress ?? empty), keyBytes.count,
                            data.baseAddress ?? empty, data.count,
                            out.baseAddress, out.count, &length)
                    }
                }
            }
        }
        return result != nil && length == expected ? output : nil
    }
}

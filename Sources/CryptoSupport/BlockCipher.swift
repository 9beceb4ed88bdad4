/// The four block ciphers of MIFARE DESFire keys, computed by libcrypto: encryption and
/// decryption in CBC mode without padding, and CMAC (NIST SP 800-38B) with the cipher's
/// own block size.
///
/// Single DES runs as two-key triple DES with equal halves (`K ‖ K`), which gives the same
/// result and needs no OpenSSL legacy provider; 2K3DES runs as `K1 ‖ K2 ‖ K1` where a
/// three-key form is needed (CMAC).
///
/// ```swift
/// let cipher = BlockCipher.aes128
/// let sealed = cipher.encrypt(key: key, iv: [UInt8](repeating: 0, count: 16), data)
/// let mac = cipher.cmac(key: key, message)         // 16 bytes
/// ```
package enum BlockCipher: String, CaseIterable, Sendable {
    /// DES, an 8-byte key.
    case des
    /// Two-key triple DES, a 16-byte key.
    case tdea2
    /// Three-key triple DES, a 24-byte key.
    case tdea3
    /// AES-128, a 16-byte key.
    case aes128

    /// The key length in bytes.
    package var keyLength: Int {
        switch self {
        case .des: 8
        case .tdea2, .aes128: 16
        case .tdea3: 24
        }
    }

    /// The block size in bytes (8 for the DES family, 16 for AES).
    package var blockSize: Int { self == .aes128 ? 16 : 8 }

    /// Encrypts whole blocks in CBC mode from `iv` (`iv` is a block long).
    package func encrypt(key: [UInt8], iv: [UInt8], _ data: [UInt8]) -> [UInt8] {
        run(encrypting: true, key: key, iv: iv, data)
    }

    /// Decrypts whole blocks in CBC mode from `iv`.
    package func decrypt(key: [UInt8], iv: [UInt8], _ data: [UInt8]) -> [UInt8] {
        run(encrypting: false, key: key, iv: iv, data)
    }

    /// The CMAC of `message`: a whole block (8 or 16 bytes).
    package func cmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        precondition(key.count == keyLength, "a \(rawValue) key has \(keyLength) bytes, not \(key.count)")
        let (name, expanded): (String, [UInt8]) =
            switch self {
            case .des: ("DES-EDE3-CBC", key + key + key)
            case .tdea2: ("DES-EDE3-CBC", key + key.prefix(8))
            case .tdea3: ("DES-EDE3-CBC", key)
            case .aes128: ("AES-128-CBC", key)
            }
        guard let mac = LibCrypto.cmac(subAlgorithm: name, key: expanded, message: message, length: blockSize) else {
            preconditionFailure("libcrypto CMAC with \(name) failed")
        }
        return mac
    }

    private func run(encrypting: Bool, key: [UInt8], iv: [UInt8], _ data: [UInt8]) -> [UInt8] {
        precondition(key.count == keyLength, "a \(rawValue) key has \(keyLength) bytes, not \(key.count)")
        precondition(
            iv.count == blockSize && data.count.isMultiple(of: blockSize),
            "\(rawValue) CBC takes a \(blockSize)-byte IV and whole blocks")
        let (name, expanded): (String, [UInt8]) =
            switch self {
            case .des: ("DES-EDE-CBC", key + key)
            case .tdea2: ("DES-EDE-CBC", key)
            case .tdea3: ("DES-EDE3-CBC", key)
            case .aes128: ("AES-128-CBC", key)
            }
        guard let output = LibCrypto.cbc(name, encrypt: encrypting, key: expanded, iv: iv, data: data) else {
            preconditionFailure("libcrypto \(name) failed")
        }
        return output
    }
}

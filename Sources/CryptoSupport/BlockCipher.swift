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

    /// CMAC chained from `iv` instead of zeros, as DESFire EV1 secure messaging runs it:
    /// the subkeys of NIST SP 800-38B, the message padded and masked as there, then CBC from
    /// `iv`. With a zero `iv` it is ``cmac(key:_:)``.
    package func cmac(key: [UInt8], iv: [UInt8], _ message: [UInt8]) -> [UInt8] {
        let zero = [UInt8](repeating: 0, count: blockSize)
        let rb: UInt8 = blockSize == 16 ? 0x87 : 0x1B
        let k1 = Self.doubled(encrypt(key: key, iv: zero, zero), rb: rb)
        let k2 = Self.doubled(k1, rb: rb)
        var padded = message
        let mask: [UInt8]
        if !message.isEmpty, message.count.isMultiple(of: blockSize) {
            mask = k1
        } else {
            padded.append(0x80)
            while !padded.count.isMultiple(of: blockSize) { padded.append(0) }
            mask = k2
        }
        let last = padded.count - blockSize
        for index in 0..<blockSize { padded[last + index] ^= mask[index] }
        return Array(encrypt(key: key, iv: iv, padded).suffix(blockSize))
    }

    /// `block` shifted left by one bit, XORed with `rb` when its top bit was set.
    private static func doubled(_ block: [UInt8], rb: UInt8) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: block.count)
        for index in block.indices {
            let next = index + 1 < block.count ? block[index + 1] >> 7 : 0
            out[index] = block[index] << 1 | next
        }
        if block[0] & 0x80 != 0 { out[block.count - 1] ^= rb }
        return out
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

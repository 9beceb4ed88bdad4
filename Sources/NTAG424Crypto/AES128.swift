internal import CryptoSupport

/// AES-128 as NTAG 424 DNA uses it, computed by libcrypto (EVP): ECB and CBC without padding,
/// AES-CMAC, the truncated MAC of the datasheet and ISO/IEC 9797-1 padding method 2.
///
/// ```swift
/// let mac = try AES128.cmac(key: .zero, [])                 // 16 bytes
/// let macT = AES128.truncatedMAC(mac)                        // bytes 1, 3, …, 15
/// let sealed = try AES128.encryptCBC(key: k, iv: iv, AES128.pad(data))
/// ```
package enum AES128 {
    /// The AES block size, 16 bytes.
    package static let blockSize = 16

    /// Encrypts whole blocks in ECB mode (no padding).
    package static func encryptECB(key: AES128Key, _ data: [UInt8]) throws(NTAG424CryptoError) -> [UInt8] {
        try run("AES-128-ECB", encrypt: true, key: key, iv: [], data)
    }

    /// Decrypts whole blocks in ECB mode (no padding).
    package static func decryptECB(key: AES128Key, _ data: [UInt8]) throws(NTAG424CryptoError) -> [UInt8] {
        try run("AES-128-ECB", encrypt: false, key: key, iv: [], data)
    }

    /// Encrypts whole blocks in CBC mode with the 16-byte `iv` (no padding).
    package static func encryptCBC(key: AES128Key, iv: [UInt8], _ data: [UInt8]) throws(NTAG424CryptoError) -> [UInt8] {
        try run("AES-128-CBC", encrypt: true, key: key, iv: iv, data)
    }

    /// Decrypts whole blocks in CBC mode with the 16-byte `iv` (no padding).
    package static func decryptCBC(key: AES128Key, iv: [UInt8], _ data: [UInt8]) throws(NTAG424CryptoError) -> [UInt8] {
        try run("AES-128-CBC", encrypt: false, key: key, iv: iv, data)
    }

    /// AES-CMAC (NIST SP 800-38B, RFC 4493) of `message`: 16 bytes.
    package static func cmac(key: AES128Key, _ message: [UInt8]) throws(NTAG424CryptoError) -> [UInt8] {
        guard let mac = LibCrypto.aesCMAC(key: key.bytes, message: message) else {
            throw .cryptoUnavailable("EVP_MAC CMAC with AES-128-CBC")
        }
        return mac
    }

    /// The MAC NTAG 424 DNA sends, MACt: the 8 odd-numbered bytes (1, 3, …, 15, counting
    /// from 0) of a 16-byte CMAC (NT4H2421Gx §9.1.3).
    package static func truncatedMAC(_ cmac: [UInt8]) -> [UInt8] {
        stride(from: 1, to: cmac.count, by: 2).map { cmac[$0] }
    }

    /// CMAC then truncation: the 8-byte MACt of `message`.
    package static func truncatedCMAC(key: AES128Key, _ message: [UInt8]) throws(NTAG424CryptoError) -> [UInt8] {
        truncatedMAC(try cmac(key: key, message))
    }

    /// ISO/IEC 9797-1 padding method 2: `80` then zeros up to the next multiple of 16 — always
    /// at least one byte, so a whole block gains a whole block (NT4H2421Gx §9.1.4).
    package static func pad(_ data: [UInt8]) -> [UInt8] {
        var padded = data + [0x80]
        while !padded.count.isMultiple(of: blockSize) { padded.append(0) }
        return padded
    }

    /// Removes ISO/IEC 9797-1 method 2 padding: trailing zeros and the `80` before them
    /// (at most one block); ``NTAG424CryptoError/malformed(_:)`` when there is none.
    package static func unpad(_ data: [UInt8]) throws(NTAG424CryptoError) -> [UInt8] {
        var end = data.count
        while end > 0, data[end - 1] == 0, data.count - end < blockSize { end -= 1 }
        guard end > 0, data[end - 1] == 0x80, data.count - end < blockSize else {
            throw .malformed("no ISO/IEC 9797-1 method 2 padding")
        }
        return Array(data[..<(end - 1)])
    }

    /// `a` XOR `b`, as long as the shorter of the two.
    static func xor(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        zip(a, b).map { $0 ^ $1 }
    }

    private static func run(_ cipher: String, encrypt: Bool, key: AES128Key, iv: [UInt8], _ data: [UInt8])
        throws(NTAG424CryptoError) -> [UInt8]
    {
        guard data.count.isMultiple(of: blockSize) else {
            throw .malformed("\(data.count) bytes is not a whole number of 16-byte AES blocks")
        }
        if cipher.hasSuffix("CBC"), iv.count != blockSize {
            throw .malformed("a CBC IV has 16 bytes, not \(iv.count)")
        }
        guard let output = LibCrypto.block(cipher, encrypt: encrypt, key: key.bytes, iv: iv, data: data) else {
            throw .cryptoUnavailable(cipher)
        }
        return output
    }
}

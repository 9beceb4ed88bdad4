internal import CryptoSupport
import NTAG424Crypto

/// A MIFARE DESFire key: its cipher, its bytes and its version.
///
/// DES and 2K3DES keys authenticate with the legacy command (`0A`) or the ISO one (`1A`),
/// 3K3DES keys with the ISO one, AES keys with `AA` or EV2First. A DES or 3DES key's version
/// travels in the parity bits of its first 8 bytes, an AES key's in a byte of its own.
///
/// ```swift
/// let key = DESFireKey(cipher: .aes, bytes: [UInt8](repeating: 0x11, count: 16), version: 1)!
/// try await desfire.authenticate(keyNumber: 0, key: .factoryDefault)
/// ```
public struct DESFireKey: Sendable, Hashable, CustomStringConvertible {
    /// The cipher of a key.
    @nonexhaustive
    public enum Cipher: Sendable {
        /// DES, 8 bytes.
        case des
        /// Two-key triple DES, 16 bytes.
        case tdea2
        /// Three-key triple DES, 24 bytes.
        case tdea3
        /// AES-128, 16 bytes.
        case aes

        /// Every cipher.
        package static let all: [Cipher] = [.des, .tdea2, .tdea3, .aes]

        /// The name `nfctag` takes (`des`, `2k3des`, `3k3des`, `aes`).
        package var name: String {
            switch self {
            case .des: "des"
            case .tdea2: "2k3des"
            case .tdea3: "3k3des"
            case .aes: "aes"
            }
        }

        /// The key length in bytes.
        package var keyLength: Int { blockCipher.keyLength }

        /// The libcrypto cipher.
        var blockCipher: BlockCipher {
            switch self {
            case .des: .des
            case .tdea2: .tdea2
            case .tdea3: .tdea3
            case .aes: .aes128
            }
        }
    }

    /// The cipher.
    package let cipher: Cipher
    /// The key bytes (8, 16, 24 or 16).
    package let bytes: [UInt8]
    /// The key version (0 for a factory key).
    package let version: UInt8

    /// A key, or `nil` when `bytes` is not as long as `cipher` needs.
    public init?(cipher: Cipher, bytes: [UInt8], version: UInt8 = 0) {
        guard bytes.count == cipher.keyLength else { return nil }
        self.cipher = cipher
        self.bytes = bytes
        self.version = version
    }

    /// A key from hex digits, or `nil`.
    package init?(cipher: Cipher, hex: String, version: UInt8 = 0) {
        guard let bytes = HexBytes.decode(hex) else { return nil }
        self.init(cipher: cipher, bytes: bytes, version: version)
    }

    /// The key of a factory-fresh card: DES, all zero, version 0.
    public static let factoryDefault = DESFireKey(uncheckedCipher: .des, bytes: [UInt8](repeating: 0, count: 8))

    /// Names the key without showing it: keys end up in logs.
    public var description: String {
        isFactoryDefault
            ? "the factory DES key"
            : "\(cipher == .aes ? "an" : "a") \(cipher.name.uppercased()) key (version \(version))"
    }

    /// Whether this is the factory key (DES, all zero, version 0).
    package var isFactoryDefault: Bool { cipher == .des && bytes.allSatisfy { $0 == 0 } && version == 0 }

    /// The bytes as ChangeKey sends them: a DES key doubled to 16 bytes, the version in the
    /// parity bits (bit 0) of the first 8 bytes of a DES or 3DES key; an AES key as is.
    var changeKeyBytes: [UInt8] {
        var out = cipher == .des ? bytes + bytes : bytes
        guard cipher != .aes else { return out }
        for index in 0..<8 {
            let bit = (version >> (7 - index)) & 1
            out[index] = out[index] & 0xFE | bit
        }
        if cipher == .des {
            for index in 8..<16 { out[index] = out[index - 8] }
        }
        return out
    }

    /// Whether the two halves of a 2K3DES key are equal (it is then a DES key).
    var isSingleDES: Bool {
        switch cipher {
        case .des: true
        case .tdea2: bytes.prefix(8).elementsEqual(bytes.suffix(8)) { $0 & 0xFE == $1 & 0xFE }
        case .tdea3, .aes: false
        }
    }

    private init(uncheckedCipher: Cipher, bytes: [UInt8]) {
        cipher = uncheckedCipher
        self.bytes = bytes
        version = 0
    }
}

import CryptoSupport
import NFCChips

/// A key as a DESFire card stores it: its kind, its bytes and its version.
struct DESFireKey: Codable, Equatable, Sendable {
    /// The three key kinds an application is created with.
    enum Kind: Codable, Equatable, Sendable {
        /// 16 bytes: 2K3DES, or single DES when both halves are equal.
        case tripleDES
        /// 24 bytes: 3K3DES.
        case threeKeyTripleDES
        /// 16 bytes: AES-128, with a separate version byte.
        case aes

        /// The kind the key-count byte (or a PICC ChangeKey's key number) names.
        init?(flags: UInt8) {
            let settings = ChipTables.desfire.keySettings
            switch (flags & settings.threeKeyTDEA != 0, flags & settings.aes != 0) {
            case (false, false): self = .tripleDES
            case (true, false): self = .threeKeyTripleDES
            case (false, true): self = .aes
            case (true, true): return nil
            }
        }

        /// The flag of this kind in the key-count byte.
        var flag: UInt8 {
            let settings = ChipTables.desfire.keySettings
            return switch self {
            case .tripleDES: 0
            case .threeKeyTripleDES: settings.threeKeyTDEA
            case .aes: settings.aes
            }
        }

        /// How many bytes the card stores (and ChangeKey carries).
        var length: Int {
            switch self {
            case .tripleDES: BlockCipher.tdea2.keyLength
            case .threeKeyTripleDES: BlockCipher.tdea3.keyLength
            case .aes: BlockCipher.aes128.keyLength
            }
        }
    }

    var kind: Kind
    var bytes: [UInt8]
    var version: UInt8

    /// The all-zero key of `kind`, version 0.
    static func zero(_ kind: Kind) -> DESFireKey {
        DESFireKey(kind: kind, bytes: [UInt8](repeating: 0, count: kind.length), version: 0)
    }

    /// A key of `kind` with `bytes`; a DES-family key's version is read from its parity bits.
    static func make(_ kind: Kind, bytes: [UInt8], version: UInt8) -> DESFireKey {
        DESFireKey(kind: kind, bytes: bytes, version: kind == .aes ? version : parityVersion(bytes))
    }

    /// The cipher the card runs with this key: DES when a 2K3DES key's halves are equal.
    var cipher: (cipher: BlockCipher, key: [UInt8]) {
        switch kind {
        case .tripleDES:
            let half = BlockCipher.des.keyLength
            return bytes.prefix(half) == bytes.dropFirst(half) ? (.des, Array(bytes.prefix(half))) : (.tdea2, bytes)
        case .threeKeyTripleDES: return (.tdea3, bytes)
        case .aes: return (.aes128, bytes)
        }
    }

    /// The version a DES-family key carries in the least significant (parity) bits of its
    /// first 8 bytes, the first byte's bit being the version's most significant.
    static func parityVersion(_ bytes: [UInt8]) -> UInt8 {
        bytes.prefix(BlockCipher.des.keyLength).reduce(0) { $0 << 1 | $1 & 1 }
    }
}

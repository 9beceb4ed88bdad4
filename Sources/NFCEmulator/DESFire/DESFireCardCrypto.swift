import CryptoSupport
import NFCChips

/// The card's side of MIFARE DESFire cryptography — the D40 (legacy) cipher directions and
/// MAC, the EV1 CMAC with its running IV, session keys, CRCs and padding — written from the
/// published facts apart from any reader code. Only `BlockCipher`'s CBC and CMAC are used.
enum DESFireCardCrypto {
    /// A zero IV, one block of `cipher`.
    static func zeroIV(_ cipher: BlockCipher) -> [UInt8] { [UInt8](repeating: 0, count: cipher.blockSize) }

    /// E(K, block) of each block on its own (ECB through CBC with a zero IV, block by block).
    static func encryptBlocks(_ cipher: BlockCipher, key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        blocks(of: data, cipher).flatMap { cipher.encrypt(key: key, iv: zeroIV(cipher), $0) }
    }

    /// What a legacy (D40) card reads from a reader's cryptogram. The reader's "send mode"
    /// deciphers, c(i) = D(p(i) ⊕ c(i−1)) from a zero IV, so the card enciphers back:
    /// p(i) = E(c(i)) ⊕ c(i−1).
    static func legacyOpen(_ cipher: BlockCipher, key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        var previous = zeroIV(cipher)
        var plain: [UInt8] = []
        for block in blocks(of: data, cipher) {
            plain += xor(encryptBlocks(cipher, key: key, block), previous)
            previous = block
        }
        return plain
    }

    /// What a legacy card sends enciphered: CBC encryption from a zero IV (the reader deciphers
    /// it in its "receive mode").
    static func legacySeal(_ cipher: BlockCipher, key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        cipher.encrypt(key: key, iv: zeroIV(cipher), data)
    }

    /// The legacy MAC: CBC encryption of the zero-padded data from a zero IV, the first
    /// `legacyMACLength` bytes of the last block.
    static func legacyMAC(_ cipher: BlockCipher, key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        let sealed = legacySeal(cipher, key: key, zeroPadded(data, cipher))
        let last = sealed.suffix(cipher.blockSize)
        return Array(last.prefix(ChipTables.desfire.secureMessaging.legacyMACLength))
    }

    /// CMAC (NIST SP 800-38B) chained from `iv` as an EV1 session runs it: the subkey-masked,
    /// padded message in CBC from `iv`, the last block whole. With a zero IV it is the
    /// standard CMAC.
    static func cmac(_ cipher: BlockCipher, key: [UInt8], iv: [UInt8], _ message: [UInt8]) -> [UInt8] {
        let size = cipher.blockSize
        let (k1, k2) = subkeys(cipher, key: key)
        var padded = message
        let whole = !message.isEmpty && message.count % size == 0
        if !whole {
            padded.append(0x80)
            while padded.count % size != 0 { padded.append(0x00) }
        }
        let mask = whole ? k1 : k2
        for index in 0..<size { padded[padded.count - size + index] ^= mask[index] }
        return Array(cipher.encrypt(key: key, iv: iv, padded).suffix(size))
    }

    /// CMAC's subkeys K1 and K2 from L = E(K, 0): one left shift each, XORed with the block
    /// size's constant Rb (0x87 for 16-byte blocks, 0x1B for 8-byte) when the top bit falls out.
    static func subkeys(_ cipher: BlockCipher, key: [UInt8]) -> ([UInt8], [UInt8]) {
        let rb: UInt8 = cipher.blockSize == 16 ? 0x87 : 0x1B
        func double(_ block: [UInt8]) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: block.count)
            for index in block.indices {
                let next = index + 1 < block.count ? block[index + 1] >> 7 : 0
                out[index] = block[index] << 1 | next
            }
            if block[0] & 0x80 != 0 { out[out.count - 1] ^= rb }
            return out
        }
        let k1 = double(encryptBlocks(cipher, key: key, zeroIV(cipher)))
        return (k1, double(k1))
    }

    /// The session key of an authentication with RndA and RndB (libfreefare's and the data
    /// sheet's byte picks): DES A0–3 ‖ B0–3; 2K3DES A0–3 ‖ B0–3 ‖ A4–7 ‖ B4–7; 3K3DES A0–3 ‖
    /// B0–3 ‖ A6–9 ‖ B6–9 ‖ A12–15 ‖ B12–15; AES A0–3 ‖ B0–3 ‖ A12–15 ‖ B12–15.
    static func sessionKey(_ cipher: BlockCipher, rndA: [UInt8], rndB: [UInt8]) -> [UInt8] {
        let starts: [Int] =
            switch cipher {
            case .des: [0]
            case .tdea2: [0, 4]
            case .tdea3: [0, 6, 12]
            case .aes128: [0, 12]
            }
        return starts.flatMap { Array(rndA[$0..<($0 + 4)]) + Array(rndB[$0..<($0 + 4)]) }
    }

    /// The challenge length of an authentication: one block, two for 3K3DES.
    static func challengeLength(_ cipher: BlockCipher) -> Int {
        cipher == .tdea3 ? 2 * cipher.blockSize : cipher.blockSize
    }

    /// `bytes` rotated left by one byte: RndA′, RndB′.
    static func rotateLeft(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.dropFirst()) + bytes.prefix(1) }

    /// Bytewise XOR of two equally long arrays.
    static func xor(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { zip(a, b).map { $0 ^ $1 } }

    /// `data` with zeros up to whole blocks of `cipher` (nothing added to whole blocks).
    static func zeroPadded(_ data: [UInt8], _ cipher: BlockCipher) -> [UInt8] {
        var padded = data
        while padded.count % cipher.blockSize != 0 || padded.isEmpty { padded.append(0x00) }
        return padded
    }

    /// `data` with 80h, then zeros up to whole blocks of `cipher` (ISO/IEC 9797-1 method 2).
    static func isoPadded(_ data: [UInt8], _ cipher: BlockCipher) -> [UInt8] {
        var padded = data + [0x80]
        while padded.count % cipher.blockSize != 0 { padded.append(0x00) }
        return padded
    }

    /// Whether `bytes` is padding a card accepts after a CRC: zeros, or 80h then zeros.
    static func isPadding(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first else { return true }
        return (first == 0x00 || first == 0x80) && bytes.dropFirst().allSatisfy { $0 == 0x00 }
    }

    /// CRC16 of legacy transfers: CRC_A, least significant byte first.
    static func crc16(_ data: [UInt8]) -> [UInt8] { ChipTables.crcA(data) }

    /// CRC32 of EV1 transfers, least significant byte first.
    static func crc32(_ data: [UInt8]) -> [UInt8] { ChipTables.desfire.crc32(data) }

    private static func blocks(of data: [UInt8], _ cipher: BlockCipher) -> [[UInt8]] {
        stride(from: 0, to: data.count, by: cipher.blockSize).map {
            Array(data[$0..<min($0 + cipher.blockSize, data.count)])
        }
    }
}

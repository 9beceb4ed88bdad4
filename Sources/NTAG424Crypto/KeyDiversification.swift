/// AES-128 key diversification of NXP AN10922 §2.2 (CMAC-based): one master key, one key
/// per tag derived from the tag's UID, so that a key read out of one tag opens only that tag.
///
/// Diversified key = CMAC(K, 01 ‖ M) with AN10922's own padding: the input D = 01 ‖ M is
/// padded with 80 00… to 32 bytes and the last block is masked with the CMAC subkey K2 when
/// D is shorter than 32 bytes, with K1 when D is exactly 32. M is 1 to 31 bytes.
///
/// ```swift
/// let tagKey = try KeyDiversification.aes128(masterKey: master, input: uid + systemIdentifier)
/// ```
public enum KeyDiversification {
    /// The AES-128 diversification constant that starts D (AN10922 §2.2).
    package static let aes128Constant: UInt8 = 0x01

    /// The diversified key for the diversification input `input` (1 to 31 bytes: the UID,
    /// usually followed by an application or system identifier).
    public static func aes128(masterKey: AES128Key, input: [UInt8]) throws(NTAG424CryptoError) -> AES128Key {
        guard (1...31).contains(input.count) else {
            throw .malformed("AN10922 diversification input has 1 to 31 bytes, not \(input.count)")
        }
        let d = [aes128Constant] + input
        let (k1, k2) = try subkeys(masterKey)
        var message = d
        let mask: [UInt8]
        if d.count == 32 {
            mask = k1
        } else {
            message.append(0x80)
            while message.count < 32 { message.append(0) }
            mask = k2
        }
        message.replaceSubrange(16..<32, with: AES128.xor(Array(message[16..<32]), mask))
        // CMAC's chaining is a CBC encryption with a zero IV; its last block is the MAC.
        let chained = try AES128.encryptCBC(key: masterKey, iv: EV2Session.zeroIV, message)
        return try AES128Key(Array(chained.suffix(16)))
    }

    /// The per-tag SDM file-read (MAC) key of a SUN setup: ``aes128(masterKey:input:)`` over
    /// the 7-byte UID followed by `systemIdentifier` (empty by default). The SDM meta-read
    /// key stays shared, so a verifier can decrypt the UID before it derives this key.
    public static func sunMACKey(masterKey: AES128Key, uid: [UInt8], systemIdentifier: [UInt8] = [])
        throws(NTAG424CryptoError) -> AES128Key
    {
        guard uid.count == 7 else { throw .malformed("an NTAG 424 DNA UID has 7 bytes, not \(uid.count)") }
        return try aes128(masterKey: masterKey, input: uid + systemIdentifier)
    }

    /// The CMAC subkeys K1 and K2 (NIST SP 800-38B §6.1): L = E(K, 0¹²⁸), K1 = L·x, K2 = K1·x
    /// in GF(2¹²⁸).
    static func subkeys(_ key: AES128Key) throws(NTAG424CryptoError) -> (k1: [UInt8], k2: [UInt8]) {
        let l = try AES128.encryptECB(key: key, [UInt8](repeating: 0, count: 16))
        let k1 = double(l)
        return (k1, double(k1))
    }

    private static func double(_ block: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 16)
        for i in 0..<16 {
            let carry: UInt8 = i < 15 ? block[i + 1] >> 7 : 0
            out[i] = block[i] << 1 | carry
        }
        if block[0] & 0x80 != 0 { out[15] ^= 0x87 }
        return out
    }
}

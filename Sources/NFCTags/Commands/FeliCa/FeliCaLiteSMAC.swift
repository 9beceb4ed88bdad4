internal import CryptoSupport

/// The MAC of a FeliCa Lite and Lite-S (the card's authenticity), as nfcpy computes it: the
/// session key is 2-key 3DES-CBC of the reader's challenge RC under the card key CK; a MAC
/// is 3DES-CBC under the session key, with RC's first half as IV, over the data taken eight
/// bytes at a time in reverse order, and is the last cipher block reversed. The card is
/// little-endian: RC and CK go into their blocks with each half reversed.
///
/// ```swift
/// let sk = FeliCaLiteSMAC.sessionKey(cardKey: ck, challenge: rc)
/// let mac = FeliCaLiteSMAC.mac(blocks.flatMap { $0 }, sessionKey: sk, iv: Array(rc.prefix(8)))
/// ```
package enum FeliCaLiteSMAC {
    /// The session key of challenge `rc` (16 bytes) under card key `cardKey` (16 bytes).
    package static func sessionKey(cardKey: [UInt8], challenge rc: [UInt8]) -> [UInt8] {
        BlockCipher.tdea2.encrypt(key: cardKey, iv: [UInt8](repeating: 0, count: 8), rc)
    }

    /// The 8-byte MAC of `data` (a multiple of 8 bytes); `flipKey` swaps the session key's
    /// halves, as a write with MAC_A wants.
    package static func mac(_ data: [UInt8], sessionKey: [UInt8], iv: [UInt8], flipKey: Bool = false) -> [UInt8] {
        let key = flipKey ? Array(sessionKey[8...] + sessionKey[..<8]) : sessionKey
        let text = stride(from: 0, to: data.count, by: 8).flatMap { data[$0..<min($0 + 8, data.count)].reversed() }
        return Array(BlockCipher.tdea2.encrypt(key: key, iv: iv, text).suffix(8).reversed())
    }

    /// A 16-byte value as the card stores it: each half reversed (RC, CK).
    package static func cardOrder(_ value: [UInt8]) -> [UInt8] {
        Array(value[..<8].reversed() + value[8...].reversed())
    }
}

/// The MAC session of a FeliCa Lite or Lite-S after the reader wrote its challenge: the
/// session key and the IV of every MAC.
package struct FeliCaMACSession: Sendable, Equatable {
    package var sessionKey: [UInt8]
    package var iv: [UInt8]

    package init(sessionKey: [UInt8], iv: [UInt8]) {
        self.sessionKey = sessionKey
        self.iv = iv
    }
}

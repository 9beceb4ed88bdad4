internal import CryptoSupport
import NFCChips
import NTAG424Crypto

/// The reader's half of a DESFire authentication with `0A` (legacy), `1A` (ISO) or `AA`
/// (AES): the challenge answered, the card's proof checked, the session key derived.
///
/// ```swift
/// var auth = try DESFireAuthenticator(method: .iso, keyNumber: 0, key: key)
/// let token = try auth.respond(toChallenge: encryptedRndB)   // sent with AF
/// let session = try auth.finish(response: encryptedRndAPrime)
/// ```
package struct DESFireAuthenticator: Sendable {
    /// Which authentication command.
    package enum Method: Sendable, Hashable {
        /// `0A`, DES and 2K3DES, D40 secure messaging.
        case legacy
        /// `1A`, DES, 2K3DES and 3K3DES, EV1 secure messaging.
        case iso
        /// `AA`, AES, EV1 secure messaging.
        case aes
    }

    /// The method.
    package let method: Method
    /// The key number.
    package let keyNumber: UInt8
    let key: DESFireKey
    let rndA: [UInt8]
    private var rndB: [UInt8] = []
    private var iv: [UInt8]

    /// An authentication of `keyNumber` with `key`; `rndA` fixed for tests, random otherwise.
    package init(method: Method, keyNumber: UInt8, key: DESFireKey, rndA: [UInt8]? = nil) throws(NTAG424CryptoError) {
        switch (method, key.cipher) {
        case (.legacy, .des), (.legacy, .tdea2), (.iso, .des), (.iso, .tdea2), (.iso, .tdea3), (.aes, .aes): break
        default: throw .malformed("a \(key.cipher.name) key cannot authenticate with \(method)")
        }
        self.method = method
        self.keyNumber = keyNumber
        self.key = key
        let length = key.cipher == .tdea3 || key.cipher == .aes ? 16 : 8
        let random = rndA ?? (0..<length).map { _ in UInt8.random(in: 0...255) }
        guard random.count == length else { throw .malformed("RndA has \(length) bytes, not \(random.count)") }
        self.rndA = random
        iv = [UInt8](repeating: 0, count: key.cipher.blockCipher.blockSize)
    }

    /// The command code.
    package var commandCode: UInt8 {
        let commands = ChipTables.desfire.commands
        switch method {
        case .legacy: return commands[.authenticateLegacy].code
        case .iso: return commands[.authenticateISO].code
        case .aes: return commands[.authenticateAES].code
        }
    }

    private var cipher: BlockCipher { key.cipher.blockCipher }

    /// The token for the card's `E(RndB)`: `RndA ‖ RndB⋘1`, enciphered.
    package mutating func respond(toChallenge encryptedRndB: [UInt8]) throws(NTAG424CryptoError) -> [UInt8] {
        guard encryptedRndB.count == rndA.count else {
            throw .malformed("E(RndB) has \(encryptedRndB.count) bytes, expected \(rndA.count)")
        }
        let zero = [UInt8](repeating: 0, count: cipher.blockSize)
        rndB = cipher.decrypt(key: key.bytes, iv: method == .legacy ? zero : iv, encryptedRndB)
        let plain = rndA + Self.rotatedLeft(rndB)
        if method == .legacy {
            return DESFireSession.sendModeDecipher(cipher, key: key.bytes, plain)
        }
        iv = Array(encryptedRndB.suffix(cipher.blockSize))
        let token = cipher.encrypt(key: key.bytes, iv: iv, plain)
        iv = Array(token.suffix(cipher.blockSize))
        return token
    }

    /// Checks the card's `E(RndA⋘1)` and opens the session.
    package func finish(response: [UInt8]) throws(NTAG424CryptoError) -> DESFireSession {
        guard response.count == rndA.count, !rndB.isEmpty else {
            throw .authenticationFailed("no challenge answered, or an answer of the wrong length")
        }
        let zero = [UInt8](repeating: 0, count: cipher.blockSize)
        let rotated = cipher.decrypt(key: key.bytes, iv: method == .legacy ? zero : iv, response)
        guard rotated == Self.rotatedLeft(rndA) else {
            throw .authenticationFailed("no challenge answered, or an answer of the wrong length")
        }
        let (sessionCipher, sessionKey) = Self.sessionKey(key: key, rndA: rndA, rndB: rndB)
        return DESFireSession(
            scheme: method == .legacy ? .legacy : .ev1, keyNumber: keyNumber, cipher: sessionCipher,
            sessionKey: sessionKey)
    }

    /// The session key (facts file §2F): DES `A0-3 ‖ B0-3`, 2K3DES `A0-3 ‖ B0-3 ‖ A4-7 ‖
    /// B4-7` (DES-style, doubled, when the key's halves are equal), 3K3DES `A0-3 ‖ B0-3 ‖
    /// A6-9 ‖ B6-9 ‖ A12-15 ‖ B12-15`, AES `A0-3 ‖ B0-3 ‖ A12-15 ‖ B12-15`.
    static func sessionKey(key: DESFireKey, rndA a: [UInt8], rndB b: [UInt8]) -> (BlockCipher, [UInt8]) {
        let des = Array(a[0..<4] + b[0..<4])
        switch key.cipher {
        case .des: return (.des, des)
        case .tdea2 where key.isSingleDES: return (.tdea2, des + des)
        case .tdea2: return (.tdea2, des + Array(a[4..<8] + b[4..<8]))
        case .tdea3: return (.tdea3, des + Array(a[6..<10] + b[6..<10] + a[12..<16] + b[12..<16]))
        case .aes: return (.aes128, des + Array(a[12..<16] + b[12..<16]))
        }
    }

    /// `bytes` rotated left by one byte.
    static func rotatedLeft(_ bytes: [UInt8]) -> [UInt8] {
        Array(bytes.dropFirst()) + bytes.prefix(1)
    }
}

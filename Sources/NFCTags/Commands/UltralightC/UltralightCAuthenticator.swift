internal import CryptoSupport
import NTAG424Crypto
import NFCChips

/// The reader's side of the Ultralight C 3DES mutual authentication (MF0ICU2 §7.5.5), as a
/// pure value: 2-key 3DES in CBC mode, first IV zero, then each IV is the last ciphertext
/// block; X′ is X rotated left by one byte.
///
/// ```swift
/// var auth = try UltralightCAuthenticator(key: key, rndA: rndA)
/// let second = try auth.answer(toChallenge: encryptedRndB)   // send AF ‖ second
/// try auth.verify(cardAnswer: encryptedRndAPrime)            // throws when the card does not know the key
/// ```
package struct UltralightCAuthenticator: Sendable {
    /// Why a step failed.
    package enum Failure: Error, Sendable, Hashable {
        /// The key is not 16 bytes, or RndA not 8.
        case wrongLength(String)
        /// A card message is not one or two blocks long.
        case wrongMessageLength(expected: Int, got: Int)
        /// The card's RndA′ is not our RndA rotated: it does not know the key.
        case cardNotAuthenticated
        /// The cipher refused to run.
        case cipherUnavailable
    }

    private let key: [UInt8]
    private let rndA: [UInt8]
    /// RndB, once the challenge was decrypted.
    package private(set) var rndB: [UInt8]?
    private var iv: [UInt8]

    /// The table of the 3DES authentication (cipher, block size).
    static let spec: UltralightCAuthenticationSpec = {
        guard let spec = ChipTables.spec(for: .ultralightC).ultralightCAuthentication else {
            preconditionFailure("datasheets/chips/ultralight-c.json lacks ultralightCAuthentication")
        }
        return spec
    }()

    static var blockLength: Int { spec.blockLength }

    /// An authenticator with a 16-byte key (cipher order K0…K15) and an 8-byte RndA.
    package init(key: [UInt8], rndA: [UInt8]) throws(Failure) {
        guard key.count == 2 * Self.blockLength else { throw .wrongLength("the key is 16 bytes, got \(key.count)") }
        guard rndA.count == Self.blockLength else { throw .wrongLength("RndA is 8 bytes, got \(rndA.count)") }
        self.key = key
        self.rndA = rndA
        self.iv = [UInt8](repeating: 0, count: Self.blockLength)
    }

    /// Decrypts ek(RndB) and returns ek(RndA ‖ RndB′), the 16 bytes to send after `AF`.
    package mutating func answer(toChallenge encryptedRndB: [UInt8]) throws(Failure) -> [UInt8] {
        guard encryptedRndB.count == Self.blockLength else {
            throw .wrongMessageLength(expected: Self.blockLength, got: encryptedRndB.count)
        }
        let rndB = try crypt(encrypt: false, encryptedRndB)
        self.rndB = rndB
        iv = encryptedRndB
        let message = try crypt(encrypt: true, rndA + Self.rotatedLeft(rndB))
        iv = Array(message.suffix(Self.blockLength))
        return message
    }

    /// Checks the card's ek(RndA′): the card proved it knows the key.
    package func verify(cardAnswer encryptedRndAPrime: [UInt8]) throws(Failure) {
        guard encryptedRndAPrime.count == Self.blockLength else {
            throw .wrongMessageLength(expected: Self.blockLength, got: encryptedRndAPrime.count)
        }
        guard try crypt(encrypt: false, encryptedRndAPrime) == Self.rotatedLeft(rndA) else {
            throw .cardNotAuthenticated
        }
    }

    /// X′: `bytes` rotated left by one byte.
    static func rotatedLeft(_ bytes: [UInt8]) -> [UInt8] {
        guard let first = bytes.first else { return bytes }
        return Array(bytes.dropFirst()) + [first]
    }

    private func crypt(encrypt: Bool, _ data: [UInt8]) throws(Failure) -> [UInt8] {
        guard let result = LibCrypto.cbc(Self.spec.cipher, encrypt: encrypt, key: key, iv: iv, data: data) else {
            throw .cipherUnavailable
        }
        return result
    }
}

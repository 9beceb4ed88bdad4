import CryptoSupport
import NFCChips

/// The card's side of the DESFire authentications: its challenge E(K, RndB), the check of
/// the reader's token, its last answer E(K, RndA′) and the session the two numbers make.
///
/// - legacy 0x0A: every cryptogram from a zero IV; the card reads the token by enciphering
///   (RndA = E(T1), RndB′ = E(T2) ⊕ T1) and answers E(RndA′);
/// - ISO 0x1A and AES 0xAA (EV1): CBC chained through the exchange — the token deciphered
///   from the challenge's last block, the answer enciphered from the token's last block;
/// - EV2First / EV2NonFirst 0x71 / 0x77: ``PICCAuthentication``.
struct DESFireCardAuthentication: Sendable {
    /// Which command started it.
    enum Kind: Sendable, Equatable {
        case legacy
        case iso
        case aes
        case ev2First
        case ev2NonFirst
    }

    /// How the reader's token went.
    enum Outcome: Sendable {
        /// RndB′ matched: the card's answer and the session.
        case accepted(answer: [UInt8], session: DESFireSession)
        /// RndB′ did not match: another key (AE).
        case wrongKey
        /// The token has the wrong length (7E).
        case malformed
    }

    let kind: Kind
    let keyNumber: UInt8
    let cipher: BlockCipher
    let key: [UInt8]
    let rndB: [UInt8]

    /// The card's first answer: E(K, RndB), CBC from a zero IV.
    var challenge: [UInt8] { cipher.encrypt(key: key, iv: DESFireCardCrypto.zeroIV(cipher), rndB) }

    /// Checks the reader's token; `previous` is the session an EV2NonFirst continues and
    /// `transactionIdentifier` the TI an EV2First opens.
    func accept(_ token: [UInt8], previous: DESFireSession?, transactionIdentifier: [UInt8]) -> Outcome {
        let crypto = DESFireCardCrypto.self
        switch kind {
        case .ev2First, .ev2NonFirst:
            let authentication = PICCAuthentication(isFirst: kind == .ev2First, key: key, rndB: rndB)
            switch authentication.accept(
                token, transactionIdentifier: transactionIdentifier,
                deviceCapabilities: ChipTables.desfire.secureMessaging.deviceCapabilities, previous: previous?.ev2)
            {
            case let .accepted(answer, session):
                return .accepted(answer: answer, session: DESFireSession(keyNumber: keyNumber, ev2: session))
            case .wrongKey: return .wrongKey
            case .malformed: return .malformed
            }
        case .legacy, .iso, .aes:
            let length = rndB.count
            guard token.count == 2 * length else { return .malformed }
            let plain =
                kind == .legacy
                ? crypto.legacyOpen(cipher, key: key, token)
                : cipher.decrypt(key: key, iv: Array(challenge.suffix(cipher.blockSize)), token)
            guard Array(plain.suffix(length)) == crypto.rotateLeft(rndB) else { return .wrongKey }
            let rndA = Array(plain.prefix(length))
            let answer =
                kind == .legacy
                ? crypto.legacySeal(cipher, key: key, crypto.rotateLeft(rndA))
                : cipher.encrypt(key: key, iv: Array(token.suffix(cipher.blockSize)), crypto.rotateLeft(rndA))
            let session = DESFireSession(
                keyNumber: keyNumber, scheme: kind == .legacy ? .legacy : .ev1, cipher: cipher,
                key: crypto.sessionKey(cipher, rndA: rndA, rndB: rndB))
            return .accepted(answer: answer, session: session)
        }
    }
}

/// The reader's (PCD's) side of the NTAG 424 DNA EV2 mutual authentication, as a pure value
/// (NT4H2421Gx §9.1.5 AuthenticateEV2First, §9.1.6 AuthenticateEV2NonFirst; AN12196 §5.6
/// Table 14 is the worked example).
///
/// The three frames, with K the key in slot `keyNumber` and all CBC IVs zero:
/// 1. PCD → PICC: KeyNo ‖ LenCap ‖ PCDcap2 (First) or KeyNo (NonFirst) — ``initialCommandData(readerCapabilities:)``;
///    PICC → PCD: E(K, RndB).
/// 2. PCD → PICC: E(K, RndA ‖ RndB′), RndB′ = RndB rotated left by one byte —
///    ``respond(toChallenge:)``.
/// 3. PICC → PCD: E(K, TI ‖ RndA′ ‖ PDcap2 ‖ PCDcap2) (First) or E(K, RndA′) (NonFirst) —
///    ``finish(response:continuing:)`` checks RndA′ and returns the ``EV2Session``.
///
/// The exchange of the frames (command codes, status words) is the tag layer's; this type
/// only computes.
///
/// ```swift
/// var auth = EV2Authentication(kind: .first, keyNumber: 0, key: .zero)
/// let part1 = auth.initialCommandData()          // send with AuthenticateEV2First
/// let part2 = try auth.respond(toChallenge: answer1)
/// let session = try auth.finish(response: answer2)
/// ```
package struct EV2Authentication: Sendable {
    /// Which of the two authentications: First starts a transaction (new TI, CmdCtr 0),
    /// NonFirst changes key inside one (TI and CmdCtr kept).
    package enum Kind: Sendable, Equatable {
        /// AuthenticateEV2First.
        case first
        /// AuthenticateEV2NonFirst.
        case nonFirst
    }

    /// First or NonFirst.
    package let kind: Kind
    /// The key slot authenticated with (0–4 on NTAG 424 DNA).
    package let keyNumber: UInt8
    /// The reader's 16-byte random number.
    package let rndA: [UInt8]
    /// The tag's random number, once ``respond(toChallenge:)`` has decrypted it.
    package private(set) var rndB: [UInt8]?
    private let key: AES128Key

    /// An authentication with a fresh RndA from the system's secure random generator.
    package init(kind: Kind, keyNumber: UInt8, key: AES128Key) {
        var generator = SystemRandomNumberGenerator()
        self.kind = kind
        self.keyNumber = keyNumber
        self.key = key
        self.rndA = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// An authentication with a given RndA (16 bytes): for transcripts and tests only — a
    /// reused RndA weakens the session keys.
    package init(kind: Kind, keyNumber: UInt8, key: AES128Key, rndA: [UInt8]) throws(NTAG424CryptoError) {
        guard rndA.count == 16 else { throw .malformed("RndA has 16 bytes, not \(rndA.count)") }
        self.kind = kind
        self.keyNumber = keyNumber
        self.key = key
        self.rndA = rndA
    }

    /// The data field of the first frame: KeyNo ‖ LenCap ‖ PCDcap2 for First (LenCap 0 and
    /// no PCDcap2 unless `readerCapabilities` are given, at most 6 bytes), KeyNo for NonFirst.
    package func initialCommandData(readerCapabilities: [UInt8] = []) -> [UInt8] {
        switch kind {
        case .first: [keyNumber, UInt8(min(readerCapabilities.count, 6))] + readerCapabilities.prefix(6)
        case .nonFirst: [keyNumber]
        }
    }

    /// Decrypts the tag's challenge E(K, RndB) and returns the 32 bytes E(K, RndA ‖ RndB′)
    /// to send in the second frame.
    package mutating func respond(toChallenge encryptedRndB: [UInt8]) throws(NTAG424CryptoError) -> [UInt8] {
        guard encryptedRndB.count == 16 else {
            throw .malformed("the tag's challenge E(K, RndB) has 16 bytes, not \(encryptedRndB.count)")
        }
        let rndB = try AES128.decryptCBC(key: key, iv: EV2Session.zeroIV, encryptedRndB)
        self.rndB = rndB
        return try AES128.encryptCBC(key: key, iv: EV2Session.zeroIV, rndA + EV2Session.rotateLeft(rndB))
    }

    /// Checks the tag's last answer and opens the session.
    ///
    /// - Parameters:
    ///   - response: First: the 32 bytes E(K, TI ‖ RndA′ ‖ PDcap2 ‖ PCDcap2); NonFirst: the
    ///     16 bytes E(K, RndA′).
    ///   - previous: for NonFirst, the session it continues (its TI and CmdCtr are kept).
    /// - Throws: ``NTAG424CryptoError/authenticationFailed(_:)`` when RndA′ does not match —
    ///   the tag holds another key; ``NTAG424CryptoError/malformed(_:)`` for a wrong length,
    ///   a call before ``respond(toChallenge:)``, or NonFirst without `previous`.
    package func finish(response: [UInt8], continuing previous: EV2Session? = nil) throws(NTAG424CryptoError)
        -> EV2Session
    {
        guard let rndB else { throw .malformed("finish(response:) before respond(toChallenge:)") }
        let expectedLength = kind == .first ? 32 : 16
        guard response.count == expectedLength else {
            throw .malformed("the tag's last answer has \(expectedLength) bytes, not \(response.count)")
        }
        let plain = try AES128.decryptCBC(key: key, iv: EV2Session.zeroIV, response)
        let keys = try EV2Session.sessionKeys(key: key, rndA: rndA, rndB: rndB)
        switch kind {
        case .first:
            guard Array(plain[4..<20]) == EV2Session.rotateLeft(rndA) else {
                throw .authenticationFailed("RndA′ from the tag does not match")
            }
            return try EV2Session(
                encryptionKey: keys.encryption, macKey: keys.mac, transactionIdentifier: Array(plain[0..<4]),
                commandCounter: 0, deviceCapabilities: Array(plain[20..<26]),
                readerCapabilities: Array(plain[26..<32]))
        case .nonFirst:
            guard let previous else { throw .malformed("AuthenticateEV2NonFirst continues a session: pass it") }
            guard plain == EV2Session.rotateLeft(rndA) else {
                throw .authenticationFailed("RndA′ from the tag does not match")
            }
            return try EV2Session(
                encryptionKey: keys.encryption, macKey: keys.mac,
                transactionIdentifier: previous.transactionIdentifier, commandCounter: previous.commandCounter,
                deviceCapabilities: previous.deviceCapabilities, readerCapabilities: previous.readerCapabilities)
        }
    }
}

internal import CryptoSupport
import NTAG424Crypto
import NFCChips

/// NXP originality signatures: ECDSA over the table's curve (secp128r1), the message is the
/// raw UID used as the digest (no hash), the signature r ‖ s in two big-endian halves.
///
/// ```swift
/// let verdict = try OriginalitySignature.verify(uid: target.uid, signature: sig, chip: .ntag215)
/// verdict.isValid   // true for a genuine NTAG215
/// ```
package enum OriginalitySignature {
    /// Verifies `signature` for `uid` with the chip's published key from the tables.
    package static func verify(uid: [UInt8], signature: [UInt8], chip: Chip) throws(TagCommandError)
        -> SignatureVerification
    {
        guard let key = ChipTables.originalitySignatureKey(for: chip) else { return .noKeyKnown }
        return try verify(uid: uid, signature: signature, publicKey: key.publicKey, keyName: key.name.rawValue)
    }

    /// Verifies `signature` for `uid` with `publicKey` (uncompressed point `04 ‖ X ‖ Y`).
    package static func verify(uid: [UInt8], signature: [UInt8], publicKey: [UInt8], keyName: String? = nil)
        throws(TagCommandError) -> SignatureVerification
    {
        let table = ChipTables.originalitySignatures
        guard signature.count == table.signatureLength else {
            throw .invalidArgument("an originality signature is \(table.signatureLength) bytes, got \(signature.count)")
        }
        guard !uid.isEmpty else { throw .invalidArgument("the UID is empty") }
        switch LibCrypto.verifyECDSA(curve: table.curve, publicKey: publicKey, digest: uid, signature: signature) {
        case .valid: return .valid(keyName: keyName)
        case .invalid: return .invalid
        case .unusableKey: throw .invalidArgument("the public key is not a point on \(table.curve)")
        }
    }
}

/// A signature read from a tag and its verdict.
public struct OriginalityReport: Sendable {
    /// The UID that was checked.
    public var uid: [UInt8]
    /// The 32 bytes READ_SIG returned.
    public var signature: [UInt8]
    /// The verdict.
    public var verification: SignatureVerification
}

extension Type2Commands {
    /// READ_SIG, verified for the tag's UID against `publicKey`, or the chip's key from
    /// the tables when `nil`.
    ///
    /// ```swift
    /// let report = try await tag.verifyOriginality()
    /// print(report.verification)   // valid (ntag21x key)
    /// ```
    package func verifyOriginality(publicKey: [UInt8]? = nil) async throws(TagCommandError) -> OriginalityReport {
        let signature = try await readSignature()
        let uid = transport.target.uid
        let verdict: SignatureVerification
        if let publicKey {
            verdict = try OriginalitySignature.verify(uid: uid, signature: signature, publicKey: publicKey)
        } else {
            verdict = try OriginalitySignature.verify(uid: uid, signature: signature, chip: chip)
        }
        return OriginalityReport(uid: uid, signature: signature, verification: verdict)
    }
}

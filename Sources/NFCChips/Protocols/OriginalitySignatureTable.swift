/// NXP originality-signature keys (ECDSA on secp128r1) and verified examples.
///
/// ```swift
/// let key = ChipTables.originalitySignatures.keys[.ntag21x]
/// key.publicKey.count // 33 (uncompressed point 04 ‖ X ‖ Y)
/// ```
package struct OriginalitySignatureTable: DatasheetValue {
    /// Where it comes from.
    package var source: DatasheetSource
    /// The curve name (`secp128r1`).
    package var curve: String
    /// Signature length, r ‖ s (32).
    package var signatureLength: Int
    /// What is signed.
    package var message: String
    /// The keys.
    package var keys: NamedTable<OriginalitySignatureKey>
}

/// The originality-signature keys; the raw values are the names in
/// `datasheets/originality-signatures.json` and in a chip file's `originalitySignatureKey`.
package enum OriginalitySignatureKeyName: String, TableName {
    /// NTAG21x (AN11350).
    case ntag21x
    /// MIFARE Ultralight EV1 (AN11341).
    case ultralightEV1
    /// The generic "NXP Public key" TagInfo lists.
    case nxpGeneric
}

/// One public key.
package struct OriginalitySignatureKey: NamedEntry {
    /// Its name.
    package var name: OriginalitySignatureKeyName
    /// Which document publishes it.
    package var description: String
    /// The uncompressed public point `04 ‖ X ‖ Y`.
    @Hex package var publicKey: [UInt8]
    /// UIDs and signatures that verify with this key.
    package var testVectors: [SignatureTestVector]
}

/// A UID and its originality signature.
package struct SignatureTestVector: Codable, Equatable, Sendable {
    /// The 7-byte UID.
    @Hex package var uid: [UInt8]
    /// The 32-byte signature r ‖ s.
    @Hex package var signature: [UInt8]
}

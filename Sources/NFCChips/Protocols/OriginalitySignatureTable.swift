/// NXP originality-signature keys (ECDSA on secp128r1) and verified examples.
///
/// ```swift
/// let key = ChipTables.originalitySignatures.keys[.ntag21x]
/// key.publicKey.count // 33 (uncompressed point 04 ‖ X ‖ Y)
/// ```
public struct OriginalitySignatureTable: DatasheetValue {
    /// Where it comes from.
    public var source: DatasheetSource
    /// The curve name (`secp128r1`).
    public var curve: String
    /// Signature length, r ‖ s (32).
    public var signatureLength: Int
    /// What is signed.
    public var message: String
    /// The keys.
    public var keys: NamedTable<OriginalitySignatureKey>
}

/// The originality-signature keys; the raw values are the names in
/// `datasheets/originality-signatures.json` and in a chip file's `originalitySignatureKey`.
public enum OriginalitySignatureKeyName: String, TableName {
    /// NTAG21x (AN11350).
    case ntag21x
    /// MIFARE Ultralight EV1 (AN11341).
    case ultralightEV1
    /// The generic "NXP Public key" TagInfo lists.
    case nxpGeneric
}

/// One public key.
public struct OriginalitySignatureKey: NamedEntry {
    /// Its name.
    public var name: OriginalitySignatureKeyName
    /// Which document publishes it.
    public var description: String
    /// The uncompressed public point `04 ‖ X ‖ Y`.
    @Hex public var publicKey: [UInt8]
    /// UIDs and signatures that verify with this key.
    public var testVectors: [SignatureTestVector]
}

/// A UID and its originality signature.
public struct SignatureTestVector: Codable, Equatable, Sendable {
    /// The 7-byte UID.
    @Hex public var uid: [UInt8]
    /// The 32-byte signature r ‖ s.
    @Hex public var signature: [UInt8]
}

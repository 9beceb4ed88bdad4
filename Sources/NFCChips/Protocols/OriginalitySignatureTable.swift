/// NXP originality-signature keys (ECDSA on secp128r1) and verified examples.
///
/// ```swift
/// let key = ChipTables.originalitySignatures.key(named: "ntag21x")!
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
    public var keys: [OriginalitySignatureKey]

    /// The key called `name` (`ntag21x`, `ultralightEV1`, `nxpGeneric`).
    public func key(named name: String) -> OriginalitySignatureKey? { keys.first { $0.name == name } }
}

/// One public key.
public struct OriginalitySignatureKey: Codable, Equatable, Sendable {
    /// Its name.
    public var name: String
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

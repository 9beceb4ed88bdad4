internal import CryptoSupport
import NTAG424Crypto

/// Per-tag passwords: each tag's PWD and PACK derived from one master secret and the tag's
/// UID, so that a password read off one tag opens that tag only, not the whole batch.
///
/// Derivation v1, byte for byte (a verifier in any language can recompute it):
///
///     H    = HMAC-SHA256(key: the secret's bytes,
///                        message: ASCII "nfctagkit-pwd-v1" followed by the UID bytes)
///     PWD  = H[0...3]
///     PACK = H[4...5]
///
/// The secret never appears in the value's description, so it cannot end up in a log.
///
/// ```swift
/// let derivation = TagPasswordDerivation(secret: Array("correct horse battery staple".utf8))
/// let (password, pack) = derivation.credentials(forUID: [0x04, 0xE0, 0x5A, 0x11, 0x22, 0x33, 0x44])
/// // password 17 8d 84 06, pack 30 60
/// ```
public struct TagPasswordDerivation: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The name of the derivation, as logs record it instead of the password.
    package static let v1Name = "derived-v1"
    /// The label that starts the HMAC message of derivation v1.
    package static let v1Label: [UInt8] = Array("nfctagkit-pwd-v1".utf8)

    private let secret: [UInt8]

    /// A derivation under `secret` (for the command line: the UTF-8 bytes of an environment
    /// variable's value, never an argument).
    public init(secret: [UInt8]) {
        self.secret = secret
    }

    /// The PWD (4 bytes) and PACK (2 bytes) of the tag with `uid`.
    public func credentials(forUID uid: [UInt8]) -> (password: TagPassword, pack: PACK) {
        // OpenSSL's HMAC-SHA256 of a small message cannot fail short of memory exhaustion.
        guard let digest = LibCrypto.hmacSHA256(key: secret, message: Self.v1Label + uid) else {
            preconditionFailure("libcrypto refused HMAC-SHA256")
        }
        return (TagPassword(uncheckedBytes: Array(digest[0..<4])), PACK(uncheckedBytes: Array(digest[4..<6])))
    }

    /// `derived-v1` — never the secret.
    public var description: String { Self.v1Name }
    /// `derived-v1` — never the secret.
    public var debugDescription: String { Self.v1Name }
    /// No children: `dump` and debuggers show no secret either.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

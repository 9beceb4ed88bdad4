import NFCChips
import NTAG424Crypto

/// A MIFARE Ultralight C 3DES key: 16 bytes in cipher order (MF0ICU2 §7.5.5), the order
/// the key pages hold them reversed in.
///
/// ```swift
/// try await ulc.authenticate(key: .factoryDefault)
/// let key = UltralightCKey(hex: "00112233445566778899AABBCCDDEEFF")!
/// ```
public struct UltralightCKey: Sendable, Hashable, CustomStringConvertible {
    /// The 16 key bytes, in cipher order.
    public let bytes: [UInt8]

    /// The key in `bytes` (cipher order), or `nil` unless there are exactly 16.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.length else { return nil }
        self.bytes = bytes
    }

    /// The key in 32 hex digits (cipher order), or `nil`.
    public init?(hex: String) {
        guard let bytes = HexBytes.decode(hex) else { return nil }
        self.init(bytes: bytes)
    }

    /// The key a new Ultralight C leaves the factory with ("BREAKMEIFYOUCAN!" in the key pages).
    public static let factoryDefault = UltralightCKey(uncheckedBytes: authentication.defaultKey)

    /// The key length in bytes.
    package static var length: Int { authentication.defaultKey.count }

    /// Names the key without showing it: keys end up in logs.
    public var description: String { self == .factoryDefault ? "the factory Ultralight C key" : "an Ultralight C key" }

    private init(uncheckedBytes: [UInt8]) { bytes = uncheckedBytes }

    private static var authentication: UltralightCAuthenticationSpec {
        guard let spec = ChipTables.spec(for: .ultralightC).ultralightCAuthentication else {
            preconditionFailure("the Ultralight C table has no authentication section")
        }
        return spec
    }
}

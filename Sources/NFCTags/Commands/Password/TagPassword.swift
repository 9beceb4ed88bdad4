import NFCChips
import NTAG424Crypto

/// The 32-bit password of PWD_AUTH on an NTAG21x or Ultralight EV1 (the PWD page).
///
/// ```swift
/// let password = TagPassword(hex: "12345678")!
/// try await ntag.authenticate(password: password, expectedPACK: PACK(hex: "ABCD"))
/// ```
public struct TagPassword: Sendable, Hashable, CustomStringConvertible {
    /// The 4 bytes, in the order PWD_AUTH sends them.
    public let bytes: [UInt8]

    /// The password in `bytes`, or `nil` unless there are exactly 4.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.factoryDefault.bytes.count else { return nil }
        self.bytes = bytes
    }

    /// The password in 8 hex digits, or `nil`.
    public init?(hex: String) {
        guard let bytes = HexBytes.decode(hex) else { return nil }
        self.init(bytes: bytes)
    }

    /// The password a new tag leaves the factory with (`FF FF FF FF`).
    public static let factoryDefault = TagPassword(uncheckedBytes: Type2Secrets.password.defaultPassword)

    /// Names the password without showing it: passwords end up in logs.
    public var description: String { self == .factoryDefault ? "the factory password" : "a tag password" }

    package init(uncheckedBytes: [UInt8]) { bytes = uncheckedBytes }
}

/// The 16-bit password acknowledge an NTAG21x or Ultralight EV1 answers a right PWD_AUTH
/// with (the PACK page). It proves the tag knew the password; it is sent in clear.
public struct PACK: Sendable, Hashable, CustomStringConvertible {
    /// The 2 bytes, as the tag answers them.
    public let bytes: [UInt8]

    /// The PACK in `bytes`, or `nil` unless there are exactly 2.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.factoryDefault.bytes.count else { return nil }
        self.bytes = bytes
    }

    /// The PACK in 4 hex digits, or `nil`.
    public init?(hex: String) {
        guard let bytes = HexBytes.decode(hex) else { return nil }
        self.init(bytes: bytes)
    }

    /// The PACK a new tag leaves the factory with (`00 00`).
    public static let factoryDefault = PACK(uncheckedBytes: Type2Secrets.password.defaultPACK)

    /// The PACK in hex (`ABCD`).
    public var description: String { HexBytes.encode(bytes) }

    package init(uncheckedBytes: [UInt8]) { bytes = uncheckedBytes }
}

/// The password facts every Type 2 chip with PWD_AUTH shares (its table's password section).
enum Type2Secrets {
    static var password: PasswordSpec {
        for chip in Chip.allCases {
            if let password = ChipTables.spec(for: chip).memory?.configuration?.password { return password }
        }
        preconditionFailure("no chip table has a password section")
    }
}

import NFCChips
import NTAG424Crypto

/// A 48-bit MIFARE Classic sector key (key A or key B), with the well-known ones by name.
///
/// ```swift
/// try await classic.authenticate(sector: 1, keyType: .a, key: .factoryDefault)
/// try await classic.authenticate(sector: 1, keyType: .a, key: ClassicKey(hex: "A0A1A2A3A4A5")!)
/// ```
public struct ClassicKey: Sendable, Hashable, CustomStringConvertible {
    /// The 6 key bytes.
    public let bytes: [UInt8]

    /// The key in `bytes`, or `nil` unless there are exactly 6.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.factoryDefault.bytes.count else { return nil }
        self.bytes = bytes
    }

    /// The key in 12 hex digits, or `nil`.
    public init?(hex: String) {
        guard let bytes = HexBytes.decode(hex) else { return nil }
        self.init(bytes: bytes)
    }

    /// The transport key of a blank card, key A and B (`FF FF FF FF FF FF`).
    public static let factoryDefault = ClassicKey(named: .factoryDefault)
    /// The public key A of the MAD sectors (`A0 A1 A2 A3 A4 A5`, NXP AN10787).
    package static let madKeyA = ClassicKey(named: .madKeyA)

    /// Every well-known key in the tables, each once: what a dump tries when given none.
    public static let wellKnown: [ClassicKey] = {
        var keys: [ClassicKey] = []
        for entry in ChipTables.classic.keys {
            let key = ClassicKey(uncheckedBytes: entry.key)
            if !keys.contains(key) { keys.append(key) }
        }
        return keys
    }()

    /// The key in hex, except that a key not well known is named, not shown.
    public var description: String {
        Self.wellKnown.contains(self) ? HexBytes.encode(bytes) : "a MIFARE Classic key"
    }

    private init(named name: ClassicKeyName) {
        bytes = ChipTables.classic.keys[name].key
    }

    package init(uncheckedBytes: [UInt8]) { bytes = uncheckedBytes }
}

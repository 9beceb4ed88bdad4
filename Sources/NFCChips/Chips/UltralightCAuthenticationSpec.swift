/// The 2-key 3DES mutual authentication of the MIFARE Ultralight C (MF0ICU2 §7.5.5).
///
/// Protocol: PCD `1A 00` → card `AF` + ek(RndB); PCD `AF` + ek(RndA ‖ RndB′) → card
/// `00` + ek(RndA′); 3DES-CBC, first IV zero, then each IV is the last ciphertext block;
/// X′ is X rotated left by one byte.
public struct UltralightCAuthenticationSpec: Codable, Equatable, Sendable {
    /// The first page of the key (`2C`).
    @Hex public var firstKeyPage: Int
    /// The last page of the key (`2F`).
    @Hex public var lastKeyPage: Int
    /// The factory key as it sits in pages 2C–2F ("BREAKMEIFYOUCAN!").
    @Hex public var defaultKeyPages: [UInt8]
    /// The factory key in cipher order K0..K15 ("IEMKAERB!NACUOYF").
    @Hex public var defaultKey: [UInt8]
    /// How the key is stored: each 8-byte half is written reversed.
    public var keyByteOrder: String
    /// The first byte of the card's first answer (`AF`).
    @Hex public var continuationByte: UInt8
    /// The first byte of the card's last answer (`00`).
    @Hex public var successByte: UInt8
    /// The cipher, in OpenSSL's naming: `DES-EDE-CBC` (2-key triple DES in CBC mode).
    public var cipher: String
    /// The cipher's block size in bytes (8): the length of RndA, RndB and the IV.
    public var blockLength: Int
    /// The datasheet's example run with the default key.
    public var testVector: UltralightCTestVector
    /// Where it comes from.
    public var source: DatasheetSource

    /// The bytes to write to pages ``firstKeyPage``…``lastKeyPage`` for a cipher-order key.
    public func keyPages(forKey key: [UInt8]) -> [UInt8]? {
        guard key.count == 16 else { return nil }
        return Array(key[0..<8].reversed()) + Array(key[8..<16].reversed())
    }
}

/// The MF0ICU2 datasheet authentication example.
public struct UltralightCTestVector: Codable, Equatable, Sendable {
    /// RndB chosen by the card.
    @Hex public var rndB: [UInt8]
    /// ek(RndB), sent after `AF`.
    @Hex public var encryptedRndB: [UInt8]
    /// RndA chosen by the reader.
    @Hex public var rndA: [UInt8]
    /// ek(RndA ‖ RndB′).
    @Hex public var encryptedRndARndBPrime: [UInt8]
    /// ek(RndA′), sent after `00`.
    @Hex public var encryptedRndAPrime: [UInt8]
}

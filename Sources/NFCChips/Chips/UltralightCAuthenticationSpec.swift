/// The 2-key 3DES mutual authentication of the MIFARE Ultralight C (MF0ICU2 §7.5.5).
///
/// Protocol: PCD `1A 00` → card `AF` + ek(RndB); PCD `AF` + ek(RndA ‖ RndB′) → card
/// `00` + ek(RndA′); 3DES-CBC, first IV zero, then each IV is the last ciphertext block;
/// X′ is X rotated left by one byte.
package struct UltralightCAuthenticationSpec: Codable, Equatable, Sendable {
    /// The first page of the key (`2C`).
    @Hex package var firstKeyPage: Int
    /// The last page of the key (`2F`).
    @Hex package var lastKeyPage: Int
    /// The factory key as it sits in pages 2C–2F ("BREAKMEIFYOUCAN!").
    @Hex package var defaultKeyPages: [UInt8]
    /// The factory key in cipher order K0..K15 ("IEMKAERB!NACUOYF").
    @Hex package var defaultKey: [UInt8]
    /// How the key is stored: each 8-byte half is written reversed.
    package var keyByteOrder: String
    /// The first byte of the card's first answer (`AF`).
    @Hex package var continuationByte: UInt8
    /// The first byte of the card's last answer (`00`).
    @Hex package var successByte: UInt8
    /// The cipher, in OpenSSL's naming: `DES-EDE-CBC` (2-key triple DES in CBC mode).
    package var cipher: String
    /// The cipher's block size in bytes (8): the length of RndA, RndB and the IV.
    package var blockLength: Int
    /// The datasheet's example run with the default key.
    package var testVector: UltralightCTestVector
    /// Where it comes from.
    package var source: DatasheetSource

    /// The bytes to write to pages ``firstKeyPage``…``lastKeyPage`` for a cipher-order key.
    package func keyPages(forKey key: [UInt8]) -> [UInt8]? {
        guard key.count == 16 else { return nil }
        return Array(key[0..<8].reversed()) + Array(key[8..<16].reversed())
    }
}

/// The MF0ICU2 datasheet authentication example.
package struct UltralightCTestVector: Codable, Equatable, Sendable {
    /// RndB chosen by the card.
    @Hex package var rndB: [UInt8]
    /// ek(RndB), sent after `AF`.
    @Hex package var encryptedRndB: [UInt8]
    /// RndA chosen by the reader.
    @Hex package var rndA: [UInt8]
    /// ek(RndA ‖ RndB′).
    @Hex package var encryptedRndARndBPrime: [UInt8]
    /// ek(RndA′), sent after `00`.
    @Hex package var encryptedRndAPrime: [UInt8]
}

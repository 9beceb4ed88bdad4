/// Chip facts the `NFCChips` tables do not (yet) carry, isolated here until they move into
/// `datasheets/`. Nothing else in `NFCTags` writes a chip constant.
///
/// Each value names its source; the final report of the tag-commands work lists them so
/// they can be added to the JSON tables.
extension MissingTableValues {
    /// The argument byte of the Ultralight C `AUTHENTICATE` command (`1A 00`): the table
    /// has the code and `requestLength` 2, but not the fixed `00` (MF0ICU2 §9.5).
    static let ultralightCAuthenticateArgument: UInt8 = 0x00

    /// The argument byte of `READ_SIG` (`3C 00`): the signature address (NTAG21x §10.8).
    static let readSignatureAddress: UInt8 = 0x00

    /// The timeout used when the table gives none (`FAST_READ`, `READ_SIG`,
    /// `AUTHENTICATE`, MIFARE Classic commands). NTAG21x §8.2 / §10 give 5 ms for single
    /// page reads; a long `FAST_READ` answer (up to the reader's frame) takes longer on
    /// air, so this is generous.
    static let fallbackTimeoutMs: Double = 50

    /// Extra time per page of a `FAST_READ` answer (≈ 4 bytes × 9 bits × 9.44 µs on air,
    /// rounded up), added to the fallback timeout.
    static let fastReadTimeoutMsPerPage: Double = 0.5

    /// The OpenSSL name of the Ultralight C cipher: 2-key triple DES (DES-EDE) in CBC mode
    /// (MF0ICU2 §7.5.5). The table says it in words only.
    static let ultralightCCipher = "DES-EDE-CBC"

    /// The DES block size in bytes (RndA, RndB, IV).
    static let ultralightCBlockLength = 8

    /// MIFARE Classic value-block layout (MF1S50 §8.6.2.1; the table has it in words):
    /// value at 0–3, ¬value at 4–7, value at 8–11, address at 12 and 14, ¬address at 13 and 15.
    enum ClassicValueBlockLayout {
        static let valueOffsets = [0, 8]
        static let invertedValueOffset = 4
        static let valueLength = 4
        static let addressOffsets = [12, 14]
        static let invertedAddressOffsets = [13, 15]
    }
}

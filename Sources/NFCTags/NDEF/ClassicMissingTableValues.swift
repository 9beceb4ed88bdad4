// MISSING TABLE VALUES (MIFARE Classic NDEF) — chip and mapping constants the Classic NDEF
// driver needs that `ChipTables.classic` / `MADSpec` do not carry yet. They live in this one
// file so they can move into datasheets/mifare-classic.json; nothing else in the Classic
// driver writes a key, access-bit byte, info-byte limit or GPB mask.

/// Values the Classic NDEF driver needs before the chip tables provide them.
enum ClassicMissingTableValues {
    /// MAD1 info byte (masked with `infoBytePublisherMask`): values at or above this are
    /// invalid (nfc-reference.md §6.5 ☑, from proxmark3 `MADInfoByteDecode`).
    static let mad1InfoByteLimit: UInt8 = 0x0F
    /// MAD2 info byte values that are invalid besides those at or above
    /// ``mad2InfoByteLimit``: `10` would point at the MAD2 sector itself (§6.5 ☑).
    static let mad2InfoByteForbidden: Set<UInt8> = [0x10]
    /// MAD2 info byte (masked): values at or above this are invalid (§6.5 ☑).
    static let mad2InfoByteLimit: UInt8 = 0x28

    /// The info byte ``ClassicNDEFDriver/format(force:)`` writes in MAD1: `01`, as in the
    /// NDEF-formatted dumps whose block 1 is `14 01 03 E1 …` (§6.5 vector). The table has
    /// the vector, not the value as "the one to write".
    static let formatMAD1InfoByte: UInt8 = 0x01
    /// The info byte written in MAD2 (no card-publisher sector among sectors 17–39).
    static let formatMAD2InfoByte: UInt8 = 0x00

    /// NFC-sector GPB fields (AN1304 from memory; the table has them in words only,
    /// `nfcSectorGPBLayout`, marked unverified): bits 1–0 write access, `00` = granted.
    static let nfcGPBWriteAccessMask: UInt8 = 0x03
    /// Bits 3–2: read access, `00` = granted.
    static let nfcGPBReadAccessMask: UInt8 = 0x0C
    /// Bits 7–6: mapping major version.
    static let nfcGPBMajorVersionMask: UInt8 = 0xC0

    /// Access bits of a read-only MAD sector (data `010` read-only, trailer `110` frozen),
    /// written by ``ClassicNDEFDriver/makeReadOnly(force:)`` to sector 0 (and 16 on a 4K).
    /// The table has a read-only template for NFC sectors only; this is the same
    /// `07 8F 0F` from AN1304 as remembered (unverified, nfc-reference.md §6.6 / §11 item 12).
    static let madSectorReadOnlyAccessBits: [UInt8] = [0x07, 0x8F, 0x0F]
}

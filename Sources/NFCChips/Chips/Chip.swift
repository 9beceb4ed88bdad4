/// The chips the tables describe; the raw value is the `nfctag` tag name and the file
/// name in `datasheets/chips/`.
///
/// ```swift
/// let chip = Chip(rawValue: "ntag215")!        // .ntag215
/// let spec = ChipTables.spec(for: chip)
/// ```
@nonexhaustive
public enum Chip: String, CaseIterable, Codable, Sendable {
    /// NXP NTAG213 (144 user bytes).
    case ntag213
    /// NXP NTAG215 (504 user bytes).
    case ntag215
    /// NXP NTAG216 (888 user bytes).
    case ntag216
    /// NXP MIFARE Ultralight MF0ICU1 (48 user bytes, no GET_VERSION).
    case ultralight
    /// NXP MIFARE Ultralight EV1 MF0UL11 (48 user bytes).
    case ultralightEV1MF0UL11 = "ultralight-ev1-mf0ul11"
    /// NXP MIFARE Ultralight EV1 MF0UL21 (128 user bytes).
    case ultralightEV1MF0UL21 = "ultralight-ev1-mf0ul21"
    /// NXP MIFARE Ultralight C MF0ICU2 (144 user bytes, 3DES authentication).
    case ultralightC = "ultralight-c"
    /// NXP MIFARE Classic 1K.
    case classic1k
    /// NXP MIFARE Classic 4K.
    case classic4k
    /// A generic NFC Forum Type 4 tag (ISO-DEP, NDEF application).
    case type4
    /// NXP NTAG 424 DNA (NT4H2421Gx): ISO-DEP, AES-128 EV2 secure messaging, SUN messages.
    /// After `type4`, so that an ISO-DEP tag with nothing more to tell is identified as `type4`.
    case ntag424dna
    /// NXP MIFARE DESFire EV1 (MF3ICDx1): applications, files, DES / 3DES / AES keys.
    case desfireEV1 = "desfire-ev1"
    /// NXP MIFARE DESFire EV2 (MF3DX2): EV1 plus EV2 secure messaging and Read_Sig.
    case desfireEV2 = "desfire-ev2"
    /// NXP MIFARE DESFire EV3 (MF3DX3).
    case desfireEV3 = "desfire-ev3"
}

/// The protocol family a chip belongs to; it decides which tag layer drives it.
package enum ChipFamily: String, Codable, CaseIterable, Sendable {
    /// NFC Forum Type 2 tag with NXP NTAG21x extensions.
    case ntag21x
    /// The original MIFARE Ultralight.
    case ultralight
    /// MIFARE Ultralight EV1.
    case ultralightEV1
    /// MIFARE Ultralight C.
    case ultralightC
    /// MIFARE Classic (Crypto1 sectors).
    case mifareClassic
    /// NFC Forum Type 4 tag (ISO-DEP).
    case type4

    /// Whether the chip is page-based and speaks the NFC Forum Type 2 commands.
    package var isType2: Bool {
        switch self {
        case .ntag21x, .ultralight, .ultralightEV1, .ultralightC: true
        case .mifareClassic, .type4: false
        }
    }
}

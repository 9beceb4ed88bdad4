/// The configuration area of an NTAG21x, Ultralight EV1 or Ultralight C.
///
/// ```swift
/// let cfg = ChipTables.spec(for: .ntag215).memory!.configuration!
/// cfg.auth0Page                       // 0x83
/// cfg.field(.prot)?.mask              // 0x80
/// cfg.password?.pwdPage               // 0x85
/// ```
package struct ConfigurationSpec: Codable, Equatable, Sendable {
    /// CFG0 (MIRROR / MOD, RFUI, MIRROR_PAGE, AUTH0) on NTAG21x and EV1.
    @Hex package var cfg0Page: Int?
    /// CFG1 (ACCESS, VCTID / RFUI…) on NTAG21x and EV1.
    @Hex package var cfg1Page: Int?
    /// The named bit fields.
    package var fields: [ConfigurationField]
    /// Password protection (PWD / PACK), if the chip has it.
    package var password: PasswordSpec?
    /// The ASCII mirror of UID and NFC counter (NTAG21x), if the chip has it.
    package var mirror: MirrorSpec?

    /// The field called `name`, if the chip has it.
    package func field(_ name: ConfigurationFieldName) -> ConfigurationField? {
        fields.first { $0.name == name }
    }

    /// The page holding AUTH0 (the first protected page).
    package var auth0Page: Int? { field(.auth0)?.page }
    /// The byte index of AUTH0 inside its page.
    package var auth0Byte: Int? { field(.auth0)?.byte }
    /// The page holding the ACCESS byte (PROT, CFGLCK, AUTHLIM…).
    package var accessPage: Int? { field(.prot)?.page }
    /// Every page that holds a configuration field.
    package var pages: [Int] { Array(Set(fields.map(\.page))).sorted() }
}

/// The names of configuration fields, as the datasheets spell them.
package enum ConfigurationFieldName: String, Codable, CaseIterable, Sendable {
    /// NTAG CFG0 byte 0 bits 7–6: 00 no mirror, 01 UID, 10 NFC counter, 11 both.
    case mirrorConf = "MIRROR_CONF"
    /// NTAG CFG0 byte 0 bits 5–4: start byte inside MIRROR_PAGE.
    case mirrorByte = "MIRROR_BYTE"
    /// CFG0 byte 0 bit 2: strong modulation.
    case strongModulation = "STRG_MOD_EN"
    /// NTAG CFG0 byte 2: page where the mirror starts.
    case mirrorPage = "MIRROR_PAGE"
    /// The first page protected by the password (or 3DES key on UL-C).
    case auth0 = "AUTH0"
    /// UL-C AUTH1 bit 0: 1 = only writes restricted, 0 = reads and writes restricted.
    case auth1 = "AUTH1"
    /// ACCESS bit 7: 1 = reads need the password too.
    case prot = "PROT"
    /// ACCESS bit 6: CFG0/CFG1 permanently write-locked.
    case cfgLock = "CFGLCK"
    /// NTAG ACCESS bit 4: NFC counter enabled.
    case nfcCounterEnable = "NFC_CNT_EN"
    /// NTAG ACCESS bit 3: READ_CNT needs PWD_AUTH.
    case nfcCounterPasswordProtect = "NFC_CNT_PWD_PROT"
    /// ACCESS bits 2–0: failed PWD_AUTH attempts allowed (0 = unlimited).
    case authLimit = "AUTHLIM"
    /// EV1 CFG1 byte 1: the VCSL answer.
    case vctid = "VCTID"
}

/// A bit field in a configuration page.
package struct ConfigurationField: Codable, Equatable, Sendable {
    /// The field's name.
    package var name: ConfigurationFieldName
    /// The page.
    @Hex package var page: Int
    /// The byte inside the page (0–3).
    package var byte: Int
    /// The field's bits inside the byte.
    @Hex package var mask: UInt8
    /// The factory value of the field, already shifted down to bit 0.
    @Hex package var defaultValue: UInt8
    /// What it does.
    package var meaning: String
    /// Present when the field is less certain than the chip's source.
    package var caveat: DatasheetCaveat?

    /// The field's value in `pageBytes` (4 bytes), shifted down to bit 0.
    package func value(in pageBytes: [UInt8]) -> UInt8? {
        guard byte >= 0, byte < pageBytes.count, mask != 0 else { return nil }
        return (pageBytes[byte] & mask) >> UInt8(mask.trailingZeroBitCount)
    }

    /// `pageBytes` with the field set to `value` (shifted up into the mask).
    package func setting(_ value: UInt8, in pageBytes: [UInt8]) -> [UInt8] {
        guard byte >= 0, byte < pageBytes.count, mask != 0 else { return pageBytes }
        var bytes = pageBytes
        let shifted = (value << UInt8(mask.trailingZeroBitCount)) & mask
        bytes[byte] = (bytes[byte] & ~mask) | shifted
        return bytes
    }
}

/// PWD / PACK password protection (NTAG21x, Ultralight EV1).
package struct PasswordSpec: Codable, Equatable, Sendable {
    /// The page holding the 4-byte password.
    @Hex package var pwdPage: Int
    /// The page holding the 2-byte PACK (+ 2 RFUI bytes).
    @Hex package var packPage: Int
    /// The factory password, `FF FF FF FF`.
    @Hex package var defaultPassword: [UInt8]
    /// The factory PACK, `00 00`.
    @Hex package var defaultPACK: [UInt8]
    /// READ / FAST_READ return zeros for PWD and PACK.
    package var readsAsZero: Bool
    /// Where the rules come from.
    package var source: DatasheetSource
}

/// The NTAG21x ASCII mirror (NTAG213/215/216 §8.7): UID and / or NFC counter shown as
/// upper-case hex text in place of user memory when READ / FAST_READ return it.
///
/// ```swift
/// let mirror = ChipTables.spec(for: .ntag213).memory!.configuration!.mirror!
/// mirror.separator   // 0x78 ("x" between UID and counter)
/// ```
package struct MirrorSpec: Codable, Equatable, Sendable {
    /// The MIRROR_CONF bit that mirrors the UID (value `01`; `11` mirrors both).
    @Hex package var uidMirrorBit: UInt8
    /// The MIRROR_CONF bit that mirrors the NFC counter (value `10`).
    @Hex package var counterMirrorBit: UInt8
    /// The byte between UID and counter when both are mirrored (`x`).
    @Hex package var separator: UInt8
    /// The lowest MIRROR_PAGE that mirrors anything (the first user page).
    @Hex package var firstMirrorPage: Int
    /// Whether the counter is mirrored only when NFC_CNT_EN = 1.
    package var counterNeedsCounterEnabled: Bool
    /// Present when the rules are less certain than the chip's source.
    package var caveat: DatasheetCaveat?
    /// Where the rules come from.
    package var source: DatasheetSource
}

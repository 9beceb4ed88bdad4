/// The single entry point to the datasheet tables.
///
/// The values are generated from `datasheets/` by `nfcchips-gen` (`make tables`) and
/// compiled in; a test fails when the JSON files and the compiled values differ.
///
/// ```swift
/// let spec = ChipTables.spec(for: .ntag213)
/// spec.memory?.userPages                 // 4...39
/// ChipTables.pn532.code(.inDataExchange) // 0x40
/// ChipTables.crcA([0x30, 0x00])          // [0x02, 0xA8]
/// ```
package enum ChipTables {
    /// Every chip, in ``Chip/allCases`` order.
    package static let chips: [ChipSpec] = GeneratedTables.chips.sorted {
        (Chip.allCases.firstIndex(of: $0.chip) ?? 0) < (Chip.allCases.firstIndex(of: $1.chip) ?? 0)
    }

    /// The spec of `chip`. Every ``Chip`` has a file in `datasheets/chips/` (a test checks it).
    package static func spec(for chip: Chip) -> ChipSpec {
        guard let spec = chips.first(where: { $0.chip == chip }) else {
            preconditionFailure("datasheets/chips/\(chip.rawValue).json is missing: run make tables")
        }
        return spec
    }

    /// The PN532 reader chip: frames, commands, status codes, registers, timing.
    package static let pn532: PN532Spec = GeneratedTables.pn532

    /// The readers: libnfc drivers, host-link frame limits, the ACR122U's firmware, the PN533.
    package static let readers: ReaderTable = GeneratedTables.readers

    /// ISO/IEC 14443-3A activation, CRC_A and BCC.
    package static let iso14443a: ISO14443ASpec = GeneratedTables.iso14443a
    /// ISO/IEC 14443 Type B: REQB, ATTRIB, HLTB, the ATQB layout and protocol info, the
    /// PN532's BrTy 03 listing, the emulated card.
    package static let iso14443b: ISO14443BSpec = GeneratedTables.iso14443b

    /// NFC Forum Type 1 (Topaz, Topaz 512): commands, header ROM, memory, CC, formatted
    /// images, what a PN532 reaches.
    package static let type1: Type1Spec = GeneratedTables.type1
    /// ST25TB and SRx cards (`datasheets/st25tb.json`).
    package static let st25tb: ST25TBSpec = GeneratedTables.st25tb

    /// ISO/IEC 7816-4 APDUs: length encodings, status words, GET RESPONSE.
    package static let iso7816: ISO7816Spec = GeneratedTables.iso7816

    /// The NFC Forum Type 2 mapping: CC, TLVs, ACK / NAK.
    package static let type2: Type2Spec = GeneratedTables.type2

    /// The NFC Forum Type 4 mapping: AIDs, CC file, APDUs, status words.
    package static let type4: Type4Spec = GeneratedTables.type4

    /// MIFARE DESFire family facts: commands, status codes, key settings, the Type 4 mapping.
    package static let desfire: DESFireSpec = GeneratedTables.desfire

    /// FeliCa and the NFC Forum Type 3 mapping: commands, Polling, CRC, PMm timing, IC
    /// codes, the Attribute Information Block, the FeliCa Lite-S memory map.
    package static let felica: FeliCaSpec = GeneratedTables.felica

    /// MIFARE Classic family facts: trailers, access conditions, keys, MAD.
    package static let classic: ClassicSpec = GeneratedTables.mifareClassic

    /// The MIFARE Application Directory (same as `classic.mad`).
    package static var mad: MADSpec { classic.mad }

    /// NXP originality-signature keys.
    package static let originalitySignatures: OriginalitySignatureTable = GeneratedTables.originalitySignatures

    /// CRC_A of `bytes` (2 bytes, LSB first), with the ISO/IEC 14443-3 parameters of the table.
    package static func crcA(_ bytes: [UInt8]) -> [UInt8] { iso14443a.crc(bytes) }

    /// The BCC (XOR of the bytes) of a UID part.
    package static func bcc(_ bytes: [UInt8]) -> UInt8 { iso14443a.bcc(bytes) }

    /// The originality-signature key of `chip`, if it has one.
    package static func originalitySignatureKey(for chip: Chip) -> OriginalitySignatureKey? {
        spec(for: chip).originalitySignatureKey.map { originalitySignatures.keys[$0] }
    }
}

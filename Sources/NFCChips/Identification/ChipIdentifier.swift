/// Identifies a chip from ATQA, SAK, the GET_VERSION answer and the Ultralight C probe,
/// using only the tables.
///
/// Rules, in order:
/// 1. SAK equal to a MIFARE Classic chip's SAK (`08` 1K, `18` 4K) → that Classic chip.
/// 2. SAK with the ISO/IEC 14443-4 bit (`20`) → the Type 4 chip whose native GetVersion
///    hardware part (`90 60 00 00 00`, the first 7 bytes) matches `isoDEPVersion` in
///    vendor, type, subtype, storage size and protocol (`.ntag424dna`: 04 04 02 … 11 05),
///    or for MIFARE DESFire in vendor, type and major hardware version, which names the
///    generation (`04 01 … 01` EV1, `12` EV2, `33` EV3; subtype and storage vary);
///    otherwise `.type4`. The question is asked only of tags whose UID or ATS already names
///    a chip that answers it (``asksISODEPVersion(uid:sak:ats:)``: NXP's code `04` in a
///    7-byte UID, or a random ID with such a chip's ATS), so other Type 4 tags — phones
///    among them — cost no frame more.
/// 3. ATQA and SAK of the Type 2 chips (`0044` / `00`):
///    - a GET_VERSION answer equal to one the tables list → that chip; otherwise one with the
///      same header, vendor, product type, storage size and protocol (a new minor version)
///      → that chip; otherwise unknown. NTAG215 is therefore never taken for an Ultralight.
///    - no GET_VERSION answer: the UL-C probe (`1A 00` answered with `AF`) → `.ultralightC`;
///      probe done and not answered → `.ultralight`; probe not done (`nil`) → unknown.
/// 4. Anything else → unknown.
///
/// ```swift
/// ChipIdentifier.identify(atqa: 0x0044, sak: 0x00,
///                         getVersion: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03],
///                         answersUltralightCAuthenticate: nil) // .identified(.ntag215)
/// ```
package enum ChipIdentifier {
    /// Identifies a chip; see the type's documentation for the rules.
    package static func identify(
        atqa: UInt16,
        sak: UInt8,
        getVersion: [UInt8]?,
        answersUltralightCAuthenticate: Bool?,
        isoDEPVersion: [UInt8]? = nil
    ) -> ChipIdentification {
        let unknown = ChipIdentification.unknown(atqa: atqa, sak: sak, getVersion: getVersion)
        let chips = ChipTables.chips

        if let classic = chips.first(where: { $0.family == .mifareClassic && $0.activation.sak == sak }) {
            return .identified(classic.chip)
        }
        if sak & ChipTables.iso14443a.sakISO14443_4Bit != 0 {
            if let isoDEPVersion,
                let chip = isoDEPChips.first(where: {
                    ChipTables.spec(for: $0.chip).desfire == nil
                        ? Self.sameProduct($0.hardware, isoDEPVersion)
                        : Self.sameGeneration($0.hardware, isoDEPVersion)
                })
            {
                return .identified(chip.chip)
            }
            if let type4 = chips.first(where: { $0.family == .type4 }) { return .identified(type4.chip) }
        }

        let type2 = chips.filter { $0.family.isType2 }
        guard type2.contains(where: { $0.activation.atqa == atqa && $0.activation.sak == sak }) else { return unknown }

        if let getVersion {
            if let exact = type2.first(where: { $0.getVersion?.allResponses.contains(getVersion) ?? false }) {
                return .identified(exact.chip)
            }
            guard let answer = try? GetVersionInfo(bytes: getVersion) else { return unknown }
            let sameProduct = type2.first { spec in
                spec.getVersion?.allResponses.contains { response in
                    guard let known = try? GetVersionInfo(bytes: response) else { return false }
                    return known.header == answer.header && known.vendor == answer.vendor
                        && known.productType == answer.productType && known.storageSize == answer.storageSize
                        && known.protocolType == answer.protocolType
                } ?? false
            }
            return sameProduct.map { .identified($0.chip) } ?? unknown
        }

        switch answersUltralightCAuthenticate {
        case true?:
            return type2.first { $0.family == .ultralightC }.map { .identified($0.chip) } ?? unknown
        case false?:
            return type2.first { $0.family == .ultralight }.map { .identified($0.chip) } ?? unknown
        case nil:
            return unknown
        }
    }

    /// Whether identification should ask an ISO-DEP tag for its native GetVersion: the SAK
    /// says ISO-DEP and the UID has the length and manufacturer code (ISO/IEC 7816-6) of a
    /// Type 4 chip in the tables that answers it — NXP's `04` in a 7-byte UID — or the UID
    /// is a random ID (`08` and three bytes) and the ATS is such a chip's, byte for byte (a
    /// DESFire's `75 77 81 02 80`, an NTAG 424 DNA's `77 77 71 02 80`; with or without its
    /// length byte, which libnfc drops). Phones and other makers' tags are not asked.
    package static func asksISODEPVersion(uid: [UInt8], sak: UInt8, ats: [UInt8] = []) -> Bool {
        guard sak & ChipTables.iso14443a.sakISO14443_4Bit != 0, let code = uid.first else { return false }
        if isoDEPChips.contains(where: { $0.manufacturerCode == code && $0.uidLength == uid.count }) { return true }
        let randomID = ChipTables.desfire.configuration.randomUIDFirstByte
        guard code == randomID, uid.count == 4, !ats.isEmpty else { return false }
        func body(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
            bytes.first.map { Int($0) == bytes.count } == true ? bytes.dropFirst() : bytes[...]
        }
        return isoDEPChips.contains { chip in chip.ats.map { body($0) == body(ats) } ?? false }
    }

    /// The Type 4 chips with a native GetVersion in their table.
    static var isoDEPChips: [(chip: Chip, hardware: [UInt8], manufacturerCode: UInt8?, uidLength: Int, ats: [UInt8]?)] {
        ChipTables.chips.compactMap { spec in
            guard spec.family == .type4, let version = spec.ntag424?.getVersion ?? spec.desfire?.getVersion else {
                return nil
            }
            return (
                spec.chip, version.hardware, spec.activation.manufacturerCode, spec.activation.uidLength,
                spec.activation.ats
            )
        }
    }

    /// Vendor, type, subtype, storage size and protocol agree (bytes 0, 1, 2, 5, 6; the
    /// major and minor versions may differ).
    static func sameProduct(_ known: [UInt8], _ answer: [UInt8]) -> Bool {
        guard known.count == 7, answer.count == 7 else { return false }
        return [0, 1, 2, 5, 6].allSatisfy { known[$0] == answer[$0] }
    }

    /// Vendor, type and major hardware version agree (bytes 0, 1, 3): a DESFire generation
    /// in any storage size.
    static func sameGeneration(_ known: [UInt8], _ answer: [UInt8]) -> Bool {
        guard known.count == 7, answer.count == 7 else { return false }
        return [0, 1, 3].allSatisfy { known[$0] == answer[$0] }
    }

    /// Whether `answer` to `1A 00` is the Ultralight C's first authentication answer
    /// (`AF` followed by 8 bytes).
    package static func isUltralightCAuthenticateAnswer(_ answer: [UInt8]) -> Bool {
        guard let auth = ChipTables.spec(for: .ultralightC).ultralightCAuthentication,
            let command = ChipTables.spec(for: .ultralightC).command(.authenticate)
        else { return false }
        return answer.count == command.answerLength && answer.first == auth.continuationByte
    }
}

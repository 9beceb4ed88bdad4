import NFCChips

/// Why an emulator or a tag could not be set up from names, UIDs or a saved state.
public enum EmulatorSetupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not one of ``EmulatedTagFactory/tagNames``.
    case unknownTagName(String)
    /// The UID does not fit the chip.
    case uidLength(tag: String, expected: Int, got: Int)
    /// A saved state that does not fit its tag.
    case invalidState(String)
    /// The pseudo-terminal could not be opened.
    case pseudoTerminal(PseudoTerminalError)

    /// One line a person understands.
    public var description: String {
        switch self {
        case let .unknownTagName(name):
            "unknown tag '\(name)': expected one of \(EmulatedTagFactory.tagNames.joined(separator: " "))"
        case let .uidLength(tag, expected, got): "a \(tag) UID has \(expected) bytes, got \(got)"
        case let .invalidState(reason): "saved tag state unusable: \(reason)"
        case let .pseudoTerminal(error): "cannot open a pseudo-terminal: \(error)"
        }
    }
}

/// Builds tag models by their `nfctag` names (`ntag213` … `type4`, the ``NFCChips/Chip`` raw values).
///
/// ```swift
/// let tag = try EmulatedTagFactory.make(name: "classic1k")             // default UID
/// let other = try EmulatedTagFactory.make(name: "ntag215", uid: [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80])
/// ```
public enum EmulatedTagFactory {
    /// Every tag name the factory knows, in the tables' order.
    public static var tagNames: [String] {
        let chips = Chip.allCases.map(\.rawValue)
        return (chips.contains(ntag424Name) ? chips : chips + [ntag424Name]) + [
            feliCaLiteSName, feliCaStandardName, typeBType4Name,
        ] + Type1ChipName.allCases.map(\.rawValue) + [st25tbName]
    }

    /// The `nfctag` name of the NTAG 424 DNA model.
    public static let ntag424Name = "ntag424dna"

    /// The `nfctag` name of the FeliCa Lite-S model (with its NDEF system on, formatted).
    public static let feliCaLiteSName = "felica-lite-s"

    /// The `nfctag` name of the FeliCa Standard model (a plain system and the NDEF system).
    public static let feliCaStandardName = "felica-standard"

    /// The `nfctag` name of the NFC Forum Type 4 tag on an ISO/IEC 14443 Type B card.
    public static let typeBType4Name = "iso14443b-type4"

    /// The `nfctag` name of the ST25TB512-AC model.
    public static let st25tbName = ChipTables.st25tb.tagName

    /// The default UID0-6 of an emulated Type 1 tag: UID0-3 as nfcpy's Topaz test data has
    /// them, then a pattern.
    static let type1DefaultUID: [UInt8] = [0xB2, 0x56, 0x54, 0x00, 0x11, 0x22, 0x33]

    /// A fixed IDm for the `index`-th emulated FeliCa card: a manufacturer code, then a
    /// recognisable pattern, different per index.
    public static func feliCaDefaultIDm(index: Int = 0) -> [UInt8] {
        [0x01, 0x2E, 0x5A, 0x11, 0x22, 0x33, 0x44, 0x55 &+ UInt8(truncatingIfNeeded: index)]
    }

    /// A factory-fresh tag called `name` with `uid` (or ``defaultUID(for:index:)``) and,
    /// for chips with READ_SIG, `signature` (or one by ``EmulatorSigningKey``).
    public static func make(name: String, uid: [UInt8]? = nil, signature: [UInt8]? = nil, index: Int = 0)
        throws(EmulatorSetupError) -> any EmulatedTag
    {
        if name == feliCaLiteSName || name == feliCaStandardName {
            let idm = uid ?? feliCaDefaultIDm(index: index)
            guard idm.count == 8 else { throw .uidLength(tag: name, expected: 8, got: idm.count) }
            guard name == feliCaLiteSName else { return FeliCaStandardTag(idm: idm) }
            // As NFC Forum Type 3 stickers are sold: the NDEF system on, formatted, empty.
            var sticker = FeliCaLiteSTag(idm: idm, ndef: true)
            sticker.setNDEFMessage([])
            return sticker
        }
        if let chip = Type1ChipName(rawValue: name) {
            var fallback = type1DefaultUID
            fallback[0] &+= UInt8(truncatingIfNeeded: index)
            let uid = uid ?? fallback
            guard uid.count == ChipTables.type1.uidLength else {
                throw .uidLength(tag: name, expected: ChipTables.type1.uidLength, got: uid.count)
            }
            return Type1Tag(chip: chip, uid: uid)
        }
        if name == st25tbName {
            var fallback = ChipTables.st25tb.emulatedUID
            fallback[0] &+= UInt8(truncatingIfNeeded: index)
            let uid = uid ?? fallback
            guard uid.count == ChipTables.st25tb.uidLength else {
                throw .uidLength(tag: name, expected: ChipTables.st25tb.uidLength, got: uid.count)
            }
            return ST25TBTag(uid: uid)
        }
        if name == typeBType4Name {
            var pupi = ChipTables.iso14443b.pupi(atqb: ChipTables.iso14443b.emulatedCard.atqb)
            pupi[pupi.count - 1] &+= UInt8(truncatingIfNeeded: index)
            pupi = uid ?? pupi
            do {
                return try Type4Tag(typeBPUPI: pupi)
            } catch {
                throw .uidLength(tag: name, expected: ChipTables.iso14443b.atqb.pupiLength, got: pupi.count)
            }
        }
        if name == ntag424Name {
            let uid = uid ?? ntag424DefaultUID(index: index)
            guard uid.count == ntag424DefaultUID().count else {
                throw .uidLength(tag: name, expected: ntag424DefaultUID().count, got: uid.count)
            }
            return NTAG424DNATag(uid: uid, signature: signature)
        }
        guard let chip = Chip(rawValue: name) else { throw .unknownTagName(name) }
        let uid = uid ?? defaultUID(for: chip, index: index)
        let expected = ChipTables.spec(for: chip).activation.uidLength
        guard uid.count == expected else { throw .uidLength(tag: name, expected: expected, got: uid.count) }
        if ChipTables.spec(for: chip).desfire != nil {
            return try DESFireTag(chip: chip, uid: uid, signature: signature)
        }
        do {
            switch ChipTables.spec(for: chip).family {
            case .mifareClassic: return try ClassicTag(chip: chip, uid: uid)
            case .type4: return try Type4Tag(chip: chip, uid: uid)
            case .ntag21x, .ultralight, .ultralightEV1, .ultralightC:
                return try Type2Tag(chip: chip, uid: uid, signature: signature)
            }
        } catch {
            throw .uidLength(tag: name, expected: expected, got: uid.count)
        }
    }

    /// A fixed UID for the `index`-th emulated tag of `chip`: the chip's manufacturer code
    /// (NXP for the NXP chips) followed by a recognisable pattern, different per index.
    public static func defaultUID(for chip: Chip, index: Int = 0) -> [UInt8] {
        let spec = ChipTables.spec(for: chip)
        let tail: [UInt8] = [0xE0, 0x5A, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77]
        var uid = [spec.activation.manufacturerCode ?? 0x3E] + tail.prefix(spec.activation.uidLength - 1)
        uid[uid.count - 1] &+= UInt8(truncatingIfNeeded: index)
        return uid
    }

    /// The default UID of the `index`-th emulated NTAG 424 DNA: NXP's manufacturer code, then
    /// the same pattern as the other chips.
    public static func ntag424DefaultUID(index: Int = 0) -> [UInt8] {
        var uid: [UInt8] = [0x04, 0xE0, 0x5A, 0x11, 0x22, 0x33, 0x44]
        uid[uid.count - 1] &+= UInt8(truncatingIfNeeded: index)
        return uid
    }

    /// The tag name of a model built by this factory.
    public static func name(of tag: any EmulatedTag) -> String? {
        switch tag {
        case let tag as Type2Tag: tag.spec.chip.rawValue
        case let tag as ClassicTag: tag.spec.chip.rawValue
        case let tag as Type4Tag: tag.identity.typeB == nil ? tag.spec.chip.rawValue : typeBType4Name
        case is NTAG424DNATag: ntag424Name
        case let tag as DESFireTag: tag.chip.rawValue
        case is FeliCaLiteSTag: feliCaLiteSName
        case is FeliCaStandardTag: feliCaStandardName
        case let tag as Type1Tag: tag.chip.name.rawValue
        case is ST25TBTag: st25tbName
        default: nil
        }
    }
}

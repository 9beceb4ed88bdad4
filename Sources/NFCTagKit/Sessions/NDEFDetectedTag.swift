import NFCChips
import NFCTags

/// A tag an ``NDEFSession`` found in the field: what selection learnt (UID, ATQA, SAK,
/// ATS; a FeliCa card's IDm, PMm and system code; a type B card's ATQB; a Type 1 tag's
/// header ROM) and the chip that identification (GET_VERSION, the Ultralight C probe,
/// ATQA / SAK) names — `nil` when no chip in the tables matches, and for a FeliCa card or a
/// Type 1 tag (its PMm, its header ROM name it); a type B card that speaks ISO-DEP is a
/// generic Type 4 tag (`type4`).
///
/// ```swift
/// for await event in session.events {
///     if case .tagsDetected(let tags) = event, tags.count == 1 {
///         print(tags[0])   // 04a1b2c3d4e5f6 ntag215
///     }
/// }
/// ```
public struct NDEFDetectedTag: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// UID, ATQA, SAK and ATS (or IDm, PMm and system code) as the reader reported them.
    public var target: NFCTarget
    /// The identified chip, or `nil` when unknown.
    public var chip: Chip?

    /// A detected type A tag.
    package init(target: ISO14443ATarget, chip: Chip?) {
        self.target = .iso14443A(target)
        self.chip = chip
    }

    /// A detected FeliCa card, type B card or Type 1 tag.
    package init(card: NFCTarget) {
        self.target = card
        self.chip = card.typeB?.isISODEP == true ? .type4 : nil
    }

    /// The same tag: the same identifier and chip.
    public static func == (lhs: NDEFDetectedTag, rhs: NDEFDetectedTag) -> Bool {
        lhs.uid == rhs.uid && lhs.chip == rhs.chip
    }

    /// Hashes the identifier and chip.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(uid)
        hasher.combine(chip)
    }

    /// The UID identifies the tag within a session.
    public var id: [UInt8] { target.uid }
    /// The UID (4, 7 or 10 bytes; a FeliCa card's 8-byte IDm, a type B card's 4-byte PUPI, a
    /// Type 1 tag's UID0-6).
    public var uid: [UInt8] { target.uid }
    /// The UID as lowercase hex.
    package var uidHex: String { target.uid.hexString() }
    /// The `nfctag` tag name of the chip (`ntag215`, `ultralight-c`, `felica-lite-s`, …) or
    /// `unknown`.
    package var chipName: String {
        chip?.rawValue ?? target.feliCa?.ic?.name ?? target.type1?.chip?.name.rawValue
            ?? (target.st25tb == nil ? "unknown" : ChipTables.st25tb.tagName)
    }

    /// `04a1b2c3d4e5f6 ntag215`.
    public var description: String { "\(uidHex) \(chipName)" }

    /// The chip as ATQA / SAK alone tell (before any command reaches the tag).
    static func chipFromActivation(_ target: ISO14443ATarget) -> Chip? {
        let activation = TagTarget(target)
        return ChipIdentifier.identify(
            atqa: activation.atqa, sak: activation.sak, getVersion: nil,
            answersUltralightCAuthenticate: nil
        ).chip
    }
}

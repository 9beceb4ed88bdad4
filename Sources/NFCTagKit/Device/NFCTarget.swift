/// A tag as the reader found it, by technology: what activation (type A, type B), Polling
/// (FeliCa) or the Jewel poll and RID (Type 1) told before any command reached it.
///
/// ```swift
/// switch session.target {
/// case .iso14443A(let tag): print(tag.atqa, tag.sak)
/// case .feliCa(let card): print(card.pmm)
/// @unknown default: break
/// }
/// ```
@nonexhaustive
public enum NFCTarget: Sendable {
    /// An ISO/IEC 14443-A tag: UID, ATQA, SAK and ATS.
    case iso14443A(ISO14443ATarget)
    /// A FeliCa card: IDm, PMm and the system code it answered for.
    case feliCa(FeliCaTarget)
    /// An ISO/IEC 14443 Type B card: its ATQB's application data and protocol info.
    case iso14443B(ISO14443BTarget)
    /// An NFC Forum Type 1 tag (Topaz): its header ROM.
    case type1(Type1Target)
    /// An ST25TB or SRx card (ISO/IEC 14443-2 type B framing, ST's commands).
    case st25tb(ST25TBTarget)

    /// The tag's identifier: a type A tag's UID, a FeliCa card's IDm, a type B card's PUPI, a
    /// Type 1 tag's UID0-6 (its JEWELID, then the rest of block 0), an ST25TB's 8-byte UID; apps read it as
    /// ``TagSession/uid``.
    package var uid: [UInt8] {
        switch self {
        case .iso14443A(let tag): tag.uid
        case .feliCa(let card): card.idm
        case .iso14443B(let card): card.pupi
        case .type1(let tag): tag.uid
        case .st25tb(let card): card.uid
        }
    }

    /// The type A activation, for a type A tag.
    package var typeA: ISO14443ATarget? {
        if case .iso14443A(let tag) = self { return tag }
        return nil
    }

    /// The Type 1 tag, for one.
    package var type1: Type1Target? {
        if case .type1(let tag) = self { return tag }
        return nil
    }

    /// The type B card, for one.
    package var typeB: ISO14443BTarget? {
        if case .iso14443B(let card) = self { return card }
        return nil
    }

    /// The ST25TB card, for one.
    package var st25tb: ST25TBTarget? {
        if case .st25tb(let card) = self { return card }
        return nil
    }

    /// The FeliCa card, for one.
    package var feliCa: FeliCaTarget? {
        if case .feliCa(let card) = self { return card }
        return nil
    }
}

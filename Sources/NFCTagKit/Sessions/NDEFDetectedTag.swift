import NFCChips
import NFCTags

/// A tag an ``NDEFSession`` found in the field: what selection learnt (UID, ATQA, SAK,
/// ATS) and the chip that identification (GET_VERSION, the Ultralight C probe, ATQA /
/// SAK) names — `nil` when no chip in the tables matches.
///
/// ```swift
/// for await event in session.events {
///     if case .tagsDetected(let tags) = event, tags.count == 1 {
///         print(tags[0])   // 04a1b2c3d4e5f6 ntag215
///     }
/// }
/// ```
public struct NDEFDetectedTag: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// UID, ATQA, SAK and ATS as the reader reported them.
    public var target: ISO14443ATarget
    /// The identified chip, or `nil` when unknown.
    public var chip: Chip?

    /// A detected tag.
    package init(target: ISO14443ATarget, chip: Chip?) {
        self.target = target
        self.chip = chip
    }

    /// The UID identifies the tag within a session.
    public var id: [UInt8] { target.uid }
    /// The UID (4, 7 or 10 bytes).
    public var uid: [UInt8] { target.uid }
    /// The UID as lowercase hex.
    package var uidHex: String { target.uidHex }
    /// The `nfctag` tag name of the chip (`ntag215`, `ultralight-c`, …) or `unknown`.
    package var chipName: String { chip?.rawValue ?? "unknown" }

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

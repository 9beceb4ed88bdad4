import NFCChips

/// A tag found in the field by an ISO/IEC 14443-A anticollision: what the reader learnt
/// while selecting it, before any command reaches the tag.
///
/// ```swift
/// let target = try await TagSession.connect(on: device).target
/// print(target)   // uid 04a1b2c3d4e5f6 atqa 0044 sak 00
/// ```
public struct ISO14443ATarget: Sendable, Hashable, CustomStringConvertible {
    /// The UID (NFCID1) without cascade tags: 4, 7 or 10 bytes.
    public var uid: [UInt8]
    /// ATQA (SENS_RES), in the order the reader returned it (two bytes).
    public var atqa: [UInt8]
    /// SAK (SEL_RES).
    public var sak: UInt8
    /// The answer to select (ATS) of an ISO-DEP (Type 4) target without its length byte;
    /// empty for tags that are not ISO-DEP.
    public var ats: [UInt8]

    /// Creates a target description.
    package init(uid: [UInt8], atqa: [UInt8], sak: UInt8, ats: [UInt8] = []) {
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.ats = ats
    }

    /// Whether the UID is a random ID (ISO/IEC 14443-3: single size, UID0 `08`): the tag
    /// draws a new one whenever the field comes back, so it names the tag only until then.
    public var hasRandomUID: Bool { Self.isRandomUID(uid) }

    /// Whether `uid` is a random ID (4 bytes, first byte `08`).
    package static func isRandomUID(_ uid: [UInt8]) -> Bool { uid.count == 4 && uid[0] == 0x08 }

    /// The UID as lowercase hex, the form logs and the CLI use.
    package var uidHex: String { uid.hexString() }

    /// `uid 04a1b2… atqa 0044 sak 00`.
    public var description: String {
        var text = "uid \(uid.hexString()) atqa \(atqa.hexString()) sak \([sak].hexString())"
        if !ats.isEmpty { text += " ats \(ats.hexString())" }
        return text
    }
}

extension ISO14443ATarget {
    /// Whether the SAK says the tag speaks ISO/IEC 14443-4 (ISO-DEP).
    var isISODEP: Bool { sak & ChipTables.iso14443a.sakISO14443_4Bit != 0 }
}

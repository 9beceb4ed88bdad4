import NFCChips

/// An NFC Forum Type 1 tag (Innovision Jewel, Topaz, Topaz 512) found by the reader's Jewel
/// poll: SENS_RES `0C 00`, no anticollision, then RID. Its UID0-6 (the JEWELID the reader
/// lists, then the rest of block 0) is ``TagSession/uid``.
///
/// ```swift
/// if case .type1(let tag) = session.target { print(tag.headerROM) }   // [0x11, 0x48]: a Topaz
/// ```
public struct Type1Target: Sendable {
    /// UID0-3, what the reader lists.
    package var jewelID: [UInt8]
    /// HR0 and HR1 as RID gave them: `11 48` a Topaz, `12 4C` a Topaz 512.
    public var headerROM: [UInt8]
    /// UID0-6, block 0 (the JEWELID, then the three bytes READ gives).
    package var uid: [UInt8]

    package init(jewelID: [UInt8], headerROM: [UInt8], uid: [UInt8]) {
        self.jewelID = jewelID
        self.headerROM = headerROM
        self.uid = uid
    }

    /// The chip the header ROM names, if the table knows it.
    package var chip: Type1ChipSpec? {
        guard headerROM.count == 2 else { return nil }
        return ChipTables.type1.chip(hr0: headerROM[0], hr1: headerROM[1])
    }
}

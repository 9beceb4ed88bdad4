import NFCChips

/// An ST25TB or SRx card (ST's ISO/IEC 14443-2 type B cards: transit tickets), found by
/// Initiate, Select and Get_UID on type B framing. Its 8-byte UID, least significant byte
/// first as libnfc lists it (`… 02 D0`), is ``TagSession/uid``; the chip ID in it names
/// the product.
///
/// ```swift
/// if case .st25tb = session.target { print(session.uid) }   // b6c061a0001b02d0
/// ```
public struct ST25TBTarget: Sendable {
    /// The UID as Get_UID sends it.
    package var uid: [UInt8]

    package init(uid: [UInt8]) { self.uid = uid }

    /// The chip the UID's chip ID names, if the table knows it.
    package var chip: ST25TBChipSpec? { ChipTables.st25tb.chip(uid: uid) }
}

import NFCChips

/// An ISO/IEC 14443 Type B card found by REQB and ATTRIB: what its ATQB told before any
/// command reaches it. Its PUPI is ``TagSession/uid``.
///
/// ```swift
/// if case .iso14443B(let card) = session.target {
///     print(card.applicationData, card.protocolInfo)
/// }
/// ```
public struct ISO14443BTarget: Sendable {
    /// The PUPI (Pseudo-Unique PICC Identifier): 4 bytes.
    package var pupi: [UInt8]
    /// The application data of ATQB (4 bytes: AFI, CRC_B of the AID, number of applications,
    /// as the card fills them), as Core NFC's `applicationData` has it.
    public var applicationData: [UInt8]
    /// The protocol info of ATQB (3 bytes: bit rates; frame size and protocol type; FWI,
    /// ADC and FO).
    public var protocolInfo: [UInt8]

    package init(pupi: [UInt8], applicationData: [UInt8], protocolInfo: [UInt8]) {
        self.pupi = pupi
        self.applicationData = applicationData
        self.protocolInfo = protocolInfo
    }

    /// The ATQB these fields came from.
    package var atqb: [UInt8] { [ChipTables.iso14443b.atqb.firstByte] + pupi + applicationData + protocolInfo }

    /// Whether the card speaks ISO/IEC 14443-4 (ISO-DEP), as its protocol info says.
    package var isISODEP: Bool { ChipTables.iso14443b.isISO14443_4(atqb: atqb) }
}

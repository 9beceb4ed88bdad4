import NFCChips

/// A FeliCa card found by Polling: what the reader learnt before any command reaches it.
///
/// ```swift
/// if let card = try await device.selectFeliCa(systemCode: 0x12FC) {
///     print(card.idm.hexString(), card.systemCode.map { String($0, radix: 16) } ?? "-")
/// }
/// ```
package struct FeliCaTarget: Sendable, Hashable, CustomStringConvertible {
    /// The IDm (Manufacture ID): 8 bytes that name the card, and the system, in every command.
    package var idm: [UInt8]
    /// The PMm (Manufacture Parameter): the IC code and the response times.
    package var pmm: [UInt8]
    /// The system code the card answered Polling for, when the reader asked for it.
    package var systemCode: UInt16?
    /// The bit rate the card answered at: 212 or 424 kbit/s.
    package var bitRate: Int

    package init(idm: [UInt8], pmm: [UInt8], systemCode: UInt16?, bitRate: Int) {
        self.idm = idm
        self.pmm = pmm
        self.systemCode = systemCode
        self.bitRate = bitRate
    }

    /// The kind of chip the IC code in PMm names, if the table knows it.
    package var ic: FeliCaICName? { ChipTables.felica.ic(pmm: pmm) }

    /// `idm 012e4c2a31120b05 pmm 00f1000000014300 sc 12fc 212 kbit/s`.
    package var description: String {
        var text = "idm \(idm.hexString()) pmm \(pmm.hexString())"
        if let systemCode { text += " sc \([UInt8(systemCode >> 8), UInt8(systemCode & 0xFF)].hexString())" }
        return text + " \(bitRate) kbit/s"
    }
}

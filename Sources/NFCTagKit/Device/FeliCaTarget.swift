import NFCChips

/// A FeliCa card found by Polling: what the reader learnt before any command reaches it.
///
/// ```swift
/// let session = try await TagSession.connect(on: device)
/// if case .feliCa(let card) = session.target {
///     print(card.idm.hexString(), card.systemCode.map { String($0, radix: 16) } ?? "-")
/// }
/// ```
public struct FeliCaTarget: Sendable, CustomStringConvertible {
    /// The IDm (Manufacture ID): 8 bytes that name the card, and the system, in every command.
    public var idm: [UInt8]
    /// The PMm (Manufacture Parameter): the IC code and the response times.
    public var pmm: [UInt8]
    /// The system code the card answered Polling for, when the reader asked for it.
    public var systemCode: UInt16?
    /// The bit rate the card answered at: 212 or 424 kbit/s.
    public var bitRate: Int

    package init(idm: [UInt8], pmm: [UInt8], systemCode: UInt16?, bitRate: Int) {
        self.idm = idm
        self.pmm = pmm
        self.systemCode = systemCode
        self.bitRate = bitRate
    }

    /// The kind of chip the IC code in PMm names, if the table knows it.
    package var ic: FeliCaICName? { ChipTables.felica.ic(pmm: pmm) }

    /// `idm 012e4c2a31120b05 pmm 00f1000000014300 sc 12fc 212 kbit/s`.
    public var description: String {
        var text = "idm \(idm.hexString()) pmm \(pmm.hexString())"
        if let systemCode { text += " sc \([UInt8(systemCode >> 8), UInt8(systemCode & 0xFF)].hexString())" }
        return text + " \(bitRate) kbit/s"
    }
}

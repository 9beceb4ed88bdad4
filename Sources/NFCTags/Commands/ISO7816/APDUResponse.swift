import NFCChips

/// The answer to an ``APDU``: the data and the status word SW1 SW2, with its meaning from
/// `datasheets/iso7816.json` — Core NFC's `(Data, UInt8, UInt8)` of `sendCommand(apdu:)`.
///
/// ```swift
/// let answer = try await tag.sendCommand(select)
/// answer.statusWord            // 0x9000
/// answer.status?.name          // .normalProcessing
/// answer.isSuccess             // true for 9000 and 9100
/// ```
public struct APDUResponse: Sendable, Hashable, CustomStringConvertible {
    /// The answer data (every part, when GET RESPONSE fetched it in pieces).
    public var data: [UInt8]
    /// SW1.
    public var sw1: UInt8
    /// SW2.
    public var sw2: UInt8

    /// An answer made of its parts.
    package init(data: [UInt8], sw1: UInt8, sw2: UInt8) {
        self.data = data
        self.sw1 = sw1
        self.sw2 = sw2
    }

    /// Splits an R-APDU into data and SW1 SW2; `nil` when it is shorter than a status word.
    public init?(bytes: [UInt8]) {
        let length = ChipTables.iso7816.statusWordLength
        guard bytes.count >= length else { return nil }
        self.init(data: Array(bytes.dropLast(length)), sw1: bytes[bytes.count - length], sw2: bytes[bytes.count - 1])
    }

    /// SW1 SW2 as one value, e.g. `0x9000`.
    public var statusWord: UInt16 { UInt16(sw1) << 8 | UInt16(sw2) }

    /// The table's entry for the status word (exact, else by SW1), `nil` when the table has none.
    package var status: ISO7816StatusWordSpec? { ChipTables.iso7816.statusWord(matching: statusWord) }

    /// What the status word means, from the table; "unknown status word" when it has none.
    public var meaning: String { status?.meaning ?? "unknown status word" }

    /// Whether the command completed: `9000`, or `9100` from a DESFire-style application.
    public var isSuccess: Bool { status?.name == .normalProcessing || status?.name == .desfireOperationOK }

    /// SW1 SW2 in hex, upper case, e.g. `9000`.
    package var statusWordHex: String { [sw1, sw2].hexString(uppercase: true) }

    /// Data and status word, e.g. `0102 9000 (normal processing)`.
    public var description: String {
        (data.isEmpty ? "" : data.hexString() + " ") + "\(statusWordHex) (\(meaning))"
    }
}

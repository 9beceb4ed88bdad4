import NFCChips

/// What every emulated FeliCa card answers with: the answer frame, and the status flags of
/// Read and Write Without Encryption (FeliCa user's manual; `datasheets/felica.json`).
enum FeliCaFrame {
    static var table: FeliCaSpec { ChipTables.felica }

    /// The answer frame: LEN, the answer code of `command`, IDm, then `payload`.
    static func answer(_ command: FeliCaCommandName, idm: [UInt8], _ payload: [UInt8]) -> TagAnswer {
        let body = [table.commands[command].responseCode] + idm + payload
        return .bytes([UInt8(body.count + 1)] + body)
    }

    /// Status flags 1 and 2 of an error: flag 1 for the command as a whole, or the bit of
    /// the block list element at fault.
    static func failure(element: Int?, _ status: FeliCaStatusName) -> [UInt8] {
        let flags = table.statusFlags
        return [element.map { UInt8(1 << min($0, 7)) } ?? flags.wholeCommand, flags.errors[status].code]
    }

    /// Both flags of a success.
    static var success: [UInt8] { [table.statusFlags.success, table.statusFlags.success] }

    /// An NDEF area as the NFC Forum Type 3 mapping lays it out: `attribute` with Ln set to
    /// `message`'s length and its checksum, then the message in `dataBlocks` blocks (zero
    /// padded). Nil when the message does not fit.
    static func ndefArea(attribute: [UInt8], message: [UInt8], dataBlocks: Int) -> [[UInt8]]? {
        let size = table.type3.blockSize
        guard message.count <= dataBlocks * size else { return nil }
        let layout = table.type3.attribute
        var attribute = attribute
        for (offset, shift) in [(0, 16), (1, 8), (2, 0)] {
            attribute[layout.ln + offset] = UInt8(truncatingIfNeeded: message.count >> shift)
        }
        let sum = attribute[..<layout.checksum].reduce(0) { $0 + Int($1) }
        attribute[layout.checksum] = UInt8(sum >> 8 & 0xFF)
        attribute[layout.checksum + 1] = UInt8(sum & 0xFF)
        let padded = message + [UInt8](repeating: 0, count: dataBlocks * size - message.count)
        return [attribute] + (0..<dataBlocks).map { Array(padded[($0 * size)..<(($0 + 1) * size)]) }
    }
}

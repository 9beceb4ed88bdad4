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
}

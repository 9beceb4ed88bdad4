import NFCChips

/// The commands of a selected ST25TB or SRx card over a ``TagTransport`` (type B framing,
/// the reader adding and checking CRC_B), from `datasheets/st25tb.json`.
///
/// Write_Block is never answered: the write is taken as done when the card stays silent,
/// and the block is read back to prove it (as libnfc's `nfc-st25tb` does). A block the card
/// keeps — locked, or a counter asked to count up — reads back unchanged and is refused
/// with ``TagCommandError/verificationFailed(_:)``.
///
/// ```swift
/// let card = ST25TBCommands(transport: transport)
/// let block = try await card.readBlock(7)
/// try await card.writeBlock(7, data: [0x01, 0x02, 0x03, 0x04])
/// ```
package struct ST25TBCommands: Sendable {
    package let transport: any TagTransport

    static var table: ST25TBSpec { ChipTables.st25tb }

    /// How long a card may take to answer, or to program a block before the read-back.
    static let responseTimeout = Duration.milliseconds(20)

    package init(transport: any TagTransport) {
        self.transport = transport
    }

    /// Get_UID: the 8 bytes, least significant first (`… 02 D0`).
    package func readUID() async throws(TagCommandError) -> [UInt8] {
        try await exchange(.getUID, [])
    }

    /// Read_Block of `block` (a block number, or FF for the system block).
    package func readBlock(_ block: Int) async throws(TagCommandError) -> [UInt8] {
        try Self.check(block: block)
        return try await exchange(.readBlock, [UInt8(block)])
    }

    /// Write_Block of `block` with its 4 bytes, then Read_Block: the block as the card holds it.
    @discardableResult
    package func writeBlock(_ block: Int, data: [UInt8]) async throws(TagCommandError) -> [UInt8] {
        try Self.check(block: block)
        let spec = Self.table
        guard data.count == spec.blockSize else {
            throw .invalidArgument("an ST25TB block has \(spec.blockSize) bytes, not \(data.count)")
        }
        let frame = [spec.commands[.writeBlock].code, UInt8(block)] + data
        try transport.checkCommandLength(frame)
        let answer: TagResponse?
        do throws(TagTransportError) {
            answer = try await transport.transceive(frame, framing: .standard, timeout: Self.responseTimeout)
        } catch .timeout {
            answer = nil  // the card's silence: what a write gets
        } catch {
            throw .transport(error)
        }
        if case .bytes(let bytes)? = answer, !bytes.isEmpty {
            throw .invalidAnswer(
                command: ST25TBCommandName.writeBlock.rawValue, bytes: bytes, offset: 0, expected: "no answer")
        }
        let back = try await readBlock(block)
        guard back == data else {
            throw .verificationFailed(
                "block \(block) reads back \(back.hexString()), not \(data.hexString()): the card kept it (locked, or a counter counts only down)"
            )
        }
        return back
    }

    /// The whole memory: blocks 0 up to the chip's count (by its UID), then the system block.
    package func dump(uid: [UInt8]) async throws(TagCommandError) -> CardMemoryDump {
        let spec = Self.table
        let chip = spec.chip(uid: uid)
        let count = chip?.blocks ?? spec.chips[0].blocks
        var blocks: [[UInt8]] = []
        for block in 0..<count { blocks.append(try await readBlock(block)) }
        let system = try await readBlock(Int(spec.systemBlock))
        return CardMemoryDump(
            chip: spec.tagName, uid: uid, blocks: blocks, systemBlock: system, product: chip?.product ?? "unknown")
    }

    // MARK: Exchange

    static func check(block: Int) throws(TagCommandError) {
        guard (0..<256).contains(block) else { throw .invalidArgument("a block is 0…255, not \(block)") }
    }

    /// One answered command; the answer's length is checked against the table's.
    func exchange(_ name: ST25TBCommandName, _ payload: [UInt8]) async throws(TagCommandError) -> [UInt8] {
        let spec = Self.table.commands[name]
        let frame = spec.prefix + payload
        try transport.checkCommandLength(frame)
        let response: TagResponse
        do {
            response = try await transport.transceive(frame, framing: .standard, timeout: Self.responseTimeout)
        } catch {
            throw .transport(error)
        }
        guard case .bytes(let answer) = response, answer.count == spec.responseLength else {
            let bytes: [UInt8] = if case .bytes(let answer) = response { answer } else { [] }
            throw .invalidAnswer(
                command: name.rawValue, bytes: bytes, offset: min(bytes.count, spec.responseLength),
                expected: "\(spec.responseLength) bytes")
        }
        return answer
    }
}

import NFCChips

/// The NFC Forum Type 1 commands (Innovision Topaz, Topaz 512) over a ``TagTransport``,
/// built from `datasheets/type1.json`.
///
/// Each goes in the reader's short form — `CMD [ADD [DATA]]`, the reader adding the tag's
/// UID0-3 and CRC_B — which a PN532 answers with the data alone for READ and the writes
/// (libnfc's `nfc-jewel` sends the same frames). A silence is the transport's time-out.
///
/// ```swift
/// let topaz = Type1Commands(transport: transport)
/// let (header, uid) = try await topaz.readIdentification()   // [0x11, 0x48], UID0-3
/// let byte = try await topaz.read(address: 8)                // 0xE1: the NDEF magic number
/// ```
package struct Type1Commands: Sendable {
    package let transport: any TagTransport

    static var table: Type1Spec { ChipTables.type1 }

    package init(transport: any TagTransport) {
        self.transport = transport
    }

    /// RID: HR0 HR1 and UID0-3.
    package func readIdentification() async throws(TagCommandError) -> (headerROM: [UInt8], uid: [UInt8]) {
        let answer = try await exchange(.rid, [])
        let header = Self.table.headerROMLength
        return (Array(answer.prefix(header)), Array(answer.dropFirst(header)))
    }

    /// RALL: HR0 HR1 and the 120 bytes of blocks 00-0E.
    package func readAll() async throws(TagCommandError) -> (headerROM: [UInt8], memory: [UInt8]) {
        let answer = try await exchange(.rall, [])
        let header = Self.table.headerROMLength
        return (Array(answer.prefix(header)), Array(answer.dropFirst(header)))
    }

    /// READ of the byte at `address` (block × 8 + byte, 0…127).
    package func read(address: Int) async throws(TagCommandError) -> UInt8 {
        try Self.check(address: address)
        return try await exchange(.read, [UInt8(address)])[0]
    }

    /// WRITE-E (`erase`: the byte becomes `value`) or WRITE-NE (the bits of `value` are set,
    /// none cleared); returns the byte as the tag now holds it.
    @discardableResult
    package func write(address: Int, value: UInt8, erase: Bool = true) async throws(TagCommandError) -> UInt8 {
        try Self.check(address: address)
        return try await exchange(erase ? .writeErase : .writeNoErase, [UInt8(address), value])[0]
    }

    /// READ8 of `block` (dynamic memory).
    package func readBlock(_ block: Int) async throws(TagCommandError) -> [UInt8] {
        try Self.check(block: block)
        return try await exchange(.read8, [UInt8(block)])
    }

    /// WRITE-E8 or WRITE-NE8 of `block` with its 8 bytes (dynamic memory); returns the block
    /// as the tag now holds it.
    @discardableResult
    package func writeBlock(_ block: Int, bytes: [UInt8], erase: Bool = true) async throws(TagCommandError) -> [UInt8] {
        try Self.check(block: block)
        guard bytes.count == Self.table.blockSize else {
            throw .invalidArgument("a Type 1 block has \(Self.table.blockSize) bytes, not \(bytes.count)")
        }
        return try await exchange(erase ? .writeErase8 : .writeNoErase8, [UInt8(block)] + bytes)
    }

    /// RSEG of `segment` (128 bytes, dynamic memory).
    package func readSegment(_ segment: Int) async throws(TagCommandError) -> [UInt8] {
        guard (0..<16).contains(segment) else { throw .invalidArgument("a segment is 0…15, not \(segment)") }
        return try await exchange(.readSegment, [UInt8(segment << 4)])
    }

    // MARK: Exchange

    static func check(address: Int) throws(TagCommandError) {
        guard (0..<128).contains(address) else {
            throw .invalidArgument("READ and WRITE address bytes 0…127 (7 bits), not \(address)")
        }
    }

    static func check(block: Int) throws(TagCommandError) {
        guard (0..<256).contains(block) else { throw .invalidArgument("a block is 0…255, not \(block)") }
    }

    /// One command in the short form; the answer's length is checked against what the
    /// reader gives back for it (the data byte alone for READ and the writes).
    func exchange(_ name: Type1CommandName, _ payload: [UInt8]) async throws(TagCommandError) -> [UInt8] {
        let spec = Self.table.commands[name]
        let frame = [spec.code] + payload
        try transport.checkCommandLength(frame)
        let response: TagResponse
        do {
            response = try await transport.transceive(
                frame, framing: .standard, timeout: .milliseconds(Self.table.responseTimeoutMs))
        } catch {
            throw .transport(error)
        }
        guard case .bytes(let answer) = response else {
            throw .invalidAnswer(command: name.rawValue, bytes: [], offset: 0, expected: "data")
        }
        let expected = Self.answerLength(name)
        guard answer.count == expected else {
            throw .invalidAnswer(
                command: name.rawValue, bytes: answer, offset: min(answer.count, expected),
                expected: "\(expected) bytes")
        }
        return answer
    }

    /// The answer the reader gives back: RID's and RALL's whole, the data without ADD for
    /// the others.
    static func answerLength(_ name: Type1CommandName) -> Int {
        let onAir = table.commands[name].responseLength
        switch name {
        case .rid, .rall: return onAir
        default: return onAir - 1
        }
    }
}

import NFCChips

/// MIFARE Classic 1K / 4K commands over a ``TagTransport``: authentication with key A or
/// B (the reader runs Crypto1), block read / write, value blocks and sector trailers.
///
/// Frames go with ``TagFraming/standard`` framing, which on a PN532 carries the Crypto1
/// session. Two-phase commands are sent as one frame — the command, the block and its
/// data (`A0 bb d0…d15`, `C1 bb v0…v3`) — the way the PN532's InDataExchange takes them.
///
/// ```swift
/// let classic = try ClassicCommands(transport: transport, chip: .classic1k)
/// try await classic.authenticate(sector: 1, keyType: .a, key: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
/// let block = try await classic.readBlock(4)
/// ```
package struct ClassicCommands: Sendable {
    /// The link to the tag.
    package let transport: any TagTransport
    /// The chip's tables.
    package let spec: ChipSpec
    /// Sectors and blocks.
    package let geometry: ClassicGeometry

    /// Commands for a Classic `chip`.
    package init(transport: any TagTransport, chip: Chip) throws(TagCommandError) {
        let spec = ChipTables.spec(for: chip)
        guard spec.family == .mifareClassic, let geometry = spec.classicGeometry else {
            throw .featureNotSupported(feature: "MIFARE Classic sectors", chip: chip)
        }
        self.transport = transport
        self.spec = spec
        self.geometry = geometry
    }

    /// The chip.
    package var chip: Chip { spec.chip }

    /// Authenticates `block`'s sector with key A or B (6 bytes). A refused key throws
    /// ``TagCommandError/authenticationFailed(remainingAttempts:)`` (Classic keys have no limit).
    package func authenticate(block: Int, keyType: ClassicKeyType, key: [UInt8]) async throws(TagCommandError) {
        let address = try address(block)
        let keyLength = ChipTables.classic.trailer[.keyA].length
        guard key.count == keyLength else {
            throw .invalidArgument("Classic keys are \(keyLength) bytes, got \(key.count)")
        }
        do {
            try await transport.authenticateClassic(block: address, keyType: keyType, key: key)
        } catch .authenticationFailed {
            throw .authenticationFailed(remainingAttempts: .unlimited)
        } catch {
            throw .transport(error)
        }
    }

    /// Authenticates `sector` (through its trailer block).
    package func authenticate(sector: Int, keyType: ClassicKeyType, key: [UInt8]) async throws(TagCommandError) {
        try await authenticate(block: try trailerBlock(of: sector), keyType: keyType, key: key)
    }

    /// READ of a 16-byte block (after authenticating its sector).
    package func readBlock(_ block: Int) async throws(TagCommandError) -> [UInt8] {
        let command = try command(.read)
        let answer = try await transport.exchange(
            [command.code, try address(block)], command: .read, framing: .standard,
            timeout: command.timeout)
        let bytes = answer.bytes
        guard bytes.count == ChipTables.classic.blockSize else {
            throw .invalidAnswer(
                command: CommandName.read.rawValue, bytes: bytes,
                offset: min(bytes.count, ChipTables.classic.blockSize),
                expected: "\(ChipTables.classic.blockSize) data bytes")
        }
        return bytes
    }

    /// WRITE of a data block. Sector trailers go through ``writeSectorTrailer(_:sector:force:consent:)``
    /// and the manufacturer block is never written.
    package func writeBlock(_ block: Int, bytes: [UInt8]) async throws(TagCommandError) {
        guard !geometry.isTrailer(block: block) else {
            throw .invalidArgument(
                "block \(block) is a sector trailer: use writeSectorTrailer, which checks the access bits")
        }
        guard block != 0 else { throw .invalidArgument("block 0 is the manufacturer block (read-only)") }
        try await writeRaw(block, bytes)
    }

    /// Reads a value block.
    package func readValue(_ block: Int) async throws(TagCommandError) -> ClassicValueBlock {
        let bytes = try await readBlock(block)
        do { return try ClassicValueBlock(bytes: bytes) } catch .invalidAnswer(_, let bytes, let offset, let expected) {
            throw .invalidAnswer(command: CommandName.read.rawValue, bytes: bytes, offset: offset, expected: expected)
        }
    }

    /// Formats `block` as a value block holding `value` (address = the block number).
    package func writeValue(_ block: Int, value: Int32) async throws(TagCommandError) {
        try await writeBlock(block, bytes: ClassicValueBlock(value: value, address: try address(block)).bytes)
    }

    /// INCREMENT: the value of `block` plus `amount` goes into the card's register; commit
    /// it with ``transfer(to:)``.
    package func increment(_ block: Int, by amount: UInt32) async throws(TagCommandError) {
        try await valueOperation(.increment, block, operand: Int32(bitPattern: amount))
    }

    /// DECREMENT: the value of `block` minus `amount` goes into the register.
    package func decrement(_ block: Int, by amount: UInt32) async throws(TagCommandError) {
        try await valueOperation(.decrement, block, operand: Int32(bitPattern: amount))
    }

    /// RESTORE: the value of `block` goes into the register unchanged (to copy it elsewhere).
    package func restore(_ block: Int) async throws(TagCommandError) {
        try await valueOperation(.restore, block, operand: 0)
    }

    /// TRANSFER: writes the register to `block`.
    package func transfer(to block: Int) async throws(TagCommandError) {
        let command = try command(.transfer)
        _ = try await transport.exchange(
            [command.code, try address(block)], command: .transfer, framing: .standard,
            timeout: command.timeout)
    }

    /// Reads and decodes `sector`'s trailer (key A reads as zeros; key B too unless readable).
    package func readSectorTrailer(_ sector: Int) async throws(TagCommandError) -> ClassicSectorTrailer {
        try ClassicSectorTrailer(bytes: try await readBlock(try trailerBlock(of: sector)))
    }

    /// Writes `trailer` to `sector`. A trailer with ``ClassicSectorTrailer/problems`` is
    /// refused with ``TagCommandError/unusableTrailer(_:)`` unless `force`; a trailer that
    /// freezes the sector needs ``IrreversibleConsent/frozenSectorTrailer``.
    package func writeSectorTrailer(
        _ trailer: ClassicSectorTrailer, sector: Int, force: Bool = false,
        consent: IrreversibleConsent = []
    ) async throws(TagCommandError) {
        let problems = trailer.problems
        guard force || problems.isEmpty else { throw .unusableTrailer(problems) }
        if trailer.isFrozen {
            let missing = consent.missing(for: [.frozenSectorTrailer(sector: sector)])
            guard missing.isEmpty else { throw .irreversibleNotConsented(missing) }
        }
        try await writeRaw(try trailerBlock(of: sector), try trailer.bytes)
    }

    /// Writes 16 raw trailer bytes; bytes whose access bits do not decode (the card would
    /// block the sector) are refused unless `force`.
    package func writeSectorTrailer(
        bytes: [UInt8], sector: Int, force: Bool = false,
        consent: IrreversibleConsent = []
    ) async throws(TagCommandError) {
        let trailer: ClassicSectorTrailer
        do {
            trailer = try ClassicSectorTrailer(bytes: bytes)
        } catch {
            guard force, bytes.count == ChipTables.classic.blockSize else { throw error }
            try await writeRaw(try trailerBlock(of: sector), bytes)
            return
        }
        guard try trailer.bytes == bytes else { throw .invalidArgument("trailer bytes do not round-trip") }
        try await writeSectorTrailer(trailer, sector: sector, force: force, consent: consent)
    }

    // MARK: helpers

    func command(_ name: CommandName) throws(TagCommandError) -> CommandSpec {
        guard let command = spec.command(name) else { throw .notSupported(command: name.rawValue, chip: chip) }
        return command
    }

    func address(_ block: Int) throws(TagCommandError) -> UInt8 {
        guard (0..<geometry.blockCount).contains(block), let byte = UInt8(exactly: block) else {
            throw .invalidArgument("block \(block) is outside 0…\(geometry.blockCount - 1) on \(spec.product)")
        }
        return byte
    }

    func trailerBlock(of sector: Int) throws(TagCommandError) -> Int {
        guard let block = geometry.trailerBlock(ofSector: sector) else {
            throw .invalidArgument("sector \(sector) is outside 0…\(geometry.sectorCount - 1) on \(spec.product)")
        }
        return block
    }

    private func writeRaw(_ block: Int, _ bytes: [UInt8]) async throws(TagCommandError) {
        let command = try command(.write)
        guard bytes.count == command.secondFrameLength ?? ChipTables.classic.blockSize else {
            throw .invalidArgument("a Classic block is \(ChipTables.classic.blockSize) bytes, got \(bytes.count)")
        }
        _ = try await transport.exchange(
            [command.code, try address(block)] + bytes, command: .write, framing: .standard,
            timeout: command.secondTimeout)
    }

    private func valueOperation(_ name: CommandName, _ block: Int, operand: Int32) async throws(TagCommandError) {
        let command = try command(name)
        guard !geometry.isTrailer(block: block) else { throw .invalidArgument("block \(block) is a sector trailer") }
        _ = try await transport.exchange(
            [command.code, try address(block)] + ClassicValueBlock.littleEndian(operand),
            command: name, framing: .standard, timeout: command.timeout)
    }
}

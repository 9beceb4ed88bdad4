import NFCChips
import NFCTags

/// A MIFARE Classic 1K / 4K tag: key A / key B authentication, blocks, value blocks and
/// sector trailers (encoded and decoded with the access-bit inversion check; a trailer that
/// would make a sector unusable is refused unless forced), whole memory images. Each is
/// `ClassicCommands` on this tag.
///
/// ```swift
/// let classic = try session.miFareClassicTag()
/// try await classic.authenticate(sector: 1, keyType: .a, key: .factoryDefault)
/// let block = try await classic.readBlock(4)
/// try await classic.writeValue(5, value: 100)
/// try await classic.increment(5, by: 20)
/// try await classic.transfer(to: 5)
/// ```
public struct NFCMiFareClassicTag: NFCTagHandle {
    /// The session the tag is connected in.
    public let session: TagSession
    /// Sectors and blocks, from the chip's table.
    package let geometry: ClassicGeometry

    /// The number of sectors: 16 on a Classic 1K, 40 on a 4K.
    public var sectorCount: Int { geometry.sectorCount }

    /// The blocks of `sector`, its sector trailer last (`nil` past the last sector): 4 blocks
    /// per sector, 16 in the 4K's sectors 32–39.
    ///
    /// ```swift
    /// classic.blocks(inSector: 1)   // 4...7, block 7 the trailer
    /// ```
    public func blocks(inSector sector: Int) -> ClosedRange<Int>? {
        guard let first = geometry.firstBlock(ofSector: sector), let last = geometry.trailerBlock(ofSector: sector)
        else { return nil }
        return first...last
    }
}

extension NFCMiFareClassicTag {
    /// Authenticates `sector` with key A or B. A refused key:
    /// ``TagSessionError/command(operation:_:)`` with `authenticationFailed`; the tag has
    /// halted and is selected again.
    public func authenticate(sector: Int, keyType: ClassicKeyType, key: ClassicKey) async throws(TagSessionError) {
        let commands = try session.classic(.classicAuthenticate)
        try await authenticating(.classicAuthenticate) { () throws(TagCommandError) in
            try await commands.authenticate(sector: sector, keyType: keyType, key: key.bytes)
        }
    }

    /// Authenticates the sector of `block`.
    public func authenticate(block: Int, keyType: ClassicKeyType, key: ClassicKey) async throws(TagSessionError) {
        let commands = try session.classic(.classicAuthenticate)
        try await authenticating(.classicAuthenticate) { () throws(TagCommandError) in
            try await commands.authenticate(block: block, keyType: keyType, key: key.bytes)
        }
    }

    /// READ of a 16-byte block (authenticate its sector first).
    public func readBlock(_ block: Int) async throws(TagSessionError) -> [UInt8] {
        let commands = try session.classic(.readBlock)
        return try await session.perform(.readBlock) { () throws(TagCommandError) in try await commands.readBlock(block)
        }
    }

    /// WRITE of a data block (never block 0, never a trailer: see ``writeSectorTrailer(_:sector:force:consent:)``).
    public func writeBlock(_ block: Int, bytes: [UInt8]) async throws(TagSessionError) {
        let commands = try session.classic(.writeBlock)
        try await session.perform(.writeBlock) { () throws(TagCommandError) in
            try await commands.writeBlock(block, bytes: bytes)
        }
    }

    /// Reads a value block (value, inverted value, value again, address bytes — all checked).
    public func readValue(_ block: Int) async throws(TagSessionError) -> ClassicValueBlock {
        let commands = try session.classic(.readBlock)
        return try await session.perform(.readBlock) { () throws(TagCommandError) in try await commands.readValue(block)
        }
    }

    /// Formats `block` as a value block holding `value`.
    public func writeValue(_ block: Int, value: Int32) async throws(TagSessionError) {
        let commands = try session.classic(.writeBlock)
        try await session.perform(.writeBlock) { () throws(TagCommandError) in
            try await commands.writeValue(block, value: value)
        }
    }

    /// INCREMENT `block` by `amount` into the card's register (commit with ``transfer(to:)``).
    public func increment(_ block: Int, by amount: UInt32) async throws(TagSessionError) {
        let commands = try session.classic(.valueOperation)
        try await session.perform(.valueOperation) { () throws(TagCommandError) in
            try await commands.increment(block, by: amount)
        }
    }

    /// DECREMENT `block` by `amount` into the register (commit with ``transfer(to:)``).
    public func decrement(_ block: Int, by amount: UInt32) async throws(TagSessionError) {
        let commands = try session.classic(.valueOperation)
        try await session.perform(.valueOperation) { () throws(TagCommandError) in
            try await commands.decrement(block, by: amount)
        }
    }

    /// RESTORE: `block`'s value into the register unchanged.
    public func restoreValue(_ block: Int) async throws(TagSessionError) {
        let commands = try session.classic(.valueOperation)
        try await session.perform(.valueOperation) { () throws(TagCommandError) in try await commands.restore(block) }
    }

    /// TRANSFER: the register into `block`.
    public func transfer(to block: Int) async throws(TagSessionError) {
        let commands = try session.classic(.valueOperation)
        try await session.perform(.valueOperation) { () throws(TagCommandError) in
            try await commands.transfer(to: block)
        }
    }

    /// Reads and decodes `sector`'s trailer (key A reads as zeros).
    public func readSectorTrailer(_ sector: Int) async throws(TagSessionError) -> ClassicSectorTrailer {
        let commands = try session.classic(.readSectorTrailer)
        return try await session.perform(.readSectorTrailer) { () throws(TagCommandError) in
            try await commands.readSectorTrailer(sector)
        }
    }

    /// Writes `trailer` to `sector`. A trailer that would make the sector unusable is
    /// refused (`TagCommandError.unusableTrailer`) unless `force`; one that
    /// freezes the access bits needs `IrreversibleConsent.frozenSectorTrailer`.
    public func writeSectorTrailer(
        _ trailer: ClassicSectorTrailer, sector: Int, force: Bool = false,
        consent: IrreversibleConsent = []
    ) async throws(TagSessionError) {
        let commands = try session.classic(.writeSectorTrailer)
        try await session.perform(.writeSectorTrailer) { () throws(TagCommandError) in
            try await commands.writeSectorTrailer(trailer, sector: sector, force: force, consent: consent)
        }
    }

    /// A Classic authentication: a refused key halted the tag, so it is selected again
    /// before the error is reported (the session stays usable).
    private func authenticating(
        _ operation: TagSessionOperation,
        _ body: sending () async throws(TagCommandError) -> Void
    ) async throws(TagSessionError) {
        do {
            try await session.perform(operation, body)
        } catch .command(let operation, .authenticationFailed(let remaining)) {
            try? await session.transport.reselect()
            throw .command(operation: operation, .authenticationFailed(remainingAttempts: remaining))
        }
    }

    /// Reads every sector some key opens into a memory image, trying `keys` as key A then
    /// key B (`nil`: `ClassicKey.wellKnown`). `progress` is called after every exchange with the tag.
    public func dump(
        keys: [ClassicKey]? = nil,
        progress: (@Sendable (TagSessionProgress) -> Void)? = nil
    ) async throws(TagSessionError) -> TagMemoryDump {
        try await session.dumpMemory(classicKeys: (keys ?? ClassicKey.wellKnown).map(\.bytes), progress: progress)
    }

    /// Writes `dump` back: data blocks with the dump's sector keys (`keys` when given),
    /// trailers only with `RestoreOptions.sectorTrailers`, block 0 never. Only blocks that
    /// differ are written.
    ///
    /// - Returns: the blocks written, in order.
    @discardableResult
    public func restore(
        _ dump: TagMemoryDump, options: RestoreOptions = [], consent: IrreversibleConsent = [],
        keys: [ClassicSectorKeys]? = nil,
        progress: (@Sendable (TagSessionProgress) -> Void)? = nil
    ) async throws(TagSessionError) -> [Int] {
        try await session.restoreMemory(dump, options: options, consent: consent, classicKeys: keys, progress: progress)
    }
}

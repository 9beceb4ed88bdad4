import NFCChips
import NFCTags

/// Whole memory images (`TagMemoryDump`, a documented JSON file format), for the page and
/// Classic handles (``NFCType2Tag/dump(progress:)``, ``NFCMiFareClassicTag/dump(keys:progress:)``).
extension TagSession {
    /// Reads every readable page (Type 2) or every sector some key opens (MIFARE Classic,
    /// trying `classicKeys` as key A then key B), reporting `progress` after every exchange.
    func dumpMemory(
        classicKeys: [[UInt8]],
        progress: (@Sendable (TagSessionProgress) -> Void)?
    ) async throws(TagSessionError) -> TagMemoryDump {
        let chip = try knownChip()
        let counting = TagSessionProgressTransport(
            base: transport, expected: try expectedDumpExchanges(chip, keys: classicKeys),
            report: progress)
        let dump = try await perform(.dump) { () throws(TagCommandError) in
            if ChipTables.spec(for: chip).family.isType2 {
                return try await Type2Commands(transport: counting, chip: chip).dump()
            }
            return try await ClassicCommands(transport: counting, chip: chip).dump(keys: classicKeys)
        }
        counting.finish()
        return dump
    }

    /// Writes `dump` back (what each family writes: ``NFCType2Tag/restore(_:options:consent:progress:)``,
    /// ``NFCMiFareClassicTag/restore(_:options:consent:keys:progress:)``) and returns the
    /// pages or blocks written, in order.
    func restoreMemory(
        _ dump: TagMemoryDump, options: RestoreOptions, consent: IrreversibleConsent,
        classicKeys: [ClassicSectorKeys]?,
        progress: (@Sendable (TagSessionProgress) -> Void)?
    ) async throws(TagSessionError) -> [Int] {
        let chip = try knownChip()
        let expected = 2 * (try expectedDumpExchanges(chip, keys: [])) + (dump.pages?.count ?? dump.blocks?.count ?? 0)
        let counting = TagSessionProgressTransport(base: transport, expected: expected, report: progress)
        let written = try await perform(.restore) { () throws(TagCommandError) in
            if ChipTables.spec(for: chip).family.isType2 {
                return try await Type2Commands(transport: counting, chip: chip).restore(
                    dump, options: options, consent: consent)
            }
            return try await ClassicCommands(transport: counting, chip: chip)
                .restore(dump, keys: classicKeys ?? dump.sectorKeys ?? [], options: options, consent: consent)
        }
        counting.finish()
        return written
    }

    /// About how many exchanges a dump takes: page reads split to the frame limit, or one
    /// authentication and one read per Classic block.
    private func expectedDumpExchanges(_ chip: Chip, keys: [[UInt8]]) throws(TagSessionError) -> Int {
        let spec = ChipTables.spec(for: chip)
        if let memory = spec.memory, spec.family.isType2 {
            let bytes = (memory.lastReadablePage + 1) * memory.pageSize
            return max(1, (bytes + transport.maximumFrameLength - 1) / transport.maximumFrameLength)
        }
        guard let geometry = spec.classicGeometry else {
            throw .notSupported(operation: .dump, chip: chip, detail: "it has neither page memory nor Classic sectors")
        }
        return geometry.blockCount + geometry.sectorCount
    }
}

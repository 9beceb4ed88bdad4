import NDEF
import NFCChips

/// NDEF on MIFARE Classic 1K and 4K (NXP AN1304 "NFC Type MIFARE Classic Tag"): the MIFARE
/// Application Directory in sector 0 (and sector 16 on a 4K with MAD2) names the NFC
/// sectors (AID `03E1`); their data blocks, trailers skipped, hold the same TLV stream as a
/// Type 2 tag.
///
/// Keys: sector 0 and 16 open with the MAD key A, NFC sectors with the NFC Forum key A, a
/// blank card with the transport key (all from `ChipTables.classic`). Key B — the
/// caller's (``ClassicNDEFKeys``) or else the transport key — is used where the access
/// conditions give a right to key B only; when no key the driver has is enough, the step
/// fails with ``NDEFTagError/authenticationRequired(step:)``.
///
/// Status comes from the sector 0 GPB (DA bit, MAD version), the MAD (CRC-8, info byte,
/// contiguous NFC sectors), each NFC sector's access conditions and GPB write bits.
/// Writes follow ``ClassicWritePlan`` through ``NDEFWriteMachine``, like Type 2.
///
/// ```swift
/// let driver = try ClassicNDEFDriver(chip: .classic1k, transport: transport,
///                                    keys: ClassicNDEFKeys(nfcKeyB: secret))
/// try await driver.format(force: false)       // blank card → empty NDEF, 716 bytes free
/// try await driver.writeMessage(message)
/// ```
package actor ClassicNDEFDriver: NDEFTagDriver {
    let commands: ClassicCommands
    let geometry: ClassicGeometry
    let classic: ClassicSpec
    let keys: ClassicKeyRing
    /// The sector the card has authenticated now (forgotten after any failure).
    var openSector: OpenSector?
    /// The message bytes this driver last read back and verified (for the lock guard).
    var verifiedMessage: [UInt8]?

    /// A driver for a Classic `chip` over `transport`.
    ///
    /// - Parameter keys: keys B beyond the transport key (for locking, and for sectors
    ///   whose access conditions give writes to key B only).
    /// - Throws: ``NDEFTagError/unsupportedTag(reason:)`` when `chip` is not a MIFARE Classic
    ///   or a given key is not 6 bytes.
    package init(chip: Chip, transport: any TagTransport, keys: ClassicNDEFKeys = ClassicNDEFKeys())
        throws(NDEFTagError)
    {
        do {
            commands = try ClassicCommands(transport: transport, chip: chip)
        } catch {
            throw .unsupportedTag(reason: "\(ChipTables.spec(for: chip).product) is not a MIFARE Classic")
        }
        geometry = commands.geometry
        classic = ChipTables.classic
        self.keys = try ClassicKeyRing(keys, classic: classic)
    }

    // MARK: NDEFTagDriver

    /// Reads sector 0 (GPB, MAD1), sector 16 (MAD2) and every NFC sector.
    package func queryStatus() async throws(NDEFTagError) -> NDEFStatus {
        try await readSnapshot().status()
    }

    /// Reads and decodes the NDEF message; errors name the tag byte address (block × 16 + byte).
    package func readMessage() async throws(NDEFTagError) -> NDEFMessage {
        verifiedMessage = nil
        let (bytes, addresses) = try await readSnapshot().messageBytes()
        let message = try NDEFMessage.fromTagBytes(bytes, addresses: addresses)
        verifiedMessage = bytes
        return message
    }

    /// Writes `message` tear-safely, only the blocks that change unless `options.fullWrite`.
    ///
    /// Checked before anything is written, in this order: the tag holds NDEF (else the
    /// MAD error), the message fits (``NDEFTagError/tagSizeTooSmall(needed:capacity:)``),
    /// every NFC sector may be written (``NDEFTagError/tagNotWritable``, or
    /// ``NDEFTagError/authenticationRequired(step:)`` when only key B may write and the
    /// driver's key B was refused).
    package func writeMessage(
        _ message: NDEFMessage, options: NDEFWriteOptions, progress: @Sendable (NDEFWriteProgress) -> Void
    ) async throws(NDEFTagError) {
        verifiedMessage = nil
        let bytes = try message.tagBytes()
        let snapshot = try await readSnapshot()
        if case .failure(let error) = snapshot.directory { throw error }
        if let notFormatted = snapshot.notFormatted { throw notFormatted }
        // A corrupt TLV area is repaired by writing over it at the first bad TLV.
        let capacity = snapshot.capacity
        guard bytes.count <= capacity else { throw .tagSizeTooSmall(needed: bytes.count, capacity: capacity) }
        if let refused = snapshot.writeRefusal {
            if refused.refusal == .keyBNotKnown {
                throw .authenticationRequired(step: .authenticateSector(refused.sector))
            }
            throw .tagNotWritable
        }
        guard let plan = ClassicWritePlan(snapshot: snapshot, message: bytes, fullWrite: options.fullWrite) else {
            throw .tagSizeTooSmall(needed: bytes.count, capacity: capacity)
        }
        try await run(plan, snapshot: snapshot, progress: progress)
        verifiedMessage = bytes
    }

    // MARK: Writing

    /// Carries out a write plan through its state machine, then verifies.
    private func run(
        _ plan: ClassicWritePlan, snapshot: ClassicTagSnapshot,
        progress: @Sendable (NDEFWriteProgress) -> Void
    ) async throws(NDEFTagError) {
        try await NDEFWriteMachine.run(
            phases: plan.writes.map(\.phase), previousReadsEmpty: plan.previousReadsEmpty,
            progress: progress
        ) { index, machine throws(NDEFTagError) in
            let write = plan.writes[index]
            try await openForDataWrite(write.block, snapshot: snapshot) {
                machine.stateAfterFailure(mayHaveReachedTag: false)
            }
            do throws(TagCommandError) {
                try await writeBlock(write.block, write.bytes)
            } catch {
                throw Self.writing(error, step: write.step) { machine.stateAfterFailure(mayHaveReachedTag: $0) }
            }
        } verify: { tagHolds throws(NDEFTagError) in
            guard let area = snapshot.area else { return }
            try await verify(
                positions: plan.verifyPositions, of: area, against: plan.finalStream,
                snapshot: snapshot, state: tagHolds)
        }
    }

    /// Opens the sector of data block `block` with the key that may write it.
    private func openForDataWrite(
        _ block: Int, snapshot: ClassicTagSnapshot,
        state: () -> NDEFTagContentState
    ) async throws(NDEFTagError) {
        guard let sector = geometry.sector(ofBlock: block),
            let sectorState = snapshot.sectors.first(where: { $0.sector == sector }),
            let keyType = sectorState.dataWriteKey
        else {
            throw .tagUpdateFailure(
                step: .writeBody(page: block), state: state(),
                reason: .unexpectedResponse("no key may write block \(block)"))
        }
        let key = keyType == .a ? sectorState.keyA : keys.keyB(madSector: false)
        do throws(TagCommandError) {
            try await ensureOpen(sector, keyType, key: key)
        } catch {
            throw Self.writing(error, step: .authenticateSector(sector)) { _ in state() }
        }
    }

    /// Reads the blocks at `positions` of `area` back and compares them with `expected`.
    func verify(
        positions: ClosedRange<Int>, of area: ClassicNDEFArea, against expected: [UInt8],
        snapshot: ClassicTagSnapshot, state: NDEFTagContentState
    ) async throws(NDEFTagError) {
        for position in positions {
            let block = area.blocks[position]
            guard let sector = geometry.sector(ofBlock: block),
                let sectorState = snapshot.sectors.first(where: { $0.sector == sector })
            else { continue }
            let key = sectorState.readKey == .a ? sectorState.keyA : keys.keyB(madSector: false)
            let bytes: [UInt8]
            do throws(TagCommandError) {
                try await ensureOpen(sector, sectorState.readKey, key: key)
                bytes = try await readBlock(block)
            } catch {
                throw Self.writing(error, step: .verify(page: block)) { _ in state }
            }
            let range = area.streamRange(ofBlockAt: position)
            for (index, byte) in bytes.enumerated() where expected[range.lowerBound + index] != byte {
                throw .tagUpdateFailure(
                    step: .verify(page: block), state: .unknown,
                    reason: .verificationMismatch(offset: block * geometry.blockSize + index))
            }
        }
    }
}

import NFCChips

/// ``ClassicNDEFDriver/makeReadOnly(force:)`` and ``ClassicNDEFDriver/format(force:)``.
extension ClassicNDEFDriver {
    /// Makes the NDEF permanently read-only: every NFC sector gets the read-only NFC
    /// trailer, then the MAD sectors get read-only access bits (``ClassicLockPlan`` says
    /// why in this order). **This cannot be undone**: the trailers are frozen.
    ///
    /// The read-only trailer values (`07 8F 0F`, GPB `43`, and `07 8F 0F` for the MAD
    /// sectors) come from AN1304 as remembered and are marked **unverified** in the table;
    /// their meaning (data read-only, trailer frozen) follows from the verified MF1S50
    /// access tables. Trailers under the NFC access bits are changed with key B: the
    /// ``ClassicNDEFKeys`` key, else the transport key.
    ///
    /// - Throws: ``NDEFTagError/notVerified`` unless the message on the tag was read back and
    ///   verified by this driver (or `force`); ``NDEFTagError/authenticationRequired(step:)``
    ///   when key B is refused; otherwise errors with state
    ///   ``NDEFTagContentState/previousMessageIntact`` (the message is never touched) —
    ///   except ``NDEFTagContentState/unknown`` when a trailer write may have reached the
    ///   card unanswered: cut inside its EEPROM cycle, a trailer keeps a mix of old and new
    ///   access bits whose inverted copies disagree, which blocks the sector — and its part
    ///   of the message — for good (``ClassicLockPlan``).
    package func makeReadOnly(force: Bool) async throws(NDEFTagError) {
        let snapshot = try await readSnapshot()
        let (bytes, _) = try snapshot.messageBytes()
        guard force || verifiedMessage == bytes else { throw .notVerified }
        let plan = try ClassicLockPlan(snapshot: snapshot, keys: keys, geometry: geometry, classic: classic)
        for write in plan.writes {
            try await perform(write, keyRefusal: .authenticationRequired(step: .authenticateSector(write.sector))) {
                mayHave in
                mayHave ? .unknown : .previousMessageIntact
            }
        }
        for write in plan.writes {
            guard let expected = plan.expected[write.sector] else { continue }
            let newKeyA = Array(write.bytes.prefix(write.key.count))
            let trailer: [UInt8]
            do throws(TagCommandError) {
                try await ensureOpen(write.sector, .a, key: newKeyA)
                trailer = try await readBlock(write.block)
            } catch {
                throw Self.writing(error, step: .verify(page: write.block)) { _ in .previousMessageIntact }
            }
            let state = try Self.sectorState(
                write.sector, keyA: newKeyA, trailer: trailer, step: .verify(page: write.block))
            if state.access.accessBytes != expected.accessBits
                || state.generalPurposeByte != expected.generalPurposeByte
            {
                throw .tagUpdateFailure(
                    step: .verify(page: write.block), state: .previousMessageIntact,
                    reason: .verificationMismatch(offset: try trailerAddress(of: write.sector, field: .accessBits)))
            }
        }
    }

    /// Formats the card for NDEF with an empty message: every sector but the MAD sectors
    /// becomes an NFC sector, the MAD (with its CRC) names them, and the sector 0 trailer
    /// — written last — makes the MAD visible (``ClassicFormatPlan`` gives the order).
    /// New trailers get the ``ClassicNDEFKeys`` keys B, else the transport key.
    ///
    /// Meant for blank cards (transport keys `FF…FF`, access bits `FF 07 80`): every
    /// sector is claimed. A card that already holds valid NDEF is refused with
    /// ``NDEFTagError/alreadyFormatted`` unless `force`.
    package func format(force: Bool) async throws(NDEFTagError) {
        verifiedMessage = nil
        let snapshot = try await readSnapshot()
        if snapshot.hasNDEF, !force { throw .alreadyFormatted }
        let mad = classic.mad
        let nfcSectors = ClassicFormatPlan.nfcSectors(geometry: geometry, mad: mad)
        var surveyed: [Int: ClassicFormatPlan.SurveyedSector] = [:]
        for sector in ClassicFormatPlan.sectorsToSurvey(geometry: geometry, mad: mad) {
            var blocks: [Int] = []
            if sector == mad.mad1.sector { blocks = mad.mad1.blocks.map { Int($0) } }
            if sector == mad.mad2.sector, isMADSector(sector) { blocks = mad.mad2.blocks.map { Int($0) } }
            if sector == nfcSectors.first, let first = geometry.firstBlock(ofSector: sector) { blocks = [first] }
            guard let result = try await survey(sector, blocks: blocks, needs: [.dataWrite, .trailerWrite]) else {
                throw .authenticationRequired(step: .authenticateSector(sector))
            }
            var bytes: [Int: [UInt8]] = [:]
            for (index, block) in blocks.enumerated() {
                bytes[block] = Array(result.data[(index * geometry.blockSize)..<((index + 1) * geometry.blockSize)])
            }
            surveyed[sector] = ClassicFormatPlan.SurveyedSector(state: result.state, blocks: bytes)
        }
        let plan = try ClassicFormatPlan(
            snapshot: snapshot, surveyed: surveyed, keys: keys, geometry: geometry, classic: classic)
        for (index, write) in plan.writes.enumerated() {
            let keyRefusal = NDEFTagError.tagUpdateFailure(
                step: .authenticateSector(write.sector),
                state: plan.state(failedAt: index, mayHaveReachedTag: false),
                reason: .authenticationFailed)
            try await perform(write, keyRefusal: keyRefusal) { plan.state(failedAt: index, mayHaveReachedTag: $0) }
        }
        let after = try await verifiedSnapshot(state: .emptyMessage)
        let status = try after.status()
        guard status.availability == .readWrite, status.length == 0, after.area?.sectors == plan.nfcSectors else {
            let block = plan.nfcSectors.first.flatMap { geometry.firstBlock(ofSector: $0) } ?? 0
            throw .tagUpdateFailure(
                step: .verify(page: block), state: .unknown,
                reason: .verificationMismatch(offset: block * geometry.blockSize))
        }
        verifiedMessage = []
    }

    /// Opens the write's sector and writes its block; a refused key throws `keyRefusal`.
    private func perform(
        _ write: ClassicBlockWrite, keyRefusal: NDEFTagError,
        state: (Bool) -> NDEFTagContentState
    ) async throws(NDEFTagError) {
        do throws(TagCommandError) {
            try await ensureOpen(write.sector, write.keyType, key: write.key)
        } catch .authenticationFailed {
            throw keyRefusal
        } catch {
            throw Self.writing(error, step: .authenticateSector(write.sector)) { _ in state(false) }
        }
        do throws(TagCommandError) {
            if write.isTrailer {
                try await writeTrailer(write.bytes, sector: write.sector)
            } else {
                try await writeBlock(write.block, write.bytes)
            }
        } catch {
            throw Self.writing(error, step: write.step, state: state)
        }
    }

    /// A reading pass after a format; a failure carries `state`.
    private func verifiedSnapshot(state: NDEFTagContentState) async throws(NDEFTagError) -> ClassicTagSnapshot {
        do throws(NDEFTagError) {
            return try await readSnapshot()
        } catch {
            switch error {
            case .connectionLost(let step, _): throw .connectionLost(step: step, state: state)
            case .timeout(let step): throw .tagUpdateFailure(step: step, state: state, reason: .timeout)
            case .nak(let code, let step): throw .tagUpdateFailure(step: step, state: state, reason: .nak(code))
            case .readerFailure(let step, let reason):
                throw .tagUpdateFailure(step: step, state: state, reason: .readerFailure(reason))
            default: throw error
            }
        }
    }
}

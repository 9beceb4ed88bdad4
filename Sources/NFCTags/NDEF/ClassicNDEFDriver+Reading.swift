import NFCChips

/// The reading pass: sector 0 and its MAD, MAD2 on a 4K, then every NFC sector's trailer
/// and data blocks, into a ``ClassicTagSnapshot``.
extension ClassicNDEFDriver {
    /// What a sector survey must find out besides the trailer and the data.
    struct SurveyNeeds: OptionSet, Sendable {
        let rawValue: Int
        /// Which key may write the data blocks.
        static let dataWrite = SurveyNeeds(rawValue: 1)
        /// Which key may rewrite the whole trailer.
        static let trailerWrite = SurveyNeeds(rawValue: 2)
    }

    /// Reads the tag. Failures to open sector 0 or to find a MAD are not errors: they make
    /// the snapshot "not formatted".
    func readSnapshot() async throws(NDEFTagError) -> ClassicTagSnapshot {
        openSector = nil
        var snapshot = ClassicTagSnapshot(geometry: geometry)
        let mad = classic.mad
        let madBlocks = mad.mad1.blocks.map { Int($0) }
        guard let surveyed0 = try await survey(mad.mad1.sector, blocks: madBlocks, needs: []) else {
            snapshot.notFormatted = .authenticationRequired(step: .authenticateSector(mad.mad1.sector))
            return snapshot
        }
        let sector0 = surveyed0.state
        let mad1 = surveyed0.data
        snapshot.madSector = sector0
        let gpbAddress = try trailerAddress(of: mad.mad1.sector, field: .generalPurposeByte)
        guard let version = try MADTable.version(gpb: sector0.generalPurposeByte, address: gpbAddress, spec: mad) else {
            snapshot.notFormatted = .invalidApplicationDirectory(offset: gpbAddress, reason: .missing)
            return snapshot
        }
        snapshot.madVersion = version
        var mad2: [UInt8]?
        if version == .mad2, geometry.blockCount(ofSector: mad.mad2.sector) != nil {
            let blocks = mad.mad2.blocks.map { Int($0) }
            guard let surveyed = try await survey(mad.mad2.sector, blocks: blocks, needs: []) else {
                throw .authenticationRequired(step: .authenticateSector(mad.mad2.sector))
            }
            snapshot.mad2Sector = surveyed.state
            mad2 = surveyed.data
        }
        let table: MADTable
        let nfcSectors: [Int]
        do throws(NDEFTagError) {
            table = try MADTable(mad1: mad1, mad2: mad2, spec: mad, blockSize: geometry.blockSize)
            nfcSectors = try table.nfcSectors(spec: mad)
        } catch {
            snapshot.directory = .failure(error)
            return snapshot
        }
        snapshot.directory = .success(table)
        guard !nfcSectors.isEmpty else {
            let firstEntry = (madBlocks.first ?? 0) * geometry.blockSize + mad.firstAIDByte
            snapshot.notFormatted = .invalidApplicationDirectory(offset: firstEntry, reason: .noNDEFSectors)
            return snapshot
        }
        let area = ClassicNDEFArea(sectors: nfcSectors, geometry: geometry)
        for sector in nfcSectors {
            let blocks = area.blocks.filter { geometry.sector(ofBlock: $0) == sector }
            guard let surveyed = try await survey(sector, blocks: blocks, needs: [.dataWrite]) else {
                throw .authenticationRequired(step: .authenticateSector(sector))
            }
            snapshot.sectors.append(surveyed.state)
            snapshot.stream += surveyed.data
        }
        snapshot.area = area
        snapshot.scan = Type2TLVScan(
            memory: snapshot.stream, area: Type2DataArea(start: 0, end: snapshot.stream.count),
            memorySize: snapshot.stream.count, mapping: .standard)
        return snapshot
    }

    /// Opens `sector` with a public or transport key A, reads its trailer and `blocks`, and
    /// finds the keys `needs` asks for; `nil` when no key A opens it.
    func survey(_ sector: Int, blocks: [Int], needs: SurveyNeeds) async throws(NDEFTagError) -> (
        state: ClassicSectorState, data: [UInt8]
    )? {
        let madSector = isMADSector(sector)
        let authenticate = NDEFTagStep.authenticateSector(sector)
        let keyA: [UInt8]
        do throws(TagCommandError) {
            guard let key = try await openWithKeyA(sector, candidates: keys.keyACandidates(madSector: madSector)) else {
                return nil
            }
            keyA = key
        } catch {
            throw Self.reading(error, step: authenticate)
        }
        guard let trailerBlock = geometry.trailerBlock(ofSector: sector),
            let first = geometry.firstBlock(ofSector: sector),
            let blockCount = geometry.blockCount(ofSector: sector)
        else {
            throw .unsupportedTag(reason: "sector \(sector) is not on this chip")
        }
        let trailerStep = NDEFTagStep.readSectorTrailer(sector: sector)
        let trailer: [UInt8]
        do throws(TagCommandError) { trailer = try await readBlock(trailerBlock) } catch {
            throw Self.reading(error, step: trailerStep)
        }
        var state = try Self.sectorState(sector, keyA: keyA, trailer: trailer, step: trailerStep)
        guard let conditions = state.dataConditions() else {
            throw .unexpectedResponse(
                step: trailerStep, description: "access bits \(state.access.groups.map(\.code)) not in the table")
        }
        var data: [UInt8] = []
        data.reserveCapacity(blocks.count * geometry.blockSize)
        for block in blocks {
            let group = classic.accessGroup(blockIndex: block - first, blocksInSector: blockCount) ?? 0
            let readers = state.keyTypes(holding: conditions[min(group, conditions.count - 1)].read)
            if !readers.contains(state.readKey) {
                guard readers.contains(.b), try await tryKeyB(sector, madSector: madSector, step: authenticate) else {
                    throw .authenticationRequired(step: .readData(page: block))
                }
                state.readKey = .b
            }
            do throws(TagCommandError) { data += try await readBlock(block) } catch {
                throw Self.reading(error, step: .readData(page: block))
            }
        }
        try await findWriteKeys(&state, needs: needs, conditions: conditions, madSector: madSector)
        return (state, data)
    }

    /// Fills in the keys that may write the data blocks and the trailer, testing key B
    /// (one authentication) when only key B may.
    private func findWriteKeys(
        _ state: inout ClassicSectorState, needs: SurveyNeeds, conditions: [DataBlockCondition],
        madSector: Bool
    ) async throws(NDEFTagError) {
        guard !needs.isEmpty else { return }
        let dataTypes = state.keyTypes(holdingAll: conditions.map(\.write))
        var trailerTypes: [ClassicKeyType] = []
        if needs.contains(.trailerWrite), let rights = state.trailerCondition {
            trailerTypes = state.keyTypes(holdingAll: [rights.keyAWrite, rights.accessBitsWrite, rights.keyBWrite])
        }
        let gpbReadOnly = !madSector && state.gpbSaysReadOnly
        let needsKeyB =
            (needs.contains(.dataWrite) && !gpbReadOnly && dataTypes == [.b])
            || (needs.contains(.trailerWrite) && trailerTypes == [.b])
        var keyBWorks = state.readKey == .b
        if needsKeyB, !keyBWorks {
            keyBWorks = try await tryKeyB(state.sector, madSector: madSector, step: .authenticateSector(state.sector))
        }
        func pick(_ types: [ClassicKeyType]) -> ClassicKeyType? {
            types.contains(.a) ? .a : (types.contains(.b) && keyBWorks ? .b : nil)
        }
        if needs.contains(.dataWrite) {
            state.dataWriteKey = pick(dataTypes)
            if gpbReadOnly {
                state.writeRefusal = .generalPurposeByte(state.generalPurposeByte)
            } else if state.dataWriteKey == nil {
                let closedGroup = conditions.firstIndex { state.keyTypes(holding: $0.write).isEmpty }
                state.writeRefusal = closedGroup.map { .accessConditions(group: $0) } ?? .keyBNotKnown
            }
        }
        if needs.contains(.trailerWrite) { state.trailerWriteKey = pick(trailerTypes) }
    }

    /// Authenticates `sector` with the key B of its role; `false` when refused.
    private func tryKeyB(_ sector: Int, madSector: Bool, step: NDEFTagStep) async throws(NDEFTagError) -> Bool {
        do throws(TagCommandError) {
            return try await authenticate(sector, .b, key: keys.keyB(madSector: madSector))
        } catch {
            throw Self.reading(error, step: step)
        }
    }

    /// Decodes a trailer as read (keys hidden) into a sector state opened with key A.
    static func sectorState(_ sector: Int, keyA: [UInt8], trailer: [UInt8], step: NDEFTagStep) throws(NDEFTagError)
        -> ClassicSectorState
    {
        let classic = ChipTables.classic
        guard let accessBytes = classic.trailer[.accessBits].bytes(in: trailer),
            let gpb = classic.trailer[.generalPurposeByte].bytes(in: trailer)?.first
        else {
            throw .unexpectedResponse(
                step: step, description: "a sector trailer is \(classic.blockSize) bytes, got \(trailer.count)")
        }
        let access: AccessConditions
        do {
            access = try AccessConditions(accessBytes: accessBytes)
        } catch {
            throw .unexpectedResponse(
                step: step, description: "access bits \(accessBytes): \(error) (the card blocks such a sector)")
        }
        return ClassicSectorState(sector: sector, keyA: keyA, access: access, generalPurposeByte: gpb, readKey: .a)
    }

    /// The tag byte address of a trailer field of `sector`.
    func trailerAddress(of sector: Int, field name: ClassicTrailerFieldName) throws(NDEFTagError) -> Int {
        guard let block = geometry.trailerBlock(ofSector: sector) else {
            throw .unsupportedTag(reason: "sector \(sector) is not on this chip")
        }
        return block * geometry.blockSize + classic.trailer[name].offset
    }

    /// Whether `sector` holds a MAD (sector 0, or 16 on a 4K).
    func isMADSector(_ sector: Int) -> Bool {
        sector == classic.mad.mad1.sector
            || (sector == classic.mad.mad2.sector && geometry.sectorCount > classic.mad.mad2.sector)
    }
}

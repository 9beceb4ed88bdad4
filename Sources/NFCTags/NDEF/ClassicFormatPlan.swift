import NFCChips

/// The block writes that format a MIFARE Classic for NDEF with an empty message, in a
/// tear-safe order. Pure: computed from a snapshot and a survey of every sector it touches.
///
/// Every sector but the MAD sectors becomes an NFC sector. The order makes the sector 0
/// trailer — whose GPB carries the DA bit ("MAD available") — the single commit:
/// 1. `clear`: if the tag holds a message, its NDEF TLV length becomes 0 (reads empty);
/// 2. `nfcSectors`: for each NFC sector, the empty NDEF TLV `03 00 FE` in the first data
///    block of the first one (before its trailer changes its keys), then the NFC trailer
///    (`ChipTables.classic.nfcSectorTrailer` with the NFC key B);
/// 3. `directory`: on a 4K the MAD2 blocks and the sector 16 trailer, then the MAD1 blocks
///    — the block holding the CRC last;
/// 4. `commit`: the sector 0 trailer (`madSectorTrailer`, GPB `C1` or `C2`).
///
/// On a blank card the DA bit stays clear until step 4, so until then the card reads as
/// blank: a reader never sees a MAD that points at sectors not yet formatted. Blocks and
/// trailers that already hold their target are not written (a trailer matches when its
/// key A opened the sector and its access bits and GPB are the target's; key B cannot be
/// read back).
struct ClassicFormatPlan: Sendable, Equatable {
    /// The part of the format a write belongs to.
    enum Stage: Sendable, Equatable {
        case clear, nfcSectors, directory, commit
    }

    /// The writes, in order.
    var writes: [ClassicBlockWrite]
    /// The stage of each write.
    var stages: [Stage]
    /// The NFC sectors the format sets up.
    var nfcSectors: [Int]
    /// Whether the tag held NDEF before (a message or an empty one).
    var hadNDEF: Bool
    /// Whether the sector 0 GPB had its DA bit set before (a MAD was visible).
    var madWasVisible: Bool

    /// A sector as the survey found it, with the bytes of the blocks it was asked to read.
    struct SurveyedSector: Sendable, Equatable {
        var state: ClassicSectorState
        var blocks: [Int: [UInt8]]
    }

    /// The NFC sectors a format sets up on `geometry`: every sector but the MAD sectors.
    static func nfcSectors(geometry: ClassicGeometry, mad: MADSpec) -> [Int] {
        (0..<geometry.sectorCount).filter {
            $0 != mad.mad1.sector && !($0 == mad.mad2.sector && geometry.sectorCount > mad.mad2.sector)
        }
    }

    /// The sectors a format touches, in the order it surveys them.
    static func sectorsToSurvey(geometry: ClassicGeometry, mad: MADSpec) -> [Int] {
        let hasMAD2 = geometry.sectorCount > mad.mad2.sector
        return nfcSectors(geometry: geometry, mad: mad) + (hasMAD2 ? [mad.mad2.sector] : []) + [mad.mad1.sector]
    }

    init(
        snapshot: ClassicTagSnapshot, surveyed: [Int: SurveyedSector], keys: ClassicKeyRing,
        geometry: ClassicGeometry, classic: ClassicSpec
    ) throws(NDEFTagError) {
        let mad = classic.mad
        let mapping = Type2Mapping.standard
        let size = geometry.blockSize
        let hasMAD2 = geometry.sectorCount > mad.mad2.sector
        nfcSectors = Self.nfcSectors(geometry: geometry, mad: mad)
        hadNDEF = snapshot.hasNDEF
        madWasVisible = snapshot.madVersion != nil
        writes = []
        stages = []

        // 1. clear the old message's length
        if let length = snapshot.ndefLength, length > 0, let area = snapshot.area, let scan = snapshot.scan,
            let ndef = scan.ndef, let lengthIndex = ndef.lengthAddresses.first
        {
            let position = lengthIndex / size
            var block = Array(snapshot.stream[area.streamRange(ofBlockAt: position)])
            block[lengthIndex % size] = 0
            let number = area.blocks[position]
            guard let sector = geometry.sector(ofBlock: number),
                let state = snapshot.sectors.first(where: { $0.sector == sector }), let keyType = state.dataWriteKey
            else {
                throw .tagNotWritable
            }
            append(
                ClassicBlockWrite(
                    sector: sector, block: number, bytes: block, keyType: keyType,
                    key: keyType == .a ? state.keyA : keys.nfcKeyB, isTrailer: false,
                    step: .clearLength(page: number)), .clear)
        }

        // 2. NFC sectors: the empty NDEF TLV, then the trailers
        let nfcTrailer = classic.nfcSectorTrailer.block(keyB: keys.nfcKeyB)
        for (index, sector) in nfcSectors.enumerated() {
            guard let entry = surveyed[sector], let first = geometry.firstBlock(ofSector: sector) else {
                throw .authenticationRequired(step: .authenticateSector(sector))
            }
            if index == 0 {
                var empty = [mapping.ndefTLV, 0, mapping.terminatorTLV]
                empty += [UInt8](repeating: 0, count: size - empty.count)
                try addData(
                    first, empty, entry: entry, keys: keys, madSector: false, step: .writeFormat(page: first),
                    stage: .nfcSectors)
            }
            try addTrailer(
                nfcTrailer, entry: entry, keys: keys, madSector: false, geometry: geometry, stage: .nfcSectors)
        }

        // 3. the directory, CRC block last, and 4. the sector 0 trailer
        var applications: [Int: [UInt8]] = [:]
        for sector in nfcSectors { applications[sector] = mad.nfcAID }
        let madGPB = hasMAD2 ? mad.gpbMAD2 : mad.gpbMAD1
        let madTrailer = mad.madSectorTrailer.keyA + mad.madSectorTrailer.accessBits + [madGPB] + keys.madKeyB
        var directories: [(MADDirectory, UInt8)] = []
        if hasMAD2 { directories.append((mad.mad2, mad.mad2.formatInfoByte)) }
        directories.append((mad.mad1, mad.mad1.formatInfoByte))
        for (directory, info) in directories {
            guard let entry = surveyed[directory.sector] else {
                throw .authenticationRequired(step: .authenticateSector(directory.sector))
            }
            let bytes = MADTable.directoryBytes(directory, infoByte: info, applications: applications, spec: mad)
            let blocks = directory.blocks.map { Int($0) }
            for (position, block) in blocks.enumerated().reversed() {
                let content = Array(bytes[(position * size)..<min(bytes.count, (position + 1) * size)])
                try addData(
                    block, content + [UInt8](repeating: 0, count: size - content.count), entry: entry, keys: keys,
                    madSector: true, step: .writeApplicationDirectory(block: block), stage: .directory)
            }
            try addTrailer(
                madTrailer, entry: entry, keys: keys, madSector: true, geometry: geometry,
                stage: directory.sector == mad.mad1.sector ? .commit : .directory)
        }
    }

    /// What the tag holds when write `index` failed (`mayHave`: it may have reached the tag).
    /// A trailer write that may have reached the card leaves it `unknown`: cut inside its
    /// EEPROM cycle, the trailer holds mixed keys and access bits, and the sector may be
    /// blocked or locked to keys nobody knows, beyond repair.
    func state(failedAt index: Int, mayHaveReachedTag mayHave: Bool) -> NDEFTagContentState {
        if mayHave, writes[index].isTrailer { return .unknown }
        switch stages[index] {
        case .clear:
            return mayHave ? .unknown : .previousMessageIntact
        case .nfcSectors:
            // After the clear (or with an empty message) the old MAD finds an empty NDEF:
            // these writes put `03 00 FE` in a first block and change trailers only.
            if hadNDEF { return .emptyMessage }
            return madWasVisible ? .unknown : .previousMessageIntact
        case .directory:
            if !madWasVisible { return .previousMessageIntact }
            return .unknown
        case .commit:
            if !madWasVisible { return mayHave ? .unknown : .previousMessageIntact }
            return hadNDEF && !stages.contains(.directory) ? .emptyMessage : .unknown
        }
    }

    private mutating func append(_ write: ClassicBlockWrite, _ stage: Stage) {
        writes.append(write)
        stages.append(stage)
    }

    private mutating func addData(
        _ block: Int, _ bytes: [UInt8], entry: SurveyedSector, keys: ClassicKeyRing,
        madSector: Bool, step: NDEFTagStep, stage: Stage
    ) throws(NDEFTagError) {
        if entry.blocks[block] == bytes { return }
        guard let keyType = entry.state.dataWriteKey else {
            if entry.state.keyTypes(holdingAll: (entry.state.dataConditions() ?? []).map(\.write)).contains(.b) {
                throw .authenticationRequired(step: .authenticateSector(entry.state.sector))
            }
            throw .tagNotWritable
        }
        append(
            ClassicBlockWrite(
                sector: entry.state.sector, block: block, bytes: bytes, keyType: keyType,
                key: keyType == .a ? entry.state.keyA : keys.keyB(madSector: madSector),
                isTrailer: false, step: step), stage)
    }

    private mutating func addTrailer(
        _ target: [UInt8], entry: SurveyedSector, keys: ClassicKeyRing, madSector: Bool,
        geometry: ClassicGeometry, stage: Stage
    ) throws(NDEFTagError) {
        let state = entry.state
        guard let block = geometry.trailerBlock(ofSector: state.sector) else { throw .tagNotWritable }
        let fields = ChipTables.classic.trailer
        if fields[.keyA].bytes(in: target) == state.keyA,
            fields[.accessBits].bytes(in: target) == state.access.accessBytes,
            fields[.generalPurposeByte].bytes(in: target)?.first == state.generalPurposeByte
        {
            return
        }
        guard let keyType = state.trailerWriteKey else {
            let rights = state.trailerCondition.map { [$0.keyAWrite, $0.accessBitsWrite, $0.keyBWrite] } ?? []
            if state.keyTypes(holdingAll: rights).contains(.b) {
                throw .authenticationRequired(step: .authenticateSector(state.sector))
            }
            throw .tagNotWritable
        }
        append(
            ClassicBlockWrite(
                sector: state.sector, block: block, bytes: target, keyType: keyType,
                key: keyType == .a ? state.keyA : keys.keyB(madSector: madSector),
                isTrailer: true, step: .writeSectorTrailer(sector: state.sector)), stage)
    }
}

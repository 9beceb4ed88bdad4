import NFCChips

/// The trailer writes that make a MIFARE Classic's NDEF read-only, in order. Pure:
/// computed from a snapshot.
///
/// 1. Every NFC sector, first to last, gets `ChipTables.classic.nfcSectorReadOnlyTrailer`
///    (data `010` read-only, trailer `110` frozen, GPB write bits `11`) with its key B.
/// 2. Then the MAD sectors (16 on a 4K with MAD2, then 0) get key A, the read-only access
///    bits `07 8F 0F` and their GPB unchanged (`ChipTables.mad.madSectorReadOnlyTrailer`).
///
/// Why NFC sectors first and the MAD last: the status is read from the NFC sectors, and one
/// read-only NFC sector makes the whole NDEF read as read-only, so from the first
/// acknowledged write on the tag never reads as writable; locking the MAD first would leave,
/// on a tear, a frozen directory over NDEF that still reads as writable. The message is
/// never touched. Sectors already read-only are skipped, so running the lock again after a
/// tear finishes it.
///
/// The read-only values come from AN1304 as remembered and are marked unverified in the
/// table (nfc-reference.md §6.6, §11 item 12); they decode to rights the MF1S50 tables
/// confirm.
struct ClassicLockPlan: Sendable, Equatable {
    /// The trailer writes, in order.
    var writes: [ClassicBlockWrite]
    /// For each written trailer: the access bits and GPB the read-back must show.
    var expected: [Int: (accessBits: [UInt8], generalPurposeByte: UInt8)]

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.writes == rhs.writes
            && lhs.expected.mapValues { $0.accessBits + [$0.generalPurposeByte] }
                == rhs.expected.mapValues { $0.accessBits + [$0.generalPurposeByte] }
    }

    init(snapshot: ClassicTagSnapshot, keys: ClassicKeyRing, geometry: ClassicGeometry, classic: ClassicSpec)
        throws(NDEFTagError)
    {
        writes = []
        expected = [:]
        let readOnly = classic.nfcSectorReadOnlyTrailer
        for state in snapshot.sectors {
            try add(
                sector: state, keyA: readOnly.keyA, accessBits: readOnly.accessBits, gpb: readOnly.generalPurposeByte,
                keyB: keys.nfcKeyB, madSector: false, keys: keys, geometry: geometry)
        }
        let madReadOnly = classic.mad.madSectorReadOnlyTrailer
        for state in [snapshot.mad2Sector, snapshot.madSector].compactMap({ $0 }) {
            try add(
                sector: state, keyA: madReadOnly.keyA, accessBits: madReadOnly.accessBits,
                gpb: state.generalPurposeByte, keyB: keys.madKeyB, madSector: true, keys: keys, geometry: geometry)
        }
    }

    private mutating func add(
        sector state: ClassicSectorState, keyA: [UInt8], accessBits: [UInt8], gpb: UInt8, keyB: [UInt8],
        madSector: Bool, keys: ClassicKeyRing, geometry: ClassicGeometry
    ) throws(NDEFTagError) {
        guard let block = geometry.trailerBlock(ofSector: state.sector) else { return }
        if state.access.accessBytes == accessBits, state.generalPurposeByte == gpb { return }
        let rights = state.trailerCondition.map { [$0.keyAWrite, $0.accessBitsWrite, $0.keyBWrite] } ?? []
        let holders = state.keyTypes(holdingAll: rights)
        guard let keyType = holders.first else { throw .tagNotWritable }
        writes.append(
            ClassicBlockWrite(
                sector: state.sector, block: block, bytes: keyA + accessBits + [gpb] + keyB,
                keyType: keyType, key: keyType == .a ? state.keyA : keys.keyB(madSector: madSector),
                isTrailer: true, step: .writeSectorTrailer(sector: state.sector)))
        expected[state.sector] = (accessBits, gpb)
    }
}

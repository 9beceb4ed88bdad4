import NFCChips

/// The access conditions of MF1S50 Tables 7 and 8, evaluated for the open session.
extension ClassicTag {
    /// What a command wants to do with a block.
    enum Operation {
        case read, write, increment, decrementTransferRestore
    }

    /// The sector's access conditions, or `nil` when the inverted copies disagree (the
    /// card then treats the whole sector as blocked).
    func accessConditions(ofSector sector: Int) -> AccessConditions? {
        guard let trailer = geometry.trailerBlock(ofSector: sector),
            let bytes = classic.trailer[.accessBits].bytes(in: block(trailer))
        else { return nil }
        return try? AccessConditions(accessBytes: bytes)
    }

    /// The key of the open session when it covers `block` and may be used at all: a key B
    /// that the trailer conditions make readable opens nothing.
    func sessionKey(for block: Int) -> ClassicKeyType? {
        guard let session, geometry.sector(ofBlock: block) == session.sector,
            let conditions = accessConditions(ofSector: session.sector),
            let trailer = classic.trailerCondition(for: conditions.trailer)
        else { return nil }
        if session.keyType == .b, trailer.keyBReadable { return nil }
        return session.keyType
    }

    /// The trailer rights of `block`'s sector for the session key, or `nil` when none apply.
    func trailerRights(for block: Int) -> (TrailerCondition, ClassicKeyType)? {
        guard let key = sessionKey(for: block), let session,
            let conditions = accessConditions(ofSector: session.sector),
            let rights = classic.trailerCondition(for: conditions.trailer)
        else { return nil }
        return (rights, key)
    }

    /// Whether the session may do `operation` on data block `block`.
    func allows(_ operation: Operation, dataBlock block: Int) -> Bool {
        guard !geometry.isTrailer(block: block), let key = sessionKey(for: block),
            let sector = geometry.sector(ofBlock: block),
            let first = geometry.firstBlock(ofSector: sector), let count = geometry.blockCount(ofSector: sector),
            let group = classic.accessGroup(blockIndex: block - first, blocksInSector: count),
            let conditions = accessConditions(ofSector: sector), group < conditions.groups.count,
            let rights = classic.dataBlockCondition(for: conditions.groups[group])
        else { return false }
        // The manufacturer block reads under its sector's rules but is never written.
        if block == 0, operation != .read { return false }
        switch operation {
        case .read: return rights.read.allows(key)
        case .write: return rights.write.allows(key)
        case .increment: return rights.increment.allows(key)
        case .decrementTransferRestore: return rights.decrementTransferRestore.allows(key)
        }
    }

    /// The trailer as READ shows it: key A as zeros, access bits and GPB and key B only
    /// where the trailer conditions let the session key read them.
    func visibleTrailer(_ block: Int, rights: TrailerCondition, key: ClassicKeyType) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: geometry.blockSize)
        let stored = self.block(block)
        func reveal(_ name: ClassicTrailerFieldName, when right: ClassicKeyRight) {
            guard right.allows(key) else { return }
            let field = classic.trailer[name]
            for offset in field.offset..<(field.offset + field.length) { bytes[offset] = stored[offset] }
        }
        reveal(.keyA, when: rights.keyARead)
        reveal(.accessBits, when: rights.accessBitsRead)
        reveal(.generalPurposeByte, when: rights.accessBitsRead)
        reveal(.keyB, when: rights.keyBRead)
        return bytes
    }

    /// The trailer a WRITE of `data` leaves: each part changes only where the conditions
    /// let the session key write it (the GPB goes with the access bits).
    func writtenTrailer(_ block: Int, data: [UInt8], rights: TrailerCondition, key: ClassicKeyType) -> [UInt8] {
        var bytes = self.block(block)
        func take(_ name: ClassicTrailerFieldName, when right: ClassicKeyRight) {
            guard right.allows(key) else { return }
            let field = classic.trailer[name]
            for offset in field.offset..<(field.offset + field.length) { bytes[offset] = data[offset] }
        }
        take(.keyA, when: rights.keyAWrite)
        take(.accessBits, when: rights.accessBitsWrite)
        take(.generalPurposeByte, when: rights.accessBitsWrite)
        take(.keyB, when: rights.keyBWrite)
        return bytes
    }
}

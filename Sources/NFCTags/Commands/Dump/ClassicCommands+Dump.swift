import NFCChips

/// Dump and restore of MIFARE Classic memory.
extension ClassicCommands {
    /// The keys a dump tries when the caller gives none: every well-known key in the tables.
    package static var wellKnownKeys: [[UInt8]] {
        var keys: [[UInt8]] = []
        for key in ChipTables.classic.keys.map(\.key) where !keys.contains(key) { keys.append(key) }
        return keys
    }

    /// Reads every sector it can open, trying each key of `keys` as key A, then as key B
    /// (the tag is reselected after a refused key). Sectors no key opens have `nil` blocks.
    /// Trailers carry the key that opened them in place of the zeros the card returns.
    package func dump(keys: [[UInt8]] = ClassicCommands.wellKnownKeys) async throws(TagCommandError) -> TagMemoryDump {
        var blocks = [[UInt8]?](repeating: nil, count: geometry.blockCount)
        var sectorKeys: [ClassicSectorKeys] = []
        for sector in 0..<geometry.sectorCount {
            guard let first = geometry.firstBlock(ofSector: sector), let count = geometry.blockCount(ofSector: sector)
            else { continue }
            var opened: (ClassicKeyType, [UInt8])?
            search: for keyType in [ClassicKeyType.a, .b] {
                for key in keys {
                    do {
                        try await authenticate(sector: sector, keyType: keyType, key: key)
                        opened = (keyType, key)
                        break search
                    } catch .authenticationFailed {
                        try await transport.reselectTag()
                    }
                }
            }
            guard let (keyType, key) = opened else {
                sectorKeys.append(ClassicSectorKeys(sector: sector, keyA: nil, keyB: nil))
                continue
            }
            for block in first..<(first + count) {
                do {
                    blocks[block] = try await readBlock(block)
                } catch .transport(.timeout) {
                    try await transport.reselectTag()  // the access bits deny this block to this key
                    try await authenticate(sector: sector, keyType: keyType, key: key)
                }
            }
            var keysOfSector = ClassicSectorKeys(
                sector: sector, keyA: keyType == .a ? ClassicKey(uncheckedBytes: key) : nil,
                keyB: keyType == .b ? ClassicKey(uncheckedBytes: key) : nil)
            let trailer = first + count - 1
            if var bytes = blocks[trailer] {
                let keyAField = ChipTables.classic.trailer[.keyA]
                let keyBField = ChipTables.classic.trailer[.keyB]
                if let keyA = keysOfSector.keyA {
                    bytes.replaceSubrange(keyAField.offset..<(keyAField.offset + keyAField.length), with: keyA.bytes)
                }
                if let keyB = keysOfSector.keyB {
                    bytes.replaceSubrange(keyBField.offset..<(keyBField.offset + keyBField.length), with: keyB.bytes)
                } else if let readable = try? ClassicSectorTrailer(bytes: bytes), !readable.isKeyBUsable {
                    keysOfSector.keyB = readable.keyB
                }
                blocks[trailer] = bytes
            }
            sectorKeys.append(keysOfSector)
        }
        return TagMemoryDump(chip: chip, uid: transport.target.uid, blocks: blocks, sectorKeys: sectorKeys)
    }

    /// Writes a dump back, sector by sector, authenticating with `keys`: data blocks always
    /// (never block 0), trailers only with ``RestoreOptions/sectorTrailers`` and after the
    /// usability check. Sectors with no block in the dump are skipped.
    ///
    /// Key B goes first when given (its rights are the wider ones) unless the dump's trailer
    /// of the sector shows key B readable — a transport trailer, where key B is data and
    /// opens nothing — in which case key A is used; when key B is refused and key A is
    /// given, the tag is selected again and key A is tried.
    ///
    /// - Returns: the blocks written, in order.
    @discardableResult
    package func restore(
        _ dump: TagMemoryDump, keys: [ClassicSectorKeys], options: RestoreOptions = [],
        consent: IrreversibleConsent = []
    ) async throws(TagCommandError) -> [Int] {
        try dump.validate()
        guard dump.chip == chip, let blocks = dump.blocks else {
            throw .invalidArgument("the dump is of \(dump.chip.rawValue), the tag is \(chip.rawValue)")
        }
        var written: [Int] = []
        for sector in 0..<geometry.sectorCount {
            guard let first = geometry.firstBlock(ofSector: sector), let count = geometry.blockCount(ofSector: sector)
            else { continue }
            let range = first..<(first + count)
            guard range.contains(where: { blocks[$0] != nil }) else { continue }
            guard let sectorKeys = keys.first(where: { $0.sector == sector }) else {
                throw .invalidArgument("no key given for sector \(sector)")
            }
            let dumpTrailer = geometry.trailerBlock(ofSector: sector).flatMap { blocks[$0] }.flatMap {
                try? ClassicSectorTrailer(bytes: $0)
            }
            try await authenticate(sector: sector, keys: sectorKeys, keyBUsable: dumpTrailer?.isKeyBUsable ?? true)
            for block in range where block != 0 {
                guard let bytes = blocks[block] else { continue }
                if geometry.isTrailer(block: block) {
                    guard options.contains(.sectorTrailers) else { continue }
                    try await writeSectorTrailer(
                        try ClassicSectorTrailer(bytes: bytes), sector: sector, consent: consent)
                } else {
                    try await writeBlock(block, bytes: bytes)
                }
                written.append(block)
            }
        }
        return written
    }

    /// Authenticates `sector` with key B when it can open the sector, falling back to key A.
    private func authenticate(sector: Int, keys: ClassicSectorKeys, keyBUsable: Bool) async throws(TagCommandError) {
        if let keyB = keys.keyB, keyBUsable {
            do {
                try await authenticate(sector: sector, keyType: .b, key: keyB.bytes)
                return
            } catch .authenticationFailed where keys.keyA != nil {
                try await transport.reselectTag()
            }
        }
        guard let keyA = keys.keyA else {
            throw .invalidArgument(
                keys.keyB == nil
                    ? "no key given for sector \(sector)"
                    : "sector \(sector): the dump's trailer makes key B readable (it opens nothing) and no key A is given"
            )
        }
        try await authenticate(sector: sector, keyType: .a, key: keyA.bytes)
    }
}

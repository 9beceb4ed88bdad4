import NFCChips

/// What one pass of reads learned about a MIFARE Classic sector: which key opened it, its
/// access conditions and GPB (from the trailer), and which key may write its data blocks.
struct ClassicSectorState: Sendable, Equatable {
    /// Why the data blocks cannot be written.
    enum WriteRefusal: Sendable, Equatable {
        /// The access conditions give no key the right to write some data group.
        case accessConditions(group: Int)
        /// The NFC-sector GPB write-access bits say read-only.
        case generalPurposeByte(UInt8)
        /// Only key B may write, and the key B the driver has was refused (or key B is
        /// readable, so it cannot authenticate).
        case keyBNotKnown
    }

    /// The sector.
    var sector: Int
    /// The key A that opened the sector.
    var keyA: [UInt8]
    /// The access conditions.
    var access: AccessConditions
    /// The general-purpose byte (trailer byte 9).
    var generalPurposeByte: UInt8
    /// The key the data blocks were read with.
    var readKey: ClassicKeyType
    /// The key that may write the data blocks (`nil` when none may).
    var dataWriteKey: ClassicKeyType?
    /// Why the data blocks cannot be written (`nil` when ``dataWriteKey`` may).
    var writeRefusal: WriteRefusal?
    /// The key that may rewrite the whole trailer (key A, access bits, GPB, key B), when
    /// the reading pass was asked to find it.
    var trailerWriteKey: ClassicKeyType?

    /// Whether the access conditions let key B authenticate (key B not readable).
    var isKeyBUsable: Bool {
        !(ChipTables.classic.trailerCondition(for: access.trailer)?.keyBReadable ?? true)
    }

    /// The key types, in order of preference, that hold `right` — key A first, key B only
    /// when it can authenticate.
    func keyTypes(holding right: ClassicKeyRight) -> [ClassicKeyType] {
        var result: [ClassicKeyType] = []
        if right.allows(NFCChips.ClassicKeyType.a) { result.append(.a) }
        if right.allows(NFCChips.ClassicKeyType.b), isKeyBUsable { result.append(.b) }
        return result
    }

    /// The key types that hold every right in `rights`.
    func keyTypes(holdingAll rights: [ClassicKeyRight]) -> [ClassicKeyType] {
        rights.reduce([ClassicKeyType.a, .b]) { types, right in
            let holders = keyTypes(holding: right)
            return types.filter { holders.contains($0) }
        }
    }

    /// The data-block rights of each data group (0–2), or `nil` for a code the table lacks.
    func dataConditions() -> [DataBlockCondition]? {
        let conditions = access.groups.compactMap { ChipTables.classic.dataBlockCondition(for: $0) }
        return conditions.count == access.groups.count ? conditions : nil
    }

    /// The trailer rights, or `nil` for a code the table lacks.
    var trailerCondition: TrailerCondition? { ChipTables.classic.trailerCondition(for: access.trailer) }

    /// The NFC-sector GPB says writes are not granted.
    var gpbSaysReadOnly: Bool { generalPurposeByte & ChipTables.classic.nfcSectorGPBFields.writeAccessMask != 0 }
}

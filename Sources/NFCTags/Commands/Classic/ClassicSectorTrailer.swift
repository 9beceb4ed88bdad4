import NFCChips

/// A MIFARE Classic sector trailer: key A, the access bits (with their inverted copies),
/// the general-purpose byte and key B, at the offsets the tables give.
///
/// ```swift
/// let trailer = try ClassicSectorTrailer(bytes: ChipTables.classic.factoryTrailer)
/// trailer.access.trailer.code     // "001" (transport)
/// trailer.problems                // [] — usable
/// ```
public struct ClassicSectorTrailer: Sendable, Hashable {
    /// Key A (reads back as zeros from a card).
    public var keyA: ClassicKey
    /// C1C2C3 of the data groups and the trailer.
    public var access: AccessConditions
    /// The general-purpose (user) byte.
    public var generalPurposeByte: UInt8
    /// Key B (reads back as zeros unless the access bits make it readable).
    public var keyB: ClassicKey

    /// A trailer from its parts.
    public init(keyA: ClassicKey, access: AccessConditions, generalPurposeByte: UInt8, keyB: ClassicKey) {
        self.keyA = keyA
        self.access = access
        self.generalPurposeByte = generalPurposeByte
        self.keyB = keyB
    }

    /// Decodes 16 bytes; invalid access bits throw ``TagCommandError/unusableTrailer(_:)``.
    public init(bytes: [UInt8]) throws(TagCommandError) {
        let fields = ChipTables.classic.trailer
        guard bytes.count == ChipTables.classic.blockSize, let keyA = fields[.keyA].bytes(in: bytes),
            let accessBytes = fields[.accessBits].bytes(in: bytes),
            let gpb = fields[.generalPurposeByte].bytes(in: bytes)?.first,
            let keyB = fields[.keyB].bytes(in: bytes)
        else {
            throw .unusableTrailer([.wrongLength(bytes.count)])
        }
        do {
            access = try AccessConditions(accessBytes: accessBytes)
        } catch .inversionMismatch(let byte, let bit) {
            throw .unusableTrailer([.invalidAccessBits(byte: fields[.accessBits].offset + byte, bit: bit)])
        } catch {
            throw .unusableTrailer([.wrongLength(accessBytes.count)])
        }
        self.keyA = ClassicKey(uncheckedBytes: keyA)
        self.generalPurposeByte = gpb
        self.keyB = ClassicKey(uncheckedBytes: keyB)
    }

    /// The 16 bytes of the block.
    public var bytes: [UInt8] {
        get throws(TagCommandError) {
            let fields = ChipTables.classic.trailer
            guard keyA.bytes.count == fields[.keyA].length, keyB.bytes.count == fields[.keyB].length else {
                throw .invalidArgument("Classic keys are \(fields[.keyA].length) bytes")
            }
            var block = [UInt8](repeating: 0, count: ChipTables.classic.blockSize)
            block.replaceSubrange(
                fields[.keyA].offset..<(fields[.keyA].offset + fields[.keyA].length), with: keyA.bytes)
            block.replaceSubrange(
                fields[.accessBits].offset..<(fields[.accessBits].offset + fields[.accessBits].length),
                with: access.accessBytes)
            block[fields[.generalPurposeByte].offset] = generalPurposeByte
            block.replaceSubrange(
                fields[.keyB].offset..<(fields[.keyB].offset + fields[.keyB].length), with: keyB.bytes)
            return block
        }
    }

    /// Whether key B can authenticate (it cannot when the access bits make it readable).
    public var isKeyBUsable: Bool {
        !(ChipTables.classic.trailerCondition(for: access.trailer)?.keyBReadable ?? false)
    }

    /// Whether some usable key may still rewrite the access bits.
    public var accessBitsChangeable: Bool {
        guard let condition = ChipTables.classic.trailerCondition(for: access.trailer) else { return false }
        return usable(condition.accessBitsWrite)
    }

    /// Whether nothing in the trailer can ever be changed again (irreversible).
    public var isFrozen: Bool {
        guard let condition = ChipTables.classic.trailerCondition(for: access.trailer) else { return true }
        return !usable(condition.accessBitsWrite) && !usable(condition.keyAWrite) && !usable(condition.keyBWrite)
    }

    /// What makes this trailer unusable (empty when it is fine).
    public var problems: [SectorTrailerProblem] {
        let classic = ChipTables.classic
        guard !accessBitsChangeable else { return [] }
        var result: [SectorTrailerProblem] = []
        for (group, bits) in access.groups.enumerated() {
            guard let condition = classic.dataBlockCondition(for: bits) else { continue }
            if !usable(condition.read) {
                result.append(
                    condition.read == .keyB
                        ? .rightOnlyForReadableKeyB(right: "read of data group \(group)")
                        : .dataGroupUnreadableForever(group: group))
            }
        }
        return result
    }

    /// Whether a right can be exercised with a key that can authenticate.
    private func usable(_ right: ClassicKeyRight) -> Bool {
        right.allows(NFCChips.ClassicKeyType.a) || (isKeyBUsable && right.allows(NFCChips.ClassicKeyType.b))
    }
}

import NFCChips

/// A MIFARE Classic value block: a signed 32-bit value stored three times (once inverted)
/// and a one-byte address stored four times (twice inverted), so that the card can check it.
///
/// ```swift
/// let block = ClassicValueBlock(value: 100, address: 5).bytes   // 64 00 00 00 9B FF FF FF 64 00 00 00 05 FA 05 FA
/// let decoded = try ClassicValueBlock(bytes: block)             // value 100, address 5
/// ```
public struct ClassicValueBlock: Sendable, Hashable {
    /// The value (two's complement, little-endian on the card).
    public var value: Int32
    /// The address byte (by convention the block's own number, used for backup management).
    public var address: UInt8

    private static var layout: ClassicValueBlockLayout { ChipTables.classic.valueBlockLayout }

    /// A value block.
    public init(value: Int32, address: UInt8) {
        self.value = value
        self.address = address
    }

    /// Decodes 16 bytes, checking every copy; the error names the first byte that disagrees.
    public init(bytes: [UInt8]) throws(TagCommandError) {
        let size = ChipTables.classic.blockSize
        guard bytes.count == size else {
            throw .invalidAnswer(
                command: nil, bytes: bytes, offset: min(bytes.count, size), expected: "a \(size)-byte value block")
        }
        let stored = Self.valueBytes(in: bytes, at: Self.layout.valueOffsets[0])
        for offset in Self.layout.valueOffsets.dropFirst() where Self.valueBytes(in: bytes, at: offset) != stored {
            let index = (0..<Self.layout.valueLength).first { bytes[offset + $0] != stored[$0] } ?? 0
            throw .invalidAnswer(
                command: nil, bytes: bytes, offset: offset + index, expected: "the same value in each copy")
        }
        let inverted = Self.valueBytes(in: bytes, at: Self.layout.invertedValueOffset)
        if let index = (0..<Self.layout.valueLength).first(where: { inverted[$0] != ~stored[$0] }) {
            throw .invalidAnswer(
                command: nil, bytes: bytes, offset: Self.layout.invertedValueOffset + index,
                expected: "the inverted value")
        }
        let address = bytes[Self.layout.addressOffsets[0]]
        for offset in Self.layout.addressOffsets where bytes[offset] != address {
            throw .invalidAnswer(command: nil, bytes: bytes, offset: offset, expected: "the address byte \(address)")
        }
        for offset in Self.layout.invertedAddressOffsets where bytes[offset] != ~address {
            throw .invalidAnswer(command: nil, bytes: bytes, offset: offset, expected: "the inverted address byte")
        }
        let raw = stored.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        self.init(value: Int32(bitPattern: raw), address: address)
    }

    /// The 16 bytes of the block.
    public var bytes: [UInt8] {
        var block = [UInt8](repeating: 0, count: ChipTables.classic.blockSize)
        let value = Self.littleEndian(self.value)
        for offset in Self.layout.valueOffsets {
            block.replaceSubrange(offset..<(offset + Self.layout.valueLength), with: value)
        }
        block.replaceSubrange(
            Self.layout.invertedValueOffset..<(Self.layout.invertedValueOffset + Self.layout.valueLength),
            with: value.map { ~$0 })
        for offset in Self.layout.addressOffsets { block[offset] = address }
        for offset in Self.layout.invertedAddressOffsets { block[offset] = ~address }
        return block
    }

    /// A 32-bit value as the 4 little-endian bytes the card stores and the value commands send.
    static func littleEndian(_ value: Int32) -> [UInt8] {
        let raw = UInt32(bitPattern: value)
        return (0..<Self.layout.valueLength).map { UInt8(truncatingIfNeeded: raw >> (8 * UInt32($0))) }
    }

    private static func valueBytes(in bytes: [UInt8], at offset: Int) -> [UInt8] {
        Array(bytes[offset..<(offset + Self.layout.valueLength)])
    }
}

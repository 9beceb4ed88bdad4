import NFCChips
/// One block write of a MIFARE Classic format or lock: the sector to open and with which
/// key, the block (a data block or the sector trailer) and its new bytes.
struct ClassicBlockWrite: Sendable, Equatable {
    /// The sector the block is in.
    var sector: Int
    /// The block.
    var block: Int
    /// The 16 new bytes.
    var bytes: [UInt8]
    /// The key type that opens the sector with the right to write the block.
    var keyType: ClassicKeyType
    /// The key.
    var key: [UInt8]
    /// Whether the block is the sector trailer.
    var isTrailer: Bool
    /// The step, for errors.
    var step: NDEFTagStep
}

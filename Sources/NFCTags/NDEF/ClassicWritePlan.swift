/// The block writes of a tear-safe NDEF write on a MIFARE Classic, in order, and the
/// stream the NFC sectors hold when they are done. Pure: computed from a snapshot and the
/// new message.
///
/// The phases are those of the Type 2 write, with 16-byte blocks for pages and the
/// NFC-sector stream (trailers skipped) for the data area:
/// 1. `clearLength`: the block holding the NDEF TLV length byte gets length `00` (and the
///    block holding the type byte `03`, length block first), so a reader sees an empty
///    message;
/// 2. `body`: every other changed block — the length block too when its other bytes
///    change, with the length still `00`; never the type block;
/// 3. `commit`: the length block with the real length, in which nothing but the length
///    byte changes (one block write).
///
/// A 16-byte length block holds up to 14 message bytes; a commit that wrote them too could,
/// cut inside its EEPROM cycle, read back as a valid message with wrong bytes. With the
/// length alone in the commit a torn one reads as empty, new, or a prefix that never
/// decodes (``Type2WritePlan`` says why).
///
/// Each write names the sector and the key type the snapshot found may write it.
struct ClassicWritePlan: Sendable, Equatable {
    /// One block write.
    struct BlockWrite: Sendable, Equatable {
        var block: Int
        var bytes: [UInt8]
        var phase: NDEFWritePhase

        /// The step this write is, for errors.
        var step: NDEFTagStep {
            switch phase {
            case .clearLength: .clearLength(page: block)
            case .body: .writeBody(page: block)
            case .commit: .commitLength(page: block)
            }
        }
    }

    /// The writes, in the order they must be sent.
    var writes: [BlockWrite]
    /// The stream after the last write.
    var finalStream: [UInt8]
    /// The blocks the read-back compares (positions in the area's block list).
    var verifyPositions: ClosedRange<Int>
    /// Whether the tag read as an empty NDEF before the write.
    var previousReadsEmpty: Bool

    /// Plans writing `message` (already checked to fit) into the tag `snapshot` describes.
    init?(snapshot: ClassicTagSnapshot, message: [UInt8], fullWrite: Bool) {
        let mapping = Type2Mapping.standard
        guard let area = snapshot.area, let scan = snapshot.scan, let start = scan.insertionAddress else { return nil }
        let size = area.blockSize
        var tlv = [mapping.ndefTLV] + mapping.lengthField(message.count) + message
        if scan.area.availableBytes(from: start) > tlv.count { tlv.append(mapping.terminatorTLV) }
        guard let indexes = scan.area.streamAddresses(from: start, count: tlv.count), indexes.count >= 2 else {
            return nil
        }

        let current = snapshot.stream
        var final = current
        for (index, byte) in zip(indexes, tlv) { final[index] = byte }
        var cleared = current
        cleared[indexes[0]] = mapping.ndefTLV
        cleared[indexes[1]] = 0
        var staged = final
        staged[indexes[1]] = 0

        func block(_ image: [UInt8], _ position: Int) -> [UInt8] { Array(image[area.streamRange(ofBlockAt: position)]) }
        let typePosition = indexes[0] / size
        let lengthPosition = indexes[1] / size
        var writes: [BlockWrite] = []
        for position in [lengthPosition, typePosition]
        where !writes.contains(where: { $0.block == area.blocks[position] }) {
            if fullWrite || block(cleared, position) != block(current, position) {
                writes.append(
                    BlockWrite(block: area.blocks[position], bytes: block(cleared, position), phase: .clearLength))
            }
        }
        let spanned = Array(Set(indexes.map { $0 / size })).sorted()
        for position in spanned where position == lengthPosition || position != typePosition {
            if fullWrite || block(staged, position) != block(cleared, position) {
                writes.append(BlockWrite(block: area.blocks[position], bytes: block(staged, position), phase: .body))
            }
        }
        if fullWrite || block(final, lengthPosition) != block(staged, lengthPosition) {
            writes.append(
                BlockWrite(block: area.blocks[lengthPosition], bytes: block(final, lengthPosition), phase: .commit))
        }
        // Nothing changes at all: no write is needed, not even the clear.
        if !fullWrite, final == current { writes = [] }

        self.writes = writes
        self.finalStream = final
        self.verifyPositions = (spanned.first ?? typePosition)...(spanned.last ?? typePosition)
        self.previousReadsEmpty = scan.ndef?.length == 0 && scan.problem == nil
    }
}

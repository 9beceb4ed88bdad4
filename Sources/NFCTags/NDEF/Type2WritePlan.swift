/// The page writes of a tear-safe Type 2 NDEF write, in order, and the image the tag
/// holds when they are done. Pure: computed from a snapshot and the new message.
///
/// Phases (T2T write procedure, with the length byte as the single commit point):
/// 1. `clearLength`: the NDEF TLV length byte becomes `00` (and the type byte `03`), so a
///    reader sees an empty message; the length page is written before the type page, so
///    until both are done the tag reads as before.
/// 2. `body`: every other changed page (the rest of the length field, the message, the
///    Terminator) — never the length or type page, so the tag reads as empty throughout.
/// 3. `commit`: the length page with the real length (one page write: the 1-byte length,
///    or the `FF` marker of the 3-byte form whose other two bytes the body phase wrote).
struct Type2WritePlan: Sendable, Equatable {
    typealias Phase = NDEFWritePhase

    struct PageWrite: Sendable, Equatable {
        var page: Int
        var bytes: [UInt8]
        var phase: Phase

        /// The step this write is, for errors.
        var step: NDEFTagStep {
            switch phase {
            case .clearLength: .clearLength(page: page)
            case .body: .writeBody(page: page)
            case .commit: .commitLength(page: page)
            }
        }
    }

    /// The writes, in the order they must be sent.
    var writes: [PageWrite]
    /// The memory image after the last write.
    var finalMemory: [UInt8]
    /// The pages the read-back compares.
    var verifyPages: ClosedRange<Int>
    /// Whether the tag read as an empty NDEF before the write.
    var previousReadsEmpty: Bool

    /// Plans writing `message` (already checked to fit) into the tag `snapshot` describes.
    init?(snapshot: Type2TagSnapshot, message: [UInt8], fullWrite: Bool) {
        let mapping = snapshot.mapping
        let pageSize = snapshot.profile.pageSize
        guard let scan = snapshot.scan, let start = scan.insertionAddress else { return nil }
        var tlv = [mapping.ndefTLV] + mapping.lengthField(message.count) + message
        if scan.area.availableBytes(from: start) > tlv.count { tlv.append(mapping.terminatorTLV) }
        guard let addresses = scan.area.streamAddresses(from: start, count: tlv.count) else { return nil }

        let memory = snapshot.memory
        var final = memory
        for (address, byte) in zip(addresses, tlv) { final[address] = byte }
        var cleared = memory
        cleared[addresses[0]] = mapping.ndefTLV
        cleared[addresses[1]] = 0

        func page(_ image: [UInt8], _ page: Int) -> [UInt8] {
            Array(image[(page * pageSize)..<((page + 1) * pageSize)])
        }
        let typePage = addresses[0] / pageSize
        let lengthPage = addresses[1] / pageSize
        var writes: [PageWrite] = []
        for clearPage in [lengthPage, typePage] where !writes.contains(where: { $0.page == clearPage }) {
            if fullWrite || page(cleared, clearPage) != page(memory, clearPage) {
                writes.append(PageWrite(page: clearPage, bytes: page(cleared, clearPage), phase: .clearLength))
            }
        }
        let spanned = Array(Set(addresses.map { $0 / pageSize })).sorted()
        for bodyPage in spanned where bodyPage != lengthPage && bodyPage != typePage {
            if fullWrite || page(final, bodyPage) != page(cleared, bodyPage) {
                writes.append(PageWrite(page: bodyPage, bytes: page(final, bodyPage), phase: .body))
            }
        }
        if fullWrite || page(final, lengthPage) != page(cleared, lengthPage) {
            writes.append(PageWrite(page: lengthPage, bytes: page(final, lengthPage), phase: .commit))
        }
        // Nothing changes at all: no write is needed, not even the clear.
        if !fullWrite, final == memory { writes = [] }

        self.writes = writes
        self.finalMemory = final
        self.verifyPages = (spanned.first ?? typePage)...(spanned.last ?? typePage)
        self.previousReadsEmpty = scan.ndef?.length == 0 && scan.problem == nil
    }
}

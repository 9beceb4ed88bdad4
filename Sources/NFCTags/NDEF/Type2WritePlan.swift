/// The page writes of a tear-safe Type 2 NDEF write, in order, and the image the tag
/// holds when they are done. Pure: computed from a snapshot and the new message.
///
/// Phases (T2T write procedure, with the length byte as the single commit point):
/// 1. `clearLength`: the NDEF TLV length byte becomes `00` (and the type byte `03`), so a
///    reader sees an empty message; the length page is written before the type page, so
///    until both are done the tag reads as before. Nothing else changes in these pages.
/// 2. `body`: every other changed page (the rest of the length field, the message, the
///    Terminator) — the length page too when its other bytes change, with the length still
///    `00`; never the type page. The tag reads as empty throughout.
/// 3. `commit`: the length page with the real length, in which nothing but the length
///    byte changes (the 1-byte length, or the `FF` marker of the 3-byte form).
///
/// Why the commit changes the length alone: a write cut inside its EEPROM cycle leaves
/// each bit of the page from the old or the new value. A torn commit then leaves a length
/// whose bits are each `0` or the new length's — the tag reads as empty, as the new
/// message, or as a prefix of it, and a prefix never decodes (its last record lacks ME or
/// runs past the length; over a 3-byte form's length bytes the first byte lacks MB). Had
/// the commit carried message bytes, a torn one could read as a valid message with wrong
/// bytes (the tear-in-write matrix found a type length `0A` torn to `02`: type `te`).
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
    /// The pages the read-back compares: the written ones, in runs (a short gap of unchanged
    /// pages is read through: one command less costs more than a few pages more).
    var verifyRuns: [ClosedRange<Int>]
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
        var staged = final
        staged[addresses[1]] = 0

        func page(_ image: [UInt8], _ page: Int) -> [UInt8] {
            Array(image[(page * pageSize)..<((page + 1) * pageSize)])
        }
        let typePage = addresses[0] / pageSize
        let lengthPage = addresses[1] / pageSize
        var writes: [PageWrite] = []
        // A page not read (past the old message) is written whatever it holds.
        for clearPage in [lengthPage, typePage] where !writes.contains(where: { $0.page == clearPage }) {
            if fullWrite || !snapshot.isKnown(page: clearPage) || page(cleared, clearPage) != page(memory, clearPage) {
                writes.append(PageWrite(page: clearPage, bytes: page(cleared, clearPage), phase: .clearLength))
            }
        }
        let spanned = Array(Set(addresses.map { $0 / pageSize })).sorted()
        for bodyPage in spanned where bodyPage == lengthPage || bodyPage != typePage {
            if fullWrite || !snapshot.isKnown(page: bodyPage) || page(staged, bodyPage) != page(cleared, bodyPage) {
                writes.append(PageWrite(page: bodyPage, bytes: page(staged, bodyPage), phase: .body))
            }
        }
        if fullWrite || page(final, lengthPage) != page(staged, lengthPage) {
            writes.append(PageWrite(page: lengthPage, bytes: page(final, lengthPage), phase: .commit))
        }
        // Nothing changes at all: no write is needed, not even the clear.
        if !fullWrite, final == memory, spanned.allSatisfy(snapshot.isKnown(page:)) { writes = [] }

        self.writes = writes
        self.finalMemory = final
        self.verifyRuns = Self.runs(of: writes.map(\.page), mergingGapsUpTo: Self.verifyGapPages)
        self.previousReadsEmpty = scan.ndef?.length == 0 && scan.problem == nil
    }

    /// Unchanged pages read through between two written ones rather than starting another
    /// read: at 115 200 baud and 106 kbit/s a page costs about 0.7 ms, a command's frames
    /// and framing about 3 ms.
    static let verifyGapPages = 4

    /// `pages` as sorted runs, two runs joined when at most `gap` pages lie between them.
    static func runs(of pages: [Int], mergingGapsUpTo gap: Int) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        for page in Set(pages).sorted() {
            if let last = runs.last, page - last.upperBound - 1 <= gap {
                runs[runs.count - 1] = last.lowerBound...page
            } else {
                runs.append(page...page)
            }
        }
        return runs
    }

    /// The last page that must be read before writing a TLV of `tlvLength` bytes blind past
    /// ``Type2TagSnapshot/knownEnd``: a page the TLV shares with reserved bytes or with
    /// bytes past the data area keeps those bytes, so they must be known. `nil` when none.
    static func lastPageToRead(before snapshot: Type2TagSnapshot, tlvLength: Int) -> Int? {
        let pageSize = snapshot.profile.pageSize
        guard snapshot.knownEnd != nil, let scan = snapshot.scan,
            let addresses = streamAddresses(in: snapshot, tlvLength: tlvLength)
        else { return nil }
        let stream = Set(addresses)
        var last: Int?
        for page in Set(addresses.map { $0 / pageSize }) where !snapshot.isKnown(page: page) {
            let kept = (page * pageSize..<(page + 1) * pageSize).contains { address in
                !stream.contains(address) && (address >= scan.area.end || scan.area.isReserved(address))
            }
            if kept { last = max(last ?? page, page) }
        }
        return last
    }

    /// The last page a TLV of `tlvLength` bytes (and its Terminator) will span, or `nil`
    /// when it does not fit.
    static func lastPage(before snapshot: Type2TagSnapshot, tlvLength: Int) -> Int? {
        streamAddresses(in: snapshot, tlvLength: tlvLength)?.last.map { $0 / snapshot.profile.pageSize }
    }

    /// The addresses of a TLV of `tlvLength` bytes at the insertion address, with the
    /// Terminator where there is room for it.
    private static func streamAddresses(in snapshot: Type2TagSnapshot, tlvLength: Int) -> [Int]? {
        guard let scan = snapshot.scan, let start = scan.insertionAddress else { return nil }
        let available = scan.area.availableBytes(from: start)
        guard tlvLength <= available else { return nil }
        return scan.area.streamAddresses(from: start, count: min(tlvLength + 1, available))
    }
}

// Fuzz target `type2-tag`: the Type 2 NDEF driver (CC, lock and configuration pages, the
// TLV walk, NDEF decoding) reading an NTAG216 whose memory is the fuzz input.
//
// The input is the memory image, page 0 first, zero-padded or cut to the chip's size from
// `ChipTables.spec(for: .ntag216)`. The transport answers like the chip (codes, page
// counts and fields from the tables):
// - READ `30 AA`: four pages from AA, rolling over to page 0 past the last readable page;
//   NAK 0 when AA is past it;
// - FAST_READ `3A SS EE`: pages SS…EE; NAK 0 when SS > EE or EE is past the last page;
// - with PROT set, pages from AUTH0 on are protected: READ of one is a NAK, READ rolls
//   over just before AUTH0, FAST_READ touching one is a NAK;
// - PWD and PACK read as zeros; the ASCII mirror is not modelled;
// - anything else: NAK 0 (NAKs through standard framing are timeouts).
//
// Properties, beyond "never traps": those of `fuzzCheckNDEFDriverRun` (typed errors that a
// tag with this content may cause, offsets inside the memory, status and read agree, a
// message read round-trips), and the driver never sends a command the chip refuses for any
// content (a page past the end, a reversed range, an answer longer than the reader's frame,
// or anything but a read).
import NFCChips
import NFCTags

@_cdecl("LLVMFuzzerTestOneInput")
public func type2TagFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let chip = Chip.ntag216
    guard let tag = NTAGMemoryTransport(chip: chip, image: input) else {
        fatalError("the \(chip.rawValue) table has no page memory or READ / FAST_READ")
    }
    let run = fuzzRunNDEFDriver { () throws(NDEFTagError) -> any NDEFTagDriver in
        try NDEFTagDrivers.driver(for: chip, transport: tag)
    }
    fuzzCheckNDEFDriverRun(run, input: tag.memory, offsetLimit: { _ in tag.map.totalBytes }) { error in
        switch error {
        case .invalidNDEF, .invalidTLV, .invalidCapabilityContainer, .authenticationRequired, .nak: true
        default: false
        }
    }
    let violations = tag.violations.all
    fuzzCheck(violations.isEmpty, "the driver sent commands the chip refuses: \(violations) for \(fuzzHex(tag.memory))")
    return 0
}

/// A Type 2 chip in the field whose memory is a fixed image: it answers READ and FAST_READ
/// as the chip does, and records the commands no chip would accept.
struct NTAGMemoryTransport: TagTransport {
    let memory: [UInt8]
    let map: MemoryMap
    let read: CommandSpec
    let fastRead: CommandSpec
    let invalidArgumentNAK: UInt8
    let violations = ProtocolViolations()
    let target: TagTarget
    var maximumFrameLength: Int { 240 }

    init?(chip: Chip, image: [UInt8]) {
        let spec = ChipTables.spec(for: chip)
        guard let map = spec.memory, let read = spec.command(.read), let fastRead = spec.command(.fastRead) else {
            return nil
        }
        var memory = Array(image.prefix(map.totalBytes))
        memory += [UInt8](repeating: 0, count: map.totalBytes - memory.count)
        self.memory = memory
        self.map = map
        self.read = read
        self.fastRead = fastRead
        invalidArgumentNAK = ChipTables.type2.acknowledgements[.invalidArgument].code
        // UID0-2 in page 0 (before BCC0), UID3-6 in page 1.
        let uid = Array(memory[0..<3]) + Array(memory[4..<8])
        target = TagTarget(uid: uid, atqa: spec.activation.atqa, sak: spec.activation.sak)
    }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError)
        -> TagResponse
    {
        let answer = self.answer(frame)
        if framing == .standard, case .nak = answer { throw .timeout }
        return answer
    }

    func reselect() async throws(TagTransportError) {}

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        violations.record("MIFARE Classic authentication on a Type 2 chip")
        throw .timeout
    }

    private func answer(_ frame: [UInt8]) -> TagResponse {
        switch frame.first {
        case read.code? where frame.count == read.requestLength:
            let page = Int(frame[1])
            guard page <= map.lastReadablePage else {
                violations.record("READ of page \(page), past the last page \(map.lastReadablePage)")
                return .nak(invalidArgumentNAK)
            }
            let end = protectedFrom ?? (map.lastReadablePage + 1)
            guard page < end else { return .nak(invalidArgumentNAK) }
            return .bytes((page..<(page + 4)).flatMap { visiblePage($0 % end) })
        case fastRead.code? where frame.count == fastRead.requestLength:
            let first = Int(frame[1])
            let last = Int(frame[2])
            guard first <= last, last <= map.lastReadablePage else {
                violations.record("FAST_READ of pages \(first)…\(last) (last page \(map.lastReadablePage))")
                return .nak(invalidArgumentNAK)
            }
            guard (last - first + 1) * map.pageSize <= maximumFrameLength else {
                violations.record("FAST_READ of pages \(first)…\(last) does not fit a \(maximumFrameLength)-byte frame")
                return .nak(invalidArgumentNAK)
            }
            if let protectedFrom, last >= protectedFrom { return .nak(invalidArgumentNAK) }
            return .bytes((first...last).flatMap(visiblePage))
        default:
            violations.record("a command other than READ / FAST_READ while reading: \(fuzzHex(frame))")
            return .nak(invalidArgumentNAK)
        }
    }

    /// The first page reads need the password for (PROT set), or `nil`.
    private var protectedFrom: Int? {
        guard let configuration = map.configuration, let auth0 = configuration.field(.auth0),
            let prot = configuration.field(.prot),
            prot.value(in: page(prot.page)) == 1, let first = auth0.value(in: page(auth0.page)),
            Int(first) <= map.lastReadablePage
        else { return nil }
        return Int(first)
    }

    private func page(_ page: Int) -> [UInt8] {
        Array(memory[(page * map.pageSize)..<((page + 1) * map.pageSize)])
    }

    /// A page as a READ shows it: PWD and PACK read as zeros.
    private func visiblePage(_ number: Int) -> [UInt8] {
        if let password = map.configuration?.password, password.readsAsZero,
            number == password.pwdPage || number == password.packPage
        {
            return [UInt8](repeating: 0, count: map.pageSize)
        }
        return page(number)
    }
}

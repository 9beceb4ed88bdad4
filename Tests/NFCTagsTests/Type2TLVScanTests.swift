import NFCChips
import TestSupport
import Testing
@testable import NFCTags

/// The TLV walk over hand-made data areas: well-formed layouts and a malformed corpus whose
/// errors carry the byte address of the bad TLV.
@Suite("Type 2 TLV walk: NULL, Lock / Memory Control, NDEF, Proprietary, Terminator")
struct Type2TLVScanTests {
    let mapping = Type2Mapping.standard

    /// Scans `tlvs` placed at byte 16 of a 256-byte memory with a 48-byte data area.
    func scan(_ tlvs: [UInt8], areaEnd: Int = 64) -> Type2TLVScan {
        var memory = [UInt8](repeating: 0, count: 256)
        memory.replaceSubrange(16..<(16 + tlvs.count), with: tlvs)
        return Type2TLVScan(
            memory: memory, area: Type2DataArea(start: 16, end: areaEnd), memorySize: 256, mapping: mapping)
    }

    @Test("NULLs are skipped; the NDEF TLV is found with a 1-byte length")
    func nulls() {
        let result = scan([0x00, 0x00, 0x03, 0x02, 0xD0, 0x00, 0xFE])
        #expect(result.ndef == .init(typeAddress: 18, lengthAddresses: [19], length: 2))
        #expect(result.problem == nil)
    }

    @Test(
        "a walk that reaches bytes not read yet says so; one that ends inside what was read does not",
        arguments: [
            // NULLs up to the end of what was read: the type byte after them is unread.
            ([0x00, 0x00, 0x00, 0x00], false),
            // A type byte read, its length not.
            ([0x00, 0x00, 0x00, 0xFD], false),
            // A 3-byte length cut after its marker.
            ([0x00, 0x00, 0xFD, 0xFF], false),
            // A Lock Control TLV whose value runs past the bytes read.
            ([0x00, 0x01, 0x03, 0xA0], false),
            // The NDEF TLV's header read: the walk ends there (its value is the caller's).
            ([0x00, 0x00, 0x03, 0x10], true),
        ] as [([UInt8], Bool)])
    func readPastMemory(tlvs: [UInt8], complete: Bool) {
        var memory = [UInt8](repeating: 0, count: 16)
        memory += tlvs
        let partial = Type2TLVScan(
            memory: memory, area: Type2DataArea(start: 16, end: 64), memorySize: 256, mapping: mapping)
        #expect(partial.readPastMemory == !complete, "\(tlvs)")
        // Read in full (zeros after), no walk runs past its memory.
        #expect(!scan(tlvs).readPastMemory)
    }

    @Test("a length cut by the end of the data area is truncated, not unread")
    func truncatedAtAreaEnd() {
        let result = scan([0x00, 0x00, 0x00, 0x03], areaEnd: 20)
        #expect(result.problem?.reason == .truncatedLength)
        #expect(!result.readPastMemory)
    }

    @Test("a 3-byte length")
    func longLength() {
        var memory = [UInt8](repeating: 0, count: 600)
        memory.replaceSubrange(16..<20, with: [0x03, 0xFF, 0x01, 0x00])
        let result = Type2TLVScan(
            memory: memory, area: Type2DataArea(start: 16, end: 600), memorySize: 600, mapping: mapping)
        #expect(result.ndef == .init(typeAddress: 16, lengthAddresses: [17, 18, 19], length: 256))
        #expect(result.problem == nil)
    }

    @Test("Proprietary TLVs are skipped by their length")
    func proprietary() {
        let result = scan([0xFD, 0x02, 0xAA, 0xBB, 0x03, 0x00])
        #expect(result.ndef?.typeAddress == 20)
    }

    @Test("a Memory Control TLV reserves bytes the stream then skips")
    func memoryControl() {
        // Reserve 4 bytes at byte 24 (page 1 × 16 + 8 with 16-byte pages: 0x18, size 4, 2^4).
        let result = scan([0x02, 0x03, 0x18, 0x04, 0x04, 0x00, 0x00, 0x00, 0xEE, 0xEE, 0xEE, 0xEE, 0x03, 0x00])
        #expect(result.area.reserved == [24..<28])
        #expect(result.ndef?.typeAddress == 28)
        #expect(result.area.streamAddresses(from: 22, count: 4) == [22, 23, 28, 29])
    }

    @Test("a Lock Control TLV reserves ⌈bits / 8⌉ bytes")
    func lockControl() {
        let result = scan([0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03, 0x00, 0xFE])
        #expect(result.area.reserved == [160..<162])
        #expect(result.ndef?.typeAddress == 21)
    }

    @Test("the Terminator before any NDEF TLV: missing NDEF at the Terminator, which is where one goes")
    func terminatorFirst() {
        let result = scan([0x00, 0xFE, 0x03, 0x00])
        #expect(result.ndef == nil)
        #expect(result.problem?.offset == 17)
        #expect(result.problem?.reason == .missingNDEFTLV)
        #expect(result.insertionAddress == 17)
    }

    @Test("an area of only NULLs: missing NDEF, inserted at the start")
    func allNulls() {
        let result = scan([])
        #expect(result.problem?.reason == .missingNDEFTLV)
        #expect(result.insertionAddress == 16)
    }

    @Test(
        "malformed corpus: each error names the TLV's address",
        arguments: [
            ([0x03, 0x40] as [UInt8], 16, NDEFTLVProblem.valuePastEnd(declared: 64, available: 46)),
            ([0x00, 0x03, 0xFF, 0x00, 0x40], 17, .valuePastEnd(declared: 64, available: 43)),
            ([0x01, 0x02, 0xA0, 0x0C], 16, .invalidControlLength(2)),
            ([0x02, 0x03, 0xF0, 0x20, 0x04], 16, .controlAreaOutOfRange(address: 240, size: 32)),
            ([0xFD, 0x30], 16, .valuePastEnd(declared: 48, available: 46)),
            ([0x00, 0x00, 0x05, 0x31], 18, .valuePastEnd(declared: 49, available: 44)),
        ])
    func malformed(tlvs: [UInt8], offset: Int, reason: NDEFTLVProblem) {
        let result = scan(tlvs)
        #expect(result.problem?.offset == offset)
        #expect(result.problem?.reason == reason)
    }

    @Test("a length field cut by the end of the area is truncatedLength at the TLV")
    func truncatedLength() {
        var memory = [UInt8](repeating: 0, count: 64)
        memory[62] = 0x03
        memory[63] = 0xFF
        var area = Type2DataArea(start: 16, end: 64)
        area.reserved = [16..<62]
        let result = Type2TLVScan(memory: memory, area: area, memorySize: 64, mapping: mapping)
        #expect(result.problem?.offset == 62)
        #expect(result.problem?.reason == .truncatedLength)
    }

    @Test("random bytes never trap and any NDEF found lies inside the area", arguments: 0..<4)
    func fuzz(round: Int) {
        var rng = SplitMix64(seed: 0x7157_0000 + UInt64(round))
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...48, using: &rng)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let result = scan(bytes)
            if let ndef = result.ndef {
                #expect((16..<64).contains(ndef.typeAddress), "seed round \(round): \(hex(bytes))")
            }
            if let problem = result.problem { #expect((16...64).contains(problem.offset)) }
        }
    }
}

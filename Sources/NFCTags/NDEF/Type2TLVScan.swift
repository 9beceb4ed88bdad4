import NFCChips

/// The result of walking a Type 2 tag's TLV area (NFC Forum T2T NDEF detection): the
/// reserved areas, the first NDEF TLV, and where a new NDEF TLV would go.
///
/// The walk is pure: it reads a memory image and never traps on malformed bytes.
struct Type2TLVScan: Sendable, Equatable {
    /// The first NDEF TLV: where its type, length and value are.
    struct NDEFTLV: Sendable, Equatable {
        /// The address of the `03` type byte.
        var typeAddress: Int
        /// The addresses of the length field (1 or 3 bytes).
        var lengthAddresses: [Int]
        /// The declared message length.
        var length: Int
    }

    /// The data area with the reserved ranges the control TLVs declare.
    var area: Type2DataArea
    /// The NDEF TLV, when the walk found one with a well-formed header.
    var ndef: NDEFTLV?
    /// Where an NDEF TLV is (or goes): the NDEF TLV's type byte, or where the walk stopped
    /// (the Terminator, a malformed TLV, or the end of the area).
    var insertionAddress: Int?
    /// The first problem met, with its byte address.
    var problem: (offset: Int, reason: NDEFTLVProblem)?
    /// The walk stopped at a byte inside the area that `memory` does not hold yet (a type,
    /// a length, a control TLV's value): what it found stands only for the bytes read so
    /// far, and reading further decides.
    var readPastMemory = false

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.area == rhs.area && lhs.ndef == rhs.ndef && lhs.insertionAddress == rhs.insertionAddress
            && lhs.problem?.offset == rhs.problem?.offset && lhs.problem?.reason == rhs.problem?.reason
            && lhs.readPastMemory == rhs.readPastMemory
    }

    /// Walks the TLVs in `memory` (indexed by byte address) over `area`.
    ///
    /// - Parameters:
    ///   - memory: the tag's memory image; bytes past its end read as missing.
    ///   - area: the data area (start and end from the CC).
    ///   - memorySize: the chip's memory in bytes, to check control TLV addresses.
    ///   - mapping: TLV types and length encoding.
    init(memory: [UInt8], area: Type2DataArea, memorySize: Int, mapping: Type2Mapping) {
        self.area = area
        var cursor = area.streamAddress(atOrAfter: area.start)
        // Where a new NDEF TLV would go if none is found: after the last TLV that is not NULL.
        var afterLastTLV = cursor
        while let typeAddress = cursor {
            guard typeAddress < memory.count else {
                insertionAddress = typeAddress
                problem = (typeAddress, .truncatedLength)
                readPastMemory = true
                return
            }
            let type = memory[typeAddress]
            if type == mapping.nullTLV {
                cursor = self.area.streamAddress(after: typeAddress)
                continue
            }
            if type == mapping.terminatorTLV {
                insertionAddress = typeAddress
                problem = (typeAddress, .missingNDEFTLV)
                return
            }
            guard
                let (length, lengthAddresses) = Self.readLength(
                    after: typeAddress, memory: memory, area: self.area, mapping: mapping)
            else {
                insertionAddress = typeAddress
                problem = (typeAddress, .truncatedLength)
                readPastMemory = Self.lengthRunsPastMemory(
                    after: typeAddress, memory: memory, area: self.area, mapping: mapping)
                return
            }
            let valueStart = self.area.streamAddress(after: lengthAddresses.last ?? typeAddress)
            let available = valueStart.map { self.area.availableBytes(from: $0) } ?? 0
            if type == mapping.ndefTLV {
                ndef = NDEFTLV(typeAddress: typeAddress, lengthAddresses: lengthAddresses, length: length)
                insertionAddress = typeAddress
                if length > available {
                    problem = (typeAddress, .valuePastEnd(declared: length, available: available))
                }
                return
            }
            guard length <= available else {
                insertionAddress = typeAddress
                problem = (typeAddress, .valuePastEnd(declared: length, available: available))
                return
            }
            let valueAddresses = valueStart.flatMap { self.area.streamAddresses(from: $0, count: length) } ?? []
            if type == mapping.lockControlTLV || type == mapping.memoryControlTLV {
                guard valueAddresses.allSatisfy({ $0 < memory.count }) else {
                    insertionAddress = typeAddress
                    problem = (typeAddress, .truncatedLength)
                    readPastMemory = true
                    return
                }
                guard length == mapping.controlTLVLength else {
                    insertionAddress = typeAddress
                    problem = (typeAddress, .invalidControlLength(length))
                    return
                }
                let value = valueAddresses.map { memory[$0] }  // every one read: checked above
                let range = Self.controlArea(value, isLock: type == mapping.lockControlTLV)
                guard range.lowerBound >= 0, range.upperBound <= memorySize else {
                    insertionAddress = typeAddress
                    problem = (typeAddress, .controlAreaOutOfRange(address: range.lowerBound, size: range.count))
                    return
                }
                self.area.reserved.append(range)
            }
            // Proprietary and unknown TLVs are skipped by their length.
            cursor = self.area.streamAddress(after: valueAddresses.last ?? lengthAddresses.last ?? typeAddress)
            afterLastTLV = cursor
        }
        insertionAddress = afterLastTLV
        problem = (area.end, .missingNDEFTLV)
    }

    /// The reserved byte range of a Lock or Memory Control TLV value
    /// (`[PageAddr:4 ByteOffset:4] [Size] [BLPLB:4 BytesPerPage:4]`).
    static func controlArea(_ value: [UInt8], isLock: Bool) -> Range<Int> {
        guard let area = ChipTables.type2.lockControlArea(value: value) else { return 0..<0 }
        let bytes = isLock ? (area.size + UInt8.bitWidth - 1) / UInt8.bitWidth : area.size
        return area.byteAddress..<(area.byteAddress + bytes)
    }

    /// Whether the length field after the type byte lies, in part, past `memory` (but inside
    /// the area): then the length is not malformed, only not read yet.
    private static func lengthRunsPastMemory(
        after typeAddress: Int, memory: [UInt8], area: Type2DataArea, mapping: Type2Mapping
    ) -> Bool {
        guard let first = area.streamAddress(after: typeAddress) else { return false }
        guard first < memory.count else { return true }
        guard memory[first] == mapping.threeByteLengthMarker,
            let rest = area.streamAddresses(from: first + 1, count: 2)
        else { return false }
        return rest.contains { $0 >= memory.count }
    }

    /// Reads a 1- or 3-byte TLV length after the type byte.
    private static func readLength(
        after typeAddress: Int, memory: [UInt8], area: Type2DataArea, mapping: Type2Mapping
    ) -> (Int, [Int])? {
        guard let first = area.streamAddress(after: typeAddress), first < memory.count else { return nil }
        guard memory[first] == mapping.threeByteLengthMarker else { return (Int(memory[first]), [first]) }
        guard let rest = area.streamAddresses(from: first + 1, count: 2),
            rest.allSatisfy({ $0 < memory.count })
        else { return nil }
        return (Int(memory[rest[0]]) << 8 | Int(memory[rest[1]]), [first] + rest)
    }
}

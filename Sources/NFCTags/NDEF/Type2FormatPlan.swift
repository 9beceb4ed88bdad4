/// The page writes that format a Type 2 tag for NDEF with an empty message, in a
/// tear-safe order:
/// 1. if the tag holds a message, its NDEF TLV length becomes 0 (the tag reads empty);
/// 2. the data-area pages of the chip's factory TLV area (e.g. NTAG213's Lock Control
///    TLV + `03 00 FE`, else `03 00 FE`), last page first, so the page where the TLV walk
///    starts changes last, in one write;
/// 3. the CC last: until it holds the NDEF magic a blank tag still reads as blank.
///
/// The CC is one-time programmable (bits are OR-ed), so a CC whose bits do not fit the
/// chip's CC cannot be formatted.
struct Type2FormatPlan: Sendable, Equatable {
    struct PageWrite: Sendable, Equatable {
        var page: Int
        var bytes: [UInt8]
        var step: NDEFTagStep
    }

    /// The writes, in order.
    var writes: [PageWrite]
    /// The memory image after the last write.
    var finalMemory: [UInt8]
    /// The pages to read back.
    var verifyPages: ClosedRange<Int>

    init(snapshot: Type2TagSnapshot) throws(NDEFTagError) {
        let profile = snapshot.profile
        let mapping = snapshot.mapping
        let size = profile.pageSize
        let memory = snapshot.memory
        let ccPage = profile.capabilityContainerPage
        let targetCC = profile.factoryCapabilityContainer
        let currentCC = Array(memory[(ccPage * size)..<((ccPage + 1) * size)])
        guard zip(currentCC, targetCC).allSatisfy({ $0 | $1 == $1 }) else { throw .tagNotWritable }
        if case .staticLock = snapshot.writeBlock { throw .tagNotWritable }
        if case .dynamicLock = snapshot.writeBlock { throw .tagNotWritable }
        if case .password = snapshot.writeBlock { throw .tagNotWritable }

        // The factory TLV area, or an empty NDEF TLV + Terminator.
        let firstPage = mapping.dataAreaStartByte / size
        var area: [UInt8] = []
        var pageNumber = firstPage
        while let bytes = profile.factoryDataPages[pageNumber] {
            area += bytes
            pageNumber += 1
        }
        if area.isEmpty { area = [mapping.ndefTLV, 0, mapping.terminatorTLV] }
        while area.count % size != 0 { area.append(0) }

        var final = memory
        final.replaceSubrange(mapping.dataAreaStartByte..<(mapping.dataAreaStartByte + area.count), with: area)
        final.replaceSubrange((ccPage * size)..<((ccPage + 1) * size), with: targetCC)
        func page(_ image: [UInt8], _ number: Int) -> [UInt8] { Array(image[(number * size)..<((number + 1) * size)]) }

        var writes: [PageWrite] = []
        var current = memory
        if snapshot.hasNDEF, let scan = snapshot.scan, let ndef = scan.ndef, ndef.length > 0,
            let lengthAddress = ndef.lengthAddresses.first
        {
            current[lengthAddress] = 0
            let lengthPage = lengthAddress / size
            writes.append(
                PageWrite(page: lengthPage, bytes: page(current, lengthPage), step: .clearLength(page: lengthPage)))
        }
        let lastPage = firstPage + area.count / size - 1
        for number in stride(from: lastPage, through: firstPage, by: -1)
        where page(final, number) != page(current, number) {
            writes.append(PageWrite(page: number, bytes: page(final, number), step: .writeFormat(page: number)))
        }
        if page(final, ccPage) != currentCC {
            writes.append(PageWrite(page: ccPage, bytes: targetCC, step: .writeCapabilityContainer(page: ccPage)))
        }
        self.writes = writes
        self.finalMemory = final
        self.verifyPages = ccPage...lastPage
    }
}

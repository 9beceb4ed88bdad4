import NFCChips

/// READ, FAST_READ, WRITE and COMPATIBILITY_WRITE.
extension Type2Commands {
    /// READ: 16 bytes (four pages) from `page`; the tag rolls over past its last page.
    package func read(page: Int) async throws(TagCommandError) -> [UInt8] {
        let command = try command(.read)
        let address = try address(page, in: 0...memory.lastReadablePage, for: .read)
        return try data(try await run(command, [address]), from: command, length: command.answerLength)
    }

    /// FAST_READ of `pages`, split into as many exchanges as the reader's frame limit needs.
    ///
    /// ```swift
    /// let user = try await tag.fastRead(pages: tag.memory.userPages) // 504 bytes on NTAG215
    /// ```
    package func fastRead(pages: ClosedRange<Int>) async throws(TagCommandError) -> [UInt8] {
        let command = try command(.fastRead)
        let readable = 0...memory.lastReadablePage
        _ = try address(pages.lowerBound, in: readable, for: .fastRead)
        _ = try address(pages.upperBound, in: readable, for: .fastRead)
        let perPage = max(command.answerLength, 1)
        let pagesPerExchange = max(transport.maximumFrameLength / perPage, 1)
        var result: [UInt8] = []
        result.reserveCapacity(pages.count * perPage)
        var start = pages.lowerBound
        while start <= pages.upperBound {
            let end = min(start + pagesPerExchange - 1, pages.upperBound)
            let count = end - start + 1
            let answer = try await run(
                command, [UInt8(start), UInt8(end)], timeout: command.timeout(answerPages: count))
            result += try data(answer, from: command, length: count * perPage)
            start = end + 1
        }
        return result
    }

    /// The bytes of `pages`, with FAST_READ when the chip has it, READ otherwise.
    package func readPages(_ pages: ClosedRange<Int>) async throws(TagCommandError) -> [UInt8] {
        if spec.supports(.fastRead) { return try await fastRead(pages: pages) }
        let pagesPerRead = max(try command(.read).answerLength / memory.pageSize, 1)
        var result: [UInt8] = []
        var page = pages.lowerBound
        while page <= pages.upperBound {
            let block = try await read(page: page)
            let wanted = min(pagesPerRead, pages.upperBound - page + 1)
            result += block.prefix(wanted * memory.pageSize)
            page += wanted
        }
        return result
    }

    /// WRITE of one page (4 bytes).
    package func write(page: Int, bytes: [UInt8]) async throws(TagCommandError) {
        let command = try command(.write)
        let address = try address(page, in: memory.firstWritablePage...memory.lastPage, for: .write)
        try checkPageData(bytes, for: .write)
        try acknowledged(try await run(command, [address] + bytes), from: command)
    }

    /// COMPATIBILITY_WRITE of one page: `A0 page`, then 16 bytes of which the tag stores
    /// the first four (the rest is sent as zeros).
    package func compatibilityWrite(page: Int, bytes: [UInt8]) async throws(TagCommandError) {
        let command = try command(.compatibilityWrite)
        let address = try address(page, in: memory.firstWritablePage...memory.lastPage, for: .compatibilityWrite)
        try checkPageData(bytes, for: .compatibilityWrite)
        try acknowledged(try await run(command, [address]), from: command)
        let length = command.secondFrameLength ?? bytes.count
        let frame = bytes + [UInt8](repeating: 0, count: max(length - bytes.count, 0))
        let answer = try await transport.exchange(
            frame, command: command.name, framing: .raw, timeout: command.secondTimeout)
        try acknowledged(answer, from: command)
    }
}

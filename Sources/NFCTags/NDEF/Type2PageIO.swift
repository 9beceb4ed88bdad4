/// READ, FAST_READ and WRITE of Type 2 pages over a ``TagTransport`` (raw framing, so NAK
/// codes arrive as such), with the chip's
/// command codes and timeouts. After a NAK the tag has dropped to IDLE, so it is
/// selected again before the error is thrown.
struct Type2PageIO: Sendable {
    let transport: any TagTransport
    let profile: Type2TagProfile

    /// Why one page write failed.
    enum WriteFailure: Error, Sendable, Equatable {
        /// The tag refused it: the page is certainly unchanged.
        case nak(UInt8)
        /// An unexpected answer (the write may or may not have happened).
        case unexpected(String)
        /// The exchange failed: the write may or may not have happened.
        case transport(TagTransportError)
    }

    /// Reads `pages` (FAST_READ in frames that fit the reader, else READ by 4 pages).
    func readPages(_ pages: ClosedRange<Int>, step: (Int) -> NDEFTagStep) async throws(NDEFTagError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pages.count * profile.pageSize)
        var page = pages.lowerBound
        while page <= pages.upperBound {
            let chunk: [UInt8]
            if let fastRead = profile.fastRead {
                let perFrame = max(1, transport.maximumFrameLength / profile.pageSize)
                let last = min(pages.upperBound, page + perFrame - 1)
                chunk = try await exchange(
                    [fastRead.code, UInt8(page), UInt8(last)], timeout: fastRead.timeout,
                    expecting: (last - page + 1) * profile.pageSize, step: step(page))
            } else {
                let answer = try await exchange(
                    [profile.read.code, UInt8(page)], timeout: profile.read.timeout,
                    expecting: 4 * profile.pageSize, step: step(page))
                chunk = Array(answer.prefix((pages.upperBound - page + 1) * profile.pageSize))
            }
            bytes += chunk
            page += chunk.count / profile.pageSize
        }
        return bytes
    }

    /// One READ (4 pages from `page`, rolling over at the end of memory).
    func readFourPages(at page: Int, step: NDEFTagStep) async throws(NDEFTagError) -> [UInt8] {
        try await exchange(
            [profile.read.code, UInt8(page)], timeout: profile.read.timeout,
            expecting: 4 * profile.pageSize, step: step)
    }

    /// Writes one page; the tag must answer ACK.
    func writePage(_ page: Int, _ data: [UInt8]) async throws(WriteFailure) {
        let answer: TagResponse
        do {
            answer = try await transport.transceive(
                [profile.write.code, UInt8(page)] + data,
                framing: .raw, timeout: profile.write.timeout)
        } catch {
            throw .transport(error)
        }
        switch answer {
        case .ack: return
        case .nak(let code):
            await reselectQuietly()
            throw .nak(code)
        case .bytes(let bytes):
            throw .unexpected("expected an ACK, found \(bytes.count) data byte(s)")
        }
    }

    /// Selects the tag again after a NAK, ignoring failures (the next command reports them).
    func reselectQuietly() async {
        try? await transport.reselect()
    }

    private func exchange(_ frame: [UInt8], timeout: Duration, expecting count: Int, step: NDEFTagStep)
        async throws(NDEFTagError) -> [UInt8]
    {
        let answer: TagResponse
        do {
            answer = try await transport.transceive(frame, framing: .raw, timeout: timeout)
        } catch {
            throw .reading(error, step: step)
        }
        switch answer {
        case .bytes(let bytes) where bytes.count == count:
            return bytes
        case .bytes(let bytes):
            throw .unexpectedResponse(step: step, description: "expected \(count) bytes, found \(bytes.count)")
        case .ack:
            throw .unexpectedResponse(step: step, description: "expected \(count) bytes, found an ACK")
        case .nak(let code):
            await reselectQuietly()
            throw .nak(code: code, step: step)
        }
    }
}

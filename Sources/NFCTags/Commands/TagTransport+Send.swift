import NFCChips

extension TagTransport {
    /// Sends command bytes as they are (the reader adds and checks CRC_A) and decodes the
    /// answer: data, ACK, or a thrown NAK with its code — like Core NFC's
    /// `sendMiFareCommand`, without the caller handling CRC.
    ///
    /// ```swift
    /// let answer = try await transport.send([0x30, 0x04])   // READ page 4
    /// print(answer.bytes.count)                               // 16
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: the command frame without CRC_A.
    ///   - framing: ``TagFraming/raw`` (default: ACK / NAK codes arrive) or ``TagFraming/standard``.
    ///   - timeout: how long the tag may take (`nil`: a generous default).
    package func send(
        _ bytes: [UInt8],
        framing: TagFraming = .raw,
        timeout: Duration? = nil
    ) async throws(TagCommandError) -> RawAnswer {
        guard !bytes.isEmpty else { throw .invalidArgument("a command frame needs at least one byte") }
        try checkCommandLength(bytes)
        return try await exchange(
            bytes, command: nil, framing: framing,
            timeout: timeout ?? .milliseconds(ChipTables.iso14443a.fallbackTimeoutMs))
    }

    /// Refuses a command the reader cannot carry in one frame, before anything is sent.
    func checkCommandLength(_ bytes: [UInt8]) throws(TagCommandError) {
        guard bytes.count <= maximumCommandLength else {
            throw .commandTooLong(length: bytes.count, maximum: maximumCommandLength)
        }
    }

    /// One exchange, with the NAK, ACK and transport errors mapped to ``TagCommandError``.
    func exchange(
        _ frame: [UInt8], command: CommandName?, framing: TagFraming, timeout: Duration
    ) async throws(TagCommandError) -> RawAnswer {
        let response: TagResponse
        do {
            response = try await transceive(frame, framing: framing, timeout: timeout)
        } catch {
            throw .transport(error)
        }
        switch response {
        case .bytes(let bytes): return bytes.isEmpty ? .ack : .bytes(bytes)
        case .ack: return .ack
        case .nak(let code): throw .nak(code: code, command: command?.rawValue)
        }
    }

    /// Selects the tag again, mapping the transport error.
    func reselectTag() async throws(TagCommandError) {
        do { try await reselect() } catch { throw .transport(error) }
    }
}

extension CommandSpec {
    /// The table's timeout for the first frame (or the ISO/IEC 14443-A fallback when the
    /// chip table has none).
    var timeout: Duration { .milliseconds(timeoutMs ?? ChipTables.iso14443a.fallbackTimeoutMs) }
    /// The timeout of an answer of `pages` pages: the first-frame timeout plus the
    /// table's time per answer page (FAST_READ).
    func timeout(answerPages pages: Int) -> Duration {
        .milliseconds(
            (timeoutMs ?? ChipTables.iso14443a.fallbackTimeoutMs) + Double(pages) * (timeoutMsPerAnswerPage ?? 0))
    }
    /// The table's timeout for the second frame of a two-phase command.
    var secondTimeout: Duration {
        .milliseconds(secondFrameTimeoutMs ?? timeoutMs ?? ChipTables.iso14443a.fallbackTimeoutMs)
    }
}

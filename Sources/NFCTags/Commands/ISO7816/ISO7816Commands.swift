import NFCChips

/// ISO/IEC 7816-4 APDUs to an ISO-DEP tag over a ``TagTransport`` (the reader carries the
/// ISO-DEP blocks: ``TagFraming/standard``).
///
/// ``send(_:timeout:)`` hands back the whole answer, as Core NFC's
/// `NFCISO7816Tag.sendCommand(apdu:)` does:
/// - `61xx` (more data): GET RESPONSE (`00 C0 00 00 xx`, `xx` = SW2, or less when the reader
///   brings back fewer bytes in one exchange) is sent until the tag gives a final status
///   word; the data of every part is concatenated.
/// - `6Cxx` (wrong Le): the same command is sent again once with Le = `xx` (`00` = 256).
///
/// ISO-DEP chaining is the reader's: a PN532 splits one InDataExchange into I-blocks of
/// the tag's frame size and gathers the tag's chained answer (UM0701-02 §7.3.8). What one
/// InDataExchange carries is the limit for one APDU here: libnfc's
/// `nfc_initiator_transceive_bytes` always sends Tg = 1 without the MI bit, so the host
/// cannot chain a longer command, and a longer APDU is refused before anything is sent.
///
/// ```swift
/// let iso = ISO7816Commands(transport: transport)
/// let answer = try await iso.send(try APDU(bytes: [0x00, 0xB0, 0x00, 0x00, 0x00]))
/// ```
package struct ISO7816Commands: Sendable {
    /// The link to the tag.
    package let transport: any TagTransport

    /// Commands over `transport`.
    package init(transport: any TagTransport) {
        self.transport = transport
    }

    /// Sends `apdu` and returns the complete answer (after GET RESPONSE and Le retries).
    ///
    /// - Parameters:
    ///   - timeout: how long one exchange may take (`nil`: the Type 4 mapping's APDU timeout).
    ///   - answersAtMost: the most data the tag ever answers in one frame, when its command
    ///     set says so (a DESFire: 59 bytes): a lost answer is then a lost answer, not one
    ///     too long for the reader.
    /// - Throws: ``TagCommandError/invalidArgument(_:)`` for an APDU longer than one reader
    ///   exchange, or one whose answer was lost and may be longer than the reader carries
    ///   (``TagTransport/maximumAnswerLength``: ask for less); ``TagCommandError/invalidAnswer(command:bytes:offset:expected:)`` for an
    ///   answer without a status word, or more data than an extended Ne; transport errors.
    package func send(_ apdu: APDU, timeout: Duration? = nil, answersAtMost: Int? = nil) async throws(TagCommandError)
        -> APDUResponse
    {
        let iso = ChipTables.iso7816
        let timeout = timeout ?? .milliseconds(ChipTables.type4.commandTimeoutMs)
        var command = apdu
        var data: [UInt8] = []
        var retriedLe = false
        let answerLimit = transport.maximumAnswerLength
        while true {
            let answer: APDUResponse
            do {
                answer = try await exchange(command, timeout: timeout)
            } catch .transport(let error)
                where error.isLostAnswer && command.mayAnswerPast(answerLimit)
                && answersAtMost.map({ $0 + 2 > answerLimit }) ?? true
            {
                // The reader drops an answer longer than it carries (an ACR122U: 250 bytes);
                // to the host that is a silent tag or a garbled frame (assumption U5). Say
                // what to change instead.
                throw .invalidArgument(
                    """
                    the answer to this APDU may be \(command.expectedResponseLength ?? 0) bytes and SW1 SW2, and no answer came: \
                    the reader brings back at most \(answerLimit) bytes in one exchange; ask for at most \(answerLimit - 2) (Le)
                    """)
            }
            let status = answer.status?.name
            if status == .wrongLe, !retriedLe {
                retriedLe = true
                command = try command.withExpectedResponseLength(count(answer.sw2))
                continue
            }
            data += answer.data
            guard data.count <= iso.extendedMaximumNe else {
                throw .invalidAnswer(
                    command: nil, bytes: answer.data, offset: 0,
                    expected: "at most \(iso.extendedMaximumNe) bytes of data in all (GET RESPONSE kept giving more)")
            }
            guard status == .bytesAvailable else { return APDUResponse(data: data, sw1: answer.sw1, sw2: answer.sw2) }
            retriedLe = false
            let header = iso.commands[.getResponse].header
            // Asked for no more than the reader carries: the tag keeps the rest for the next
            // GET RESPONSE (61xx again), ISO/IEC 7816-4 §7.6.1.
            let part = min(count(answer.sw2), max(1, answerLimit - 2))
            command = try APDU(
                cla: header[0], ins: header[1], p1: header[2], p2: header[3], expectedResponseLength: part)
        }
    }

    /// The count SW2 gives in `61xx` and `6Cxx` (`00` = 256).
    private func count(_ sw2: UInt8) -> Int { sw2 == 0 ? ChipTables.iso7816.shortMaximumNe : Int(sw2) }

    /// One APDU, one answer split into data and status word.
    private func exchange(_ apdu: APDU, timeout: Duration) async throws(TagCommandError) -> APDUResponse {
        let bytes = apdu.bytes
        guard bytes.count <= transport.maximumFrameLength else {
            throw .invalidArgument(
                "the APDU has \(bytes.count) bytes; the reader carries at most \(transport.maximumFrameLength) in one exchange (libnfc does not chain a longer command)"
            )
        }
        let answer = try await transport.exchange(bytes, command: nil, framing: .standard, timeout: timeout)
        guard case .bytes(let raw) = answer, let response = APDUResponse(bytes: raw) else {
            throw .invalidAnswer(
                command: nil, bytes: answer.bytes, offset: 0, expected: "data and a status word SW1 SW2")
        }
        return response
    }
}

extension APDU {
    /// Whether the answer asked for (Ne data bytes and SW1 SW2) may be longer than `limit`.
    func mayAnswerPast(_ limit: Int) -> Bool {
        guard let expected = expectedResponseLength else { return false }
        return expected + 2 > limit
    }
}

extension TagTransportError {
    /// No answer, or one the reader could not pass on: what an answer too long for the reader looks like.
    var isLostAnswer: Bool {
        switch self {
        case .timeout, .transmission: true
        default: false
        }
    }
}

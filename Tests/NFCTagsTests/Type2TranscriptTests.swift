import NDEF
import NFCChips
import NFCEmulator
import Testing
@testable import NFCTags

/// Exact command sequences of the Type 2 driver against canned answers.
@Suite("Type 2 NDEF transcripts: status, read, write, lock, format")
struct Type2TranscriptTests {
    /// A factory NTAG213 image to take canned answers from.
    let ntag213 = try! Type2Fixtures.tag(.ntag213)

    func pages(_ tag: Type2Tag, _ range: ClosedRange<Int>) -> TagResponse {
        .bytes(range.flatMap { tag.page($0) })
    }

    /// The full snapshot (lock, format): READ 00, FAST_READ of the lock / configuration
    /// pages, FAST_READ of the data area.
    func statusSteps(_ tag: Type2Tag) -> [TranscriptStep] {
        [
            .send([0x30, 0x00], answer: pages(tag, 0...3)),
            .send([0x3A, 0x28, 0x2A], answer: pages(tag, 0x28...0x2A)),
            .send([0x3A, 0x04, 0x27], answer: pages(tag, 0x04...0x27)),
        ]
    }

    /// What a status query or a write reads on a tag with FAST_READ: from the static lock
    /// page as far as the old message and one byte more (`dataEnd`, the last page), then the
    /// lock / configuration pages. Past the old message a write writes pages blind.
    func partialReadSteps(_ tag: Type2Tag, dataEnd: Int = 5) -> [TranscriptStep] {
        var steps: [TranscriptStep] = [.send([0x3A, 0x02, 0x05], answer: pages(tag, 2...5))]
        if dataEnd > 5 { steps.append(.send([0x3A, 0x06, UInt8(dataEnd)], answer: pages(tag, 6...dataEnd))) }
        return steps + [.send([0x3A, 0x28, 0x2A], answer: pages(tag, 0x28...0x2A))]
    }

    @Test("status of a factory NTAG213")
    func status() async throws {
        let transport = TranscriptTransport(partialReadSteps(ntag213))
        let status = try await Type2Fixtures.driver(.ntag213, transport).queryStatus()
        #expect(status == NDEFStatus(availability: .readWrite, capacity: 137, length: 0))
        #expect(await transport.mismatches.isEmpty)
        #expect(await transport.remaining == 0)
    }

    @Test(
        "write of an 8-byte URI message: reads as far as the empty TLV, body pages (the length page's message byte with length 0), then the length alone, then the read-back"
    )
    func write() async throws {
        let message = NDEFMessage(records: [.wellKnown("U", payload: [0x04] + Array("a.b".utf8))])
        #expect(try message.encoded() == [0xD1, 0x01, 0x04, 0x55, 0x04, 0x61, 0x2E, 0x62])
        let transport = TranscriptTransport(
            partialReadSteps(ntag213) + [
                .send([0xA2, 0x05, 0x34, 0x03, 0x00, 0xD1], answer: .ack),
                .send([0xA2, 0x06, 0x01, 0x04, 0x55, 0x04], answer: .ack),
                .send([0xA2, 0x07, 0x61, 0x2E, 0x62, 0xFE], answer: .ack),
                .send([0xA2, 0x05, 0x34, 0x03, 0x08, 0xD1], answer: .ack),
                .send(
                    [0x3A, 0x05, 0x07],
                    answer: .bytes([0x34, 0x03, 0x08, 0xD1, 0x01, 0x04, 0x55, 0x04, 0x61, 0x2E, 0x62, 0xFE])),
            ])
        try await Type2Fixtures.driver(.ntag213, transport).writeMessage(message)
        #expect(await transport.mismatches.isEmpty)
        #expect(await transport.remaining == 0)
    }

    @Test("a NAK on the commit write: tagUpdateFailure with the NAK code, the tag left empty, reselected")
    func nakOnCommit() async throws {
        let message = NDEFMessage(records: [.wellKnown("U", payload: [0x04] + Array("a.b".utf8))])
        let transport = TranscriptTransport(
            partialReadSteps(ntag213) + [
                .send([0xA2, 0x05, 0x34, 0x03, 0x00, 0xD1], answer: .ack),
                .send([0xA2, 0x06, 0x01, 0x04, 0x55, 0x04], answer: .ack),
                .send([0xA2, 0x07, 0x61, 0x2E, 0x62, 0xFE], answer: .ack),
                .send([0xA2, 0x05, 0x34, 0x03, 0x08, 0xD1], answer: .nak(0x05)),
                .reselect,
            ])
        await #expect(
            throws: NDEFTagError.tagUpdateFailure(
                step: .commitLength(page: 5), state: .emptyMessage, reason: .nak(0x05))
        ) {
            try await Type2Fixtures.driver(.ntag213, transport).writeMessage(message)
        }
        #expect(await transport.remaining == 0)
        #expect(await transport.mismatches.isEmpty)
    }

    @Test("a write over a message clears the length first")
    func writeOverMessage() async throws {
        var tag = ntag213
        tag.setPage(5, to: [0x34, 0x03, 0x03, 0xD0])
        tag.setPage(6, to: [0x00, 0x00, 0xFE, 0x00])
        let message = NDEFMessage(records: [.wellKnown("U", payload: [0x04] + Array("a.b".utf8))])
        // readMessage: one FAST_READ from the CC reaches past the short message; the write
        // reads from page 2 to the byte after the old message (page 6).
        let transport = TranscriptTransport(
            [.send([0x3A, 0x03, 0x06], answer: pages(tag, 3...6))] + partialReadSteps(tag, dataEnd: 6) + [
                .send([0xA2, 0x05, 0x34, 0x03, 0x00, 0xD0], answer: .ack),
                .send([0xA2, 0x05, 0x34, 0x03, 0x00, 0xD1], answer: .ack),
                .send([0xA2, 0x06, 0x01, 0x04, 0x55, 0x04], answer: .ack),
                .send([0xA2, 0x07, 0x61, 0x2E, 0x62, 0xFE], answer: .ack),
                .send([0xA2, 0x05, 0x34, 0x03, 0x08, 0xD1], answer: .ack),
                .send(
                    [0x3A, 0x05, 0x07],
                    answer: .bytes([0x34, 0x03, 0x08, 0xD1, 0x01, 0x04, 0x55, 0x04, 0x61, 0x2E, 0x62, 0xFE])),
            ])
        let driver = try Type2Fixtures.driver(.ntag213, transport)
        #expect(try await driver.readMessage() == .empty)
        try await driver.writeMessage(message)
        #expect(await transport.mismatches.isEmpty)
    }

    @Test("lock: CC write nibble first, then static lock bytes, then dynamic lock bytes, then read-back")
    func lock() async throws {
        let bcc1 = ntag213.page(2)[0]
        let internalByte = ntag213.page(2)[1]
        let rfui = ntag213.page(0x28)[3]  // the dynamic lock page's RFUI byte (BD as delivered) is kept
        let transport = TranscriptTransport(
            statusSteps(ntag213) + [
                .send([0xA2, 0x03, 0xE1, 0x10, 0x12, 0x0F], answer: .ack),
                .send([0xA2, 0x02, bcc1, internalByte, 0xFF, 0xFF], answer: .ack),
                .send([0xA2, 0x28, 0xFF, 0xFF, 0xFF, rfui], answer: .ack),
                .send([0x3A, 0x02, 0x02], answer: .bytes([bcc1, internalByte, 0xFF, 0xFF])),
                .send([0x3A, 0x03, 0x03], answer: .bytes([0xE1, 0x10, 0x12, 0x0F])),
                .send([0x3A, 0x28, 0x28], answer: .bytes([0xFF, 0xFF, 0xFF, rfui])),
            ])
        let driver = try Type2Fixtures.driver(.ntag213, transport)
        try await driver.makeReadOnly(force: true)
        #expect(await transport.mismatches.isEmpty)
        #expect(await transport.remaining == 0)
    }

    @Test("lock refuses without a verified read in this driver's lifetime, and sends no write")
    func lockRefused() async throws {
        let transport = EmulatedTagTransport(tag: ntag213)
        let driver = try Type2Fixtures.driver(.ntag213, transport)
        await #expect(throws: NDEFTagError.notVerified) { try await driver.makeReadOnly(force: false) }
        #expect(await transport.frames(withCode: 0xA2).isEmpty)
        _ = try await driver.readMessage()
        try await driver.makeReadOnly(force: false)
        #expect(try await driver.queryStatus().availability == .readOnly)
        await #expect(throws: NDEFTagError.tagNotWritable) {
            try await driver.writeMessage(Type2Fixtures.message(encodedSize: 20))
        }
    }

    @Test("format of a blank Ultralight: empty NDEF TLV first, CC last, then the read-back")
    func formatBlank() async throws {
        let blank = try Type2Fixtures.tag(.ultralight)
        let transport = TranscriptTransport([
            .send([0x30, 0x00], answer: pages(blank, 0...3)),
            .send([0xA2, 0x04, 0x03, 0x00, 0xFE, 0x00], answer: .ack),
            .send([0xA2, 0x03, 0xE1, 0x10, 0x06, 0x00], answer: .ack),
            .send(
                [0x30, 0x03],
                answer: .bytes([0xE1, 0x10, 0x06, 0x00, 0x03, 0x00, 0xFE, 0x00] + Array(repeating: 0, count: 8))),
        ])
        try await Type2Fixtures.driver(.ultralight, transport).format(force: false)
        #expect(await transport.mismatches.isEmpty)
        #expect(await transport.remaining == 0)
    }

    @Test("format refuses a tag that already holds NDEF unless forced")
    func formatRefused() async throws {
        let transport = EmulatedTagTransport(tag: ntag213)
        let driver = try Type2Fixtures.driver(.ntag213, transport)
        await #expect(throws: NDEFTagError.alreadyFormatted) { try await driver.format(force: false) }
        try await driver.writeMessage(Type2Fixtures.message(encodedSize: 50))
        try await driver.format(force: true)
        #expect(try await driver.readMessage().records.isEmpty)
        let tag = try #require(await transport.model(as: Type2Tag.self))
        #expect(tag.page(4) == [0x01, 0x03, 0xA0, 0x0C])
        #expect(tag.page(5) == [0x34, 0x03, 0x00, 0xFE])
    }

    @Test("the tag leaving during the first read: connectionLost naming the step, nothing changed")
    func lostWhileReading() async throws {
        // readNDEF starts with a FAST_READ from the CC page (FAST_READ NAKs a protected range, READ would roll over).
        let transport = TranscriptTransport([.send([0x3A, 0x03, 0x06], error: .tagLost)])
        await #expect(
            throws: NDEFTagError.connectionLost(step: .readCapabilityContainer, state: .previousMessageIntact)
        ) {
            _ = try await Type2Fixtures.driver(.ntag213, transport).readMessage()
        }
    }
}

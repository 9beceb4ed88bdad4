import NDEF
import NFCChips
import NFCEmulator
import Testing
@testable import NFCTags

/// readMessage reads only the CC and the message: the number of FAST_READs follows from
/// the message length, never from the size of the data area.
@Suite("Type 2 message read: only the pages the message needs")
struct Type2MessageReadTests {
    @Test(
        "NTAG216: 100 bytes in two FAST_READs, 800 bytes in five; no READ, no configuration pages",
        arguments: [(100, 2), (800, 5)])
    func commandCount(size: Int, expected: Int) async throws {
        let message = Type2Fixtures.message(encodedSize: size)
        let writer = EmulatedTagTransport(tag: try await Type2Fixtures.formattedTag(.ntag216), maximumFrameLength: 240)
        try await Type2Fixtures.driver(.ntag216, writer).writeMessage(message)
        let tag = try #require(await writer.model(as: Type2Tag.self))

        let transport = EmulatedTagTransport(tag: tag, maximumFrameLength: 240)
        #expect(try await Type2Fixtures.driver(.ntag216, transport).readMessage() == message)
        let frames = await transport.frames
        let fastRead = try #require(ChipTables.spec(for: .ntag216).command(.fastRead)).code
        #expect(frames.count == expected, "\(frames)")
        #expect(frames.allSatisfy { $0.first == fastRead })
        let lastPage = try #require(frames.last?.last)
        // The last page read holds the message's last byte: 16 + TLV header + size.
        let tlvEnd = 16 + (size < 0xFF ? 2 : 4) + size
        #expect(Int(lastPage) == (tlvEnd - 1) / 4)
    }

    @Test(
        "a message after a Lock Control TLV (NTAG213 factory layout) and an empty message read as before",
        arguments: [0, 30, 120])
    func layouts(size: Int) async throws {
        let message = size == 0 ? NDEFMessage(records: []) : Type2Fixtures.message(encodedSize: size)
        let transport = EmulatedTagTransport(tag: try await Type2Fixtures.formattedTag(.ntag213))
        let driver = try Type2Fixtures.driver(.ntag213, transport)
        if size > 0 { try await driver.writeMessage(message) }
        #expect(try await driver.readMessage() == message)
        // The message was verified: lock is allowed on it.
        try await driver.makeReadOnly(force: false)
    }

    @Test("a truncated NDEF TLV is the same invalidTLV error as the full read gives")
    func truncated() async throws {
        var tag = try await Type2Fixtures.formattedTag(.ntag216)
        tag.setPage(4, to: [0x03, 0xFF, 0x40, 0x00])  // 16 384 bytes declared
        let transport = EmulatedTagTransport(tag: tag)
        await #expect(throws: NDEFTagError.self) {
            _ = try await Type2Fixtures.driver(.ntag216, transport).readMessage()
        }
        let status = try? await Type2Fixtures.driver(.ntag216, EmulatedTagTransport(tag: tag)).queryStatus()
        #expect(status == nil, "the status query refuses it too")
    }
}

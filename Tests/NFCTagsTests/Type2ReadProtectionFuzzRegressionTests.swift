import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTags
import Testing

/// Found by the `type2-tag` fuzz target: with PROT set and AUTH0 after the message, the
/// message read fine but the status query read the whole data area, met the protected
/// pages and failed with authenticationRequired.
@Suite("Type 2 read protection behind the message (fuzz regression)")
struct Type2ReadProtectionFuzzRegressionTests {
    @Test("PROT with AUTH0 after the message: status is read-only with the message's length, and the message reads")
    func protectionAfterMessage() async throws {
        let chip = Chip.ntag216
        let (tag, message) = try await Type2Fixtures.readProtectedTag(chip, from: 0x10)

        let driver = try Type2Fixtures.driver(chip, EmulatedTagTransport(tag: tag))
        let status = try await driver.queryStatus()
        #expect(status.availability == .readOnly)
        #expect(status.length == 20)
        #expect(try await driver.readMessage() == message)
    }

    /// Found by the same target later: NULL TLVs moved the NDEF TLV past the status query's
    /// first read (pages 2–5). The walk ran out of bytes read, which the partial read took for
    /// a malformed area and read the whole of it, meeting the protected pages; the message
    /// read (from page 3) saw the TLV at once and succeeded.
    @Test("NULL TLVs before the message and PROT behind it: status and read agree, and neither reads a protected page")
    func nullPaddingBeforeMessage() async throws {
        let chip = Chip.ntag216
        let protectedPage = 0x2F
        var (tag, _) = try await Type2Fixtures.readProtectedTag(chip, from: protectedPage)
        tag.setPage(4, to: [0x00, 0x00, 0x00, 0x00])
        tag.setPage(5, to: [0x00, 0x00, 0x00, 0x00])
        tag.setPage(6, to: [0x03, 0x00, 0xFE, 0x00])  // an empty NDEF message

        let transport = EmulatedTagTransport(tag: tag)
        let driver = try Type2Fixtures.driver(chip, transport)
        let status = try await driver.queryStatus()
        #expect(status.availability != .notSupported && status.length == 0)
        #expect(try await driver.readMessage().records.isEmpty)
        // Data reads stop at the message: a READ's worth after the first, never the whole area.
        let fastRead = try #require(ChipTables.spec(for: chip).command(.fastRead)).code
        let data = await transport.frames.filter { $0.first == fastRead && Int($0[1]) < 0xE2 }
        #expect(data.allSatisfy { Int($0[2]) < protectedPage || Int($0[1]) == Int($0[2]) }, "\(data)")
        #expect(
            data.filter { Int($0[2]) >= protectedPage }.count <= 1, "at most the status query's one-page probe: \(data)"
        )
    }
}

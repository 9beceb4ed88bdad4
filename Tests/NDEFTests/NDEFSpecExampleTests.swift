import Testing
@testable import NDEF

/// The verified byte-level examples of nfc-reference.md §5.3, both ways, byte for byte.
@Suite("Reference examples decode and encode byte-exactly")
struct NDEFSpecExampleTests {
    /// The NDEF message inside a T2T NDEF TLV `03 LL … FE`.
    private func messageInTLV(_ tlv: [UInt8]) throws -> [UInt8] {
        try #require(tlv.first == 0x03 && tlv.last == 0xFE)
        let message = Array(tlv[2..<(tlv.count - 1)])
        try #require(Int(tlv[1]) == message.count)
        return message
    }

    @Test func textElephantInEnglish() throws {
        let bytes = try messageInTLV(hex("03 0F D1 01 0B 54 02 65 6E 65 6C 65 70 68 61 6E 74 FE"))
        let message = try NDEFMessage(bytes: bytes)
        #expect(message.records.count == 1)
        #expect(try message.records[0].parsedPayload() == .text(NDEFTextRecord(text: "elephant", languageCode: "en")))
        #expect(try NDEFMessage(records: [NDEFTextRecord(text: "elephant").record]).encoded() == bytes)
    }

    @Test func uriAdafruitUsesCodeOne() throws {
        let bytes = try messageInTLV(hex("03 11 D1 01 0D 55 01 61 64 61 66 72 75 69 74 2E 63 6F 6D FE"))
        let message = try NDEFMessage(bytes: bytes)
        #expect(try message.records[0].parsedPayload() == .uri(NDEFURIRecord(uri: "http://www.adafruit.com")))
        #expect(try NDEFMessage(records: [NDEFURIRecord(uri: "http://www.adafruit.com").record]).encoded() == bytes)
    }

    @Test func smartPosterLibnfc() throws {
        let bytes = hex(
            "D1 02 1C 53 70 91 01 09 54 02 65 6E 4C 69 62 6E 66 63 51 01 0B 55 03 6C 69 62 6E 66 63 2E 6F 72 67")
        let message = try NDEFMessage(bytes: bytes)
        let expected = NDEFSmartPosterRecord(
            uri: NDEFURIRecord(uri: "http://libnfc.org"), titles: [NDEFTextRecord(text: "Libnfc")])
        #expect(try message.records[0].parsedPayload() == .smartPoster(expected))
        #expect(try NDEFMessage(records: [expected.record]).encoded() == bytes)
    }

    @Test func emptyMessageIsD00000() throws {
        #expect(try NDEFMessage(bytes: hex("D0 00 00")) == .empty)
        #expect(try NDEFMessage.empty.encoded() == hex("D0 00 00"))
        #expect(try NDEFMessage.empty.records[0].parsedPayload() == .empty)
    }

    @Test func httpsExampleFromTheTLVTable() throws {
        // nfc-reference.md §10: `https://example.com` → 03 10 D1 01 0C 55 04 …
        let bytes = try NDEFMessage(records: [NDEFURIRecord(uri: "https://example.com").record]).encoded()
        #expect(bytes.count == 0x10)
        #expect(Array(bytes.prefix(5)) == hex("D1 01 0C 55 04"))
    }
}

import Testing
@testable import NDEF

@Suite("Smart Posters: one URI, titles, action, size, type, icons")
struct NDEFSmartPosterRecordTests {
    private func poster(_ inner: [UInt8]) throws(NDEFDecodingError) -> NDEFSmartPosterRecord {
        try NDEFSmartPosterRecord(record: .wellKnown("Sp", payload: inner))
    }

    @Test func everyFieldRoundTrips() throws {
        let original = NDEFSmartPosterRecord(
            uri: NDEFURIRecord(uri: "https://www.example.com/"),
            titles: [
                NDEFTextRecord(text: "Hello", languageCode: "en"),
                NDEFTextRecord(text: "Bonjour", languageCode: "fr", encoding: .utf16),
            ],
            action: .save, size: 0x0102_0304, mimeType: "text/html",
            icons: [
                try NDEFMediaRecord(mediaType: "image/png", payload: [1, 2, 3]),
                try NDEFMediaRecord(mediaType: "VIDEO/mp4", payload: []),
            ],
            otherRecords: [NDEFRecord(typeNameFormat: .unknown, payload: [9])]
        )
        let decoded = try NDEFSmartPosterRecord(record: original.record)
        #expect(decoded == original)
        #expect(decoded.title(forLanguage: "FR")?.text == "Bonjour")
        #expect(decoded.title(forLanguage: "de") == nil)
    }

    @Test func actionSizeAndTypeHaveTheirWireFormat() throws {
        let message = try NDEFSmartPosterRecord(
            uri: NDEFURIRecord(uri: "tel:1"), action: .edit, size: 258, mimeType: "a/b"
        ).makeMessage()
        #expect(message.records[1] == .wellKnown("act", payload: [2]))
        #expect(message.records[2] == .wellKnown("s", payload: [0, 0, 1, 2]))
        #expect(message.records[3] == .wellKnown("t", payload: Array("a/b".utf8)))
    }

    @Test func missingURIIsAnError() {
        // Only a title "" (en).
        #expect(throws: NDEFDecodingError(offset: 0, reason: .smartPosterMissingURI)) {
            try poster(hex("D1 01 03 54 02 65 6E"))
        }
    }

    @Test func twoURIsAreAnErrorAtTheSecond() {
        #expect(throws: NDEFDecodingError(offset: 6, reason: .smartPosterDuplicateRecord(type: "U"))) {
            try poster(hex("91 01 02 55 00 61 51 01 02 55 00 62"))
        }
    }

    @Test func twoActionsAreAnError() {
        #expect(throws: NDEFDecodingError(offset: 12, reason: .smartPosterDuplicateRecord(type: "act"))) {
            try poster(hex("91 01 01 55 00 11 03 01 61 63 74 00 51 03 01 61 63 74 01"))
        }
    }

    @Test func reservedActionIsAnErrorAtItsPayload() {
        #expect(throws: NDEFDecodingError(offset: 12, reason: .reservedSmartPosterAction(code: 3))) {
            try poster(hex("91 01 02 55 00 61 51 03 01 61 63 74 03"))
        }
    }

    @Test func sizeMustBeFourBytes() {
        #expect(throws: NDEFDecodingError(offset: 10, reason: .unexpectedPayloadLength(expected: 4, found: 2))) {
            try poster(hex("91 01 02 55 00 61 51 01 02 73 00 01"))
        }
    }

    @Test func innerTitleErrorsCountFromTheSmartPosterPayload() {
        #expect(throws: NDEFDecodingError(offset: 10, reason: .textReservedBitSet)) {
            try poster(hex("91 01 02 55 00 61 51 01 02 54 40 65"))
        }
        #expect(throws: NDEFDecodingError(offset: 4, reason: .reservedURIPrefix(code: 0x30))) {
            try poster(hex("D1 01 02 55 30 61"))
        }
    }

    @Test func innerMessageErrorsCountFromTheSmartPosterPayload() {
        #expect(throws: NDEFDecodingError(offset: 2, reason: .truncatedHeader)) { try poster(hex("D1 01")) }
        #expect(throws: NDEFDecodingError(offset: 0, reason: .emptyInput)) { try poster([]) }
    }

    @Test func otherMediaTypesAreNotIcons() throws {
        let decoded = try poster(
            try NDEFMessage(records: [
                NDEFURIRecord(uri: "x").record,
                NDEFRecord(typeNameFormat: .media, type: Array("text/plain".utf8), payload: [1]),
            ]).encoded())
        #expect(decoded.icons.isEmpty)
        #expect(decoded.otherRecords.count == 1)
    }
}

import Testing
@testable import NDEF

/// A corpus of malformed messages, each with the reason and the byte offset it must report.
@Suite("Malformed messages fail with the right reason at the right byte")
struct NDEFMalformedMessageTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var reason: NDEFDecodingError.Reason
        var offset: Int
        var testDescription: String { name }

        init(_ name: String, _ bytes: String, _ reason: NDEFDecodingError.Reason, at offset: Int) {
            self.name = name
            self.bytes = hex(bytes)
            self.reason = reason
            self.offset = offset
        }
    }

    static let corpus: [Case] = [
        Case("empty input", "", .emptyInput, at: 0),
        Case("only flags", "D1", .truncatedHeader, at: 1),
        Case("no payload length", "D1 01", .truncatedHeader, at: 2),
        Case("long length cut short", "C1 01 00 00", .truncatedHeader, at: 4),
        Case("no ID length", "D9 01 00", .truncatedHeader, at: 3),
        Case("second header cut short", "91 01 00 54 51", .truncatedHeader, at: 5),
        Case("truncated type", "D1 05 00 54", .lengthPastEnd(declared: 5, remaining: 1), at: 1),
        Case("truncated ID", "D9 01 00 04 54 AA", .lengthPastEnd(declared: 4, remaining: 1), at: 3),
        Case("truncated payload", "D1 01 05 54 02 65", .lengthPastEnd(declared: 5, remaining: 2), at: 2),
        Case(
            "long length 0xFFFFFFFF", "C1 01 FF FF FF FF 54 00", .lengthPastEnd(declared: 0xFFFF_FFFF, remaining: 1),
            at: 2),
        Case(
            "long length 0xFFFFFFFF, no bytes", "C5 00 FF FF FF FF",
            .lengthPastEnd(declared: 0xFFFF_FFFF, remaining: 0), at: 2),
        Case("MB missing on first", "51 01 00 54", .missingMessageBegin, at: 0),
        Case("MB on a later record", "91 01 00 54 D1 01 00 54", .unexpectedMessageBegin, at: 4),
        Case("ME missing at end", "91 01 00 54", .missingMessageEnd, at: 4),
        Case("ME missing after two", "91 01 00 54 11 01 00 54", .missingMessageEnd, at: 8),
        Case("bytes after ME", "D1 01 00 54 00 00", .bytesAfterMessageEnd(count: 2), at: 4),
        Case("record after ME", "D1 01 00 54 51 01 00 54", .bytesAfterMessageEnd(count: 4), at: 4),
        Case("CF with ME", "F1 01 00 54", .chunkWithMessageEnd, at: 0),
        Case("CF with ME on a middle chunk", "B1 01 01 54 61 76 00 01 62", .chunkWithMessageEnd, at: 5),
        Case(
            "middle chunk with a type", "B1 01 01 54 61 36 01 01 54 62 56 00 01 63", .continuationWithType(length: 1),
            at: 6),
        Case("last chunk with a type", "B1 01 01 54 61 56 01 01 54 62", .continuationWithType(length: 1), at: 6),
        Case(
            "TNF 1 on a continuation", "B1 01 01 54 61 51 00 01 62", .continuationTypeNameFormat(found: .wellKnown),
            at: 5),
        Case("TNF 0 on a continuation", "B1 01 01 54 61 50 00 00", .continuationTypeNameFormat(found: .empty), at: 5),
        Case("IL on a continuation", "B1 01 01 54 61 5E 00 01 00 62", .continuationWithIdentifier, at: 5),
        Case("message ends after first chunk", "B1 01 01 54 61", .unterminatedChunk, at: 5),
        Case("message ends after middle chunk", "B1 01 01 54 61 36 00 01 62", .unterminatedChunk, at: 9),
        Case("chunked empty record", "B0 00 00 56 00 00", .chunkedEmptyRecord, at: 0),
        Case("empty record with a type", "D0 01 00 54", .lengthInEmptyRecord(length: 1), at: 1),
        Case("empty record with a payload", "D0 00 02 AA BB", .lengthInEmptyRecord(length: 2), at: 2),
        Case("empty record with an ID", "D8 00 00 01 AA", .lengthInEmptyRecord(length: 1), at: 3),
        Case("empty long record with a payload", "C0 00 00 00 01 00 AA", .lengthInEmptyRecord(length: 256), at: 2),
        Case("reserved TNF", "D7 00 00", .reservedTypeNameFormat, at: 0),
        Case("reserved TNF on a later record", "91 01 00 54 57 00 00", .reservedTypeNameFormat, at: 4),
        Case("unchanged TNF outside a chunk", "D6 00 00", .unchangedOutsideChunk, at: 0),
        Case("unchanged TNF after a whole record", "91 01 00 54 56 00 00", .unchangedOutsideChunk, at: 4),
        Case("unknown TNF with a type", "D5 01 00 54", .typeInUnknownRecord(length: 1), at: 1),
    ]

    @Test(arguments: corpus)
    func decodingFails(example: Case) {
        #expect(throws: NDEFDecodingError(offset: example.offset, reason: example.reason)) {
            try NDEFMessage(bytes: example.bytes)
        }
    }

    /// Messages that decode, but whose record payload is malformed for its well-known type.
    static let payloadCorpus: [Case] = [
        Case("bad URI code 0x24", "D1 01 02 55 24 61", .reservedURIPrefix(code: 0x24), at: 0),
        Case("bad URI code 0xFF", "D1 01 01 55 FF", .reservedURIPrefix(code: 0xFF), at: 0),
        Case("URI with invalid UTF-8", "D1 01 03 55 04 61 80", .invalidUTF8, at: 2),
        Case("text language length 0", "D1 01 02 54 00 61", .emptyLanguageCode, at: 0),
        Case("text RFU bit", "D1 01 03 54 42 65 6E", .textReservedBitSet, at: 0),
        Case("text language past end", "D1 01 02 54 05 65", .lengthPastEnd(declared: 5, remaining: 1), at: 0),
        Case("text invalid UTF-8", "D1 01 05 54 02 65 6E 61 FE", .invalidUTF8, at: 4),
        Case("text empty payload", "D1 01 00 54", .emptyPayload, at: 0),
        Case("smart poster without URI", "D1 02 07 53 70 D1 01 03 54 02 65 6E", .smartPosterMissingURI, at: 0),
        Case(
            "smart poster with two URIs", "D1 02 0C 53 70 91 01 02 55 00 61 51 01 02 55 00 62",
            .smartPosterDuplicateRecord(type: "U"), at: 6),
        Case(
            "smart poster with a broken inner message", "D1 02 03 53 70 D1 05 00",
            .lengthPastEnd(declared: 5, remaining: 0), at: 1),
    ]

    @Test(arguments: payloadCorpus)
    func parsingThePayloadFails(example: Case) throws {
        let message = try NDEFMessage(bytes: example.bytes)
        #expect(throws: NDEFDecodingError(offset: example.offset, reason: example.reason)) {
            try message.records[0].parsedPayload()
        }
    }

    @Test func descriptionSaysWhereAndWhat() {
        let error = NDEFDecodingError(offset: 2, reason: .lengthPastEnd(declared: 0xFFFF_FFFF, remaining: 1))
        #expect(
            error.description == "at byte 2: expected a length of at most 1 (the bytes remaining), found 4294967295")
        #expect(
            NDEFDecodingError(offset: 1, reason: .truncatedHeader).description
                == "at byte 1: expected the rest of a record header, found end of input")
    }
}

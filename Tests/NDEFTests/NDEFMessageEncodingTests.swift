import Testing
@testable import NDEF

@Suite("Encoding chooses SR, IL and chunk layout, and rejects what NDEF forbids")
struct NDEFMessageEncodingTests {
    private func encode(_ records: NDEFRecord...) throws(NDEFEncodingError) -> [UInt8] {
        try NDEFMessage(records: records).encoded()
    }

    @Test func shortRecordUpTo255BytesThenLong() throws {
        let short = try encode(NDEFRecord(typeNameFormat: .unknown, payload: [UInt8](repeating: 7, count: 255)))
        #expect(Array(short.prefix(3)) == [0xD5, 0x00, 0xFF])
        let long = try encode(NDEFRecord(typeNameFormat: .unknown, payload: [UInt8](repeating: 7, count: 256)))
        #expect(Array(long.prefix(6)) == [0xC5, 0x00, 0x00, 0x00, 0x01, 0x00])
        #expect(long.count == 6 + 256)
        #expect(try NDEFMessage(bytes: long).records[0].payload.count == 256)
    }

    @Test func identifierSetsILAndFollowsTheLengths() throws {
        let bytes = try encode(
            NDEFRecord(typeNameFormat: .wellKnown, type: [0x54], identifier: [0xAA, 0xBB], payload: [1]))
        #expect(bytes == hex("D9 01 01 02 54 AA BB 01"))
    }

    @Test func flagsMarkFirstAndLastRecords() throws {
        let bytes = try encode(.wellKnown("a", payload: []), .wellKnown("b", payload: []), .wellKnown("c", payload: []))
        #expect(bytes == hex("91 01 00 61 11 01 00 62 51 01 00 63"))
    }

    @Test func chunkedLayoutFollowsNDEFRules() throws {
        let message = NDEFMessage(records: [
            NDEFRecord(typeNameFormat: .wellKnown, type: [0x54], identifier: [0x69], payload: Array("abcde".utf8))
        ])
        let bytes = try message.encoded(maximumChunkSize: 2)
        #expect(hexString(bytes) == "B9 01 02 01 54 69 61 62 36 00 02 63 64 56 00 01 65")
        #expect(try NDEFMessage(bytes: bytes) == message)
    }

    @Test func chunkingOnlyTouchesLongPayloads() throws {
        let message = NDEFMessage(records: [.wellKnown("x", payload: [1, 2]), .wellKnown("y", payload: [1, 2, 3])])
        let bytes = try message.encoded(maximumChunkSize: 2)
        #expect(hexString(bytes) == "91 01 02 78 01 02 31 01 02 79 01 02 56 00 01 03")
        #expect(try message.encoded(maximumChunkSize: 3) == message.encoded())
    }

    @Test func structuralErrors() {
        #expect(throws: NDEFEncodingError.emptyMessage) { try NDEFMessage(records: []).encoded() }
        #expect(throws: NDEFEncodingError.typeTooLong(recordIndex: 1, length: 256)) {
            try encode(.empty, NDEFRecord(typeNameFormat: .media, type: [UInt8](repeating: 0x61, count: 256)))
        }
        #expect(throws: NDEFEncodingError.identifierTooLong(recordIndex: 0, length: 300)) {
            try encode(NDEFRecord(typeNameFormat: .unknown, identifier: [UInt8](repeating: 1, count: 300)))
        }
        #expect(throws: NDEFEncodingError.contentInEmptyRecord(recordIndex: 0)) {
            try encode(NDEFRecord(typeNameFormat: .empty, type: [0x54]))
        }
        #expect(throws: NDEFEncodingError.contentInEmptyRecord(recordIndex: 0)) {
            try encode(NDEFRecord(typeNameFormat: .empty, payload: [0]))
        }
        #expect(throws: NDEFEncodingError.typeInUnknownRecord(recordIndex: 0)) {
            try encode(NDEFRecord(typeNameFormat: .unknown, type: [0x54]))
        }
        #expect(throws: NDEFEncodingError.unencodableTypeNameFormat(recordIndex: 0, .unchanged)) {
            try encode(NDEFRecord(typeNameFormat: .unchanged))
        }
        #expect(throws: NDEFEncodingError.unencodableTypeNameFormat(recordIndex: 0, .reserved)) {
            try encode(NDEFRecord(typeNameFormat: .reserved))
        }
        #expect(throws: NDEFEncodingError.invalidMaximumChunkSize(0)) {
            try NDEFMessage.empty.encoded(maximumChunkSize: 0)
        }
    }

    @Test func longestTypeAndIdentifierAreAllowed() throws {
        let record = NDEFRecord(
            typeNameFormat: .external, type: [UInt8](repeating: 0x61, count: 255),
            identifier: [UInt8](repeating: 0x62, count: 255), payload: [])
        #expect(try NDEFMessage(bytes: encode(record)).records == [record])
    }

    @Test func typeNameFormatNamesMatchTheCLIContract() {
        #expect(
            NDEFTypeNameFormat.allCases.map(\.description)
                == ["empty", "well-known", "media", "absolute-uri", "external", "unknown", "unchanged", "reserved"])
    }
}

import Foundation
import Testing
@testable import NDEF

@Suite("URI records pick the longest prefix and reject reserved codes")
struct NDEFURIRecordTests {
    @Test func prefixTableHas36EntriesStartingWithNone() {
        #expect(NDEFURIRecord.prefixTable.count == 36)
        #expect(NDEFURIRecord.prefixTable[0] == "")
        #expect(NDEFURIRecord.prefixTable[0x23] == "urn:nfc:")
        #expect(NDEFURIRecord.prefixTable[0x1E] == "urn:epc:id:")
        #expect(Set(NDEFURIRecord.prefixTable).count == 36)
    }

    @Test(arguments: [
        ("https://www.x", 0x02), ("http://www.x", 0x01), ("http://x", 0x03), ("https://x", 0x04),
        ("urn:nfc:x", 0x23), ("urn:epc:id:x", 0x1E), ("urn:epc:tag:x", 0x1F), ("urn:epc:pat:x", 0x20),
        ("urn:epc:raw:x", 0x21), ("urn:epc:x", 0x22), ("urn:x", 0x13), ("ftp://anonymous:anonymous@x", 0x07),
        ("ftp://ftp.x", 0x08), ("ftp://x", 0x0D), ("tel:+1", 0x05), ("mailto:a@b", 0x06), ("sips:a", 0x16),
        ("HTTP://WWW.X", 0x00), ("", 0x00), ("example", 0x00), ("https://www.", 0x02),
    ])
    func encodingPicksTheLongestMatchingPrefix(uri: String, code: Int) throws {
        let record = NDEFURIRecord(uri: uri).record
        #expect(record.payload.first == UInt8(code))
        let prefix = NDEFURIRecord.prefixTable[code]
        #expect(Array(record.payload.dropFirst()) == Array(uri.utf8.dropFirst(prefix.utf8.count)))
        #expect(try NDEFURIRecord(record: record).uri == uri)
    }

    @Test func everyDefinedCodeDecodesToItsPrefix() throws {
        for code in 0...0x23 {
            let record = NDEFRecord.wellKnown("U", payload: [UInt8(code)] + Array("rest".utf8))
            #expect(try NDEFURIRecord(record: record).uri == NDEFURIRecord.prefixTable[code] + "rest")
        }
    }

    @Test func reservedCodesAreDecodeErrors() {
        for code in 0x24...0xFF {
            let record = NDEFRecord.wellKnown("U", payload: [UInt8(code), 0x61])
            #expect(throws: NDEFDecodingError(offset: 0, reason: .reservedURIPrefix(code: UInt8(code)))) {
                try NDEFURIRecord(record: record)
            }
        }
    }

    @Test func emptyPayloadAndInvalidUTF8AreErrors() {
        #expect(throws: NDEFDecodingError(offset: 0, reason: .emptyPayload)) {
            try NDEFURIRecord(record: .wellKnown("U", payload: []))
        }
        #expect(throws: NDEFDecodingError(offset: 3, reason: .invalidUTF8)) {
            try NDEFURIRecord(record: .wellKnown("U", payload: [0x04, 0x61, 0x62, 0xC3]))
        }
    }

    @Test func anotherRecordTypeIsAMismatch() {
        #expect(
            throws: NDEFDecodingError(
                offset: 0, reason: .recordTypeMismatch(expected: "well-known \"U\"", found: "well-known \"T\""))
        ) {
            try NDEFURIRecord(record: .wellKnown("T", payload: [0x02]))
        }
    }

    @Test func urlIsAvailableWhenTheURIParses() {
        #expect(NDEFURIRecord(uri: "https://example.com/a").url?.host == "example.com")
    }
}

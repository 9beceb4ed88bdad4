import Testing
@testable import NDEF

@Suite("Text records: status byte, language code, UTF-8 and UTF-16 with BOM")
struct NDEFTextRecordTests {
    private func text(_ payload: [UInt8]) throws(NDEFDecodingError) -> NDEFTextRecord {
        try NDEFTextRecord(record: .wellKnown("T", payload: payload))
    }

    @Test func utf16EncodingIsBigEndianWithBOM() throws {
        let record = try NDEFTextRecord(text: "hé€😀", languageCode: "fr", encoding: .utf16).makeRecord()
        #expect(record.payload == hex("82 66 72 FE FF 00 68 00 E9 20 AC D8 3D DE 00"))
    }

    @Test func utf16DecodingHonoursTheByteOrderMark() throws {
        #expect(try text(hex("82 65 6E FE FF 00 68 00 69")).text == "hi")
        #expect(try text(hex("82 65 6E FF FE 68 00 69 00")).text == "hi")
        #expect(try text(hex("82 65 6E 00 68 00 69")).text == "hi")  // no BOM: big-endian
        #expect(try text(hex("82 65 6E")).text == "")
        #expect(try text(hex("82 65 6E FE FF")).text == "")
        #expect(try text(hex("82 65 6E FE FF 00 68")).encoding == .utf16)
    }

    @Test func aLeadingU_FEFFInTheTextSurvivesBecauseEncodingAlwaysWritesABOM() throws {
        let original = NDEFTextRecord(text: "\u{FEFF}x", encoding: .utf16)
        #expect(try NDEFTextRecord(record: original.makeRecord()) == original)
    }

    @Test func utf8TextKeepsLanguageAndText() throws {
        let decoded = try text(hex("05 65 6E 2D 47 42 63 6F 6C 6F 75 72"))
        #expect(decoded == NDEFTextRecord(text: "colour", languageCode: "en-GB", encoding: .utf8))
    }

    @Test(arguments: [
        (hex(""), NDEFDecodingError(offset: 0, reason: .emptyPayload)),
        (hex("00 61"), NDEFDecodingError(offset: 0, reason: .emptyLanguageCode)),
        (hex("80"), NDEFDecodingError(offset: 0, reason: .emptyLanguageCode)),
        (hex("42 65 6E"), NDEFDecodingError(offset: 0, reason: .textReservedBitSet)),
        (hex("05 65"), NDEFDecodingError(offset: 0, reason: .lengthPastEnd(declared: 5, remaining: 1))),
        (hex("3F"), NDEFDecodingError(offset: 0, reason: .lengthPastEnd(declared: 63, remaining: 0))),
        (hex("02 65 C3 61"), NDEFDecodingError(offset: 2, reason: .invalidLanguageCode)),
        (hex("02 65 20 61"), NDEFDecodingError(offset: 2, reason: .invalidLanguageCode)),
        (hex("02 65 6E 61 FF"), NDEFDecodingError(offset: 4, reason: .invalidUTF8)),
        (hex("02 65 6E C0 80"), NDEFDecodingError(offset: 3, reason: .invalidUTF8)),  // overlong
        (hex("02 65 6E 61 ED A0 80"), NDEFDecodingError(offset: 4, reason: .invalidUTF8)),  // surrogate
        (hex("02 65 6E F4 90 80 80"), NDEFDecodingError(offset: 3, reason: .invalidUTF8)),  // > U+10FFFF
        (hex("02 65 6E E2 82"), NDEFDecodingError(offset: 3, reason: .invalidUTF8)),  // truncated
        (hex("82 65 6E FE FF 00"), NDEFDecodingError(offset: 5, reason: .invalidUTF16)),
        (hex("82 65 6E 00 61 D8 00 00 61"), NDEFDecodingError(offset: 5, reason: .invalidUTF16)),
        (hex("82 65 6E FF FE 00 DC"), NDEFDecodingError(offset: 5, reason: .invalidUTF16)),
        (hex("82 65 6E D8 3D"), NDEFDecodingError(offset: 3, reason: .invalidUTF16)),
    ])
    func malformedPayloadsFailWithReasonAndOffset(payload: [UInt8], error: NDEFDecodingError) {
        #expect(throws: error) { try text(payload) }
    }

    @Test func languageCodeMustBe1To63PrintableASCII() {
        #expect(NDEFTextRecord.isValidLanguageCode("en"))
        #expect(NDEFTextRecord.isValidLanguageCode(String(repeating: "a", count: 63)))
        for bad in ["", String(repeating: "a", count: 64), "e n", "é", "en\n"] {
            #expect(!NDEFTextRecord.isValidLanguageCode(bad))
            #expect(throws: NDEFEncodingError.invalidLanguageCode(bad)) {
                try NDEFTextRecord(text: "x", languageCode: bad).makeRecord()
            }
        }
    }

    @Test func statusByteCarriesEncodingAndLanguageLength() throws {
        let code = String(repeating: "z", count: 63)
        #expect(NDEFTextRecord(text: "", languageCode: code, encoding: .utf16).record.payload.first == UInt8(0x80 | 63))
        #expect(NDEFTextRecord(text: "", languageCode: code, encoding: .utf8).record.payload.first == UInt8(63))
    }
}

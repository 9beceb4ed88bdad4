import Testing
@testable import NDEF

@Suite("Media, external and absolute-URI records validate their names")
struct NDEFMediaAndExternalRecordTests {
    @Test(arguments: [
        "text/plain", "image/png", "Image/SVG+XML", "application/vnd.bluetooth.ep.oob", "text/plain; charset=utf-8",
        "text/plain;charset=\"a; b\"", "a/b ; x=y;z=w", "application/x-\u{7E}!#$&^_.+-",
    ])
    func validMediaTypesAreKeptAsGiven(type: String) throws {
        let media = try NDEFMediaRecord(mediaType: type, payload: [1])
        #expect(media.record.type == Array(type.utf8))
        #expect(try NDEFMediaRecord(record: media.record) == media)
    }

    @Test(arguments: [
        "", "text", "text/", "/plain", "text/plain/x", "te xt/plain", "text/pl@in", "text/plain;", "text/plain; a",
        "text/plain; a=", "text/plain; a=\"b", "tëxt/plain", "text/plain\n",
        String(repeating: "a", count: 250) + "/abcdef",
    ])
    func invalidMediaTypesAreRejected(type: String) {
        #expect(throws: NDEFEncodingError.invalidMediaType(type)) { try NDEFMediaRecord(mediaType: type, payload: []) }
        let record = NDEFRecord(typeNameFormat: .media, type: Array(type.utf8))
        #expect(throws: NDEFDecodingError(offset: 0, reason: .invalidMediaType(type))) {
            try NDEFMediaRecord(record: record)
        }
    }

    @Test func mediaEssenceIgnoresCaseAndParameters() throws {
        let media = try NDEFMediaRecord(mediaType: "Text/Plain ; charset=utf-8", payload: [])
        #expect(media.essence == "text/plain")
        #expect(media.hasMediaType("TEXT/plain"))
        #expect(media.mediaType == "Text/Plain ; charset=utf-8")
    }

    @Test func externalTypesSplitAtTheFirstColon() throws {
        let aar = try NDEFExternalRecord(typeString: "android.com:pkg", payload: Array("com.example".utf8))
        #expect(aar.domain == "android.com")
        #expect(aar.externalType == "pkg")
        #expect(
            aar.record
                == NDEFRecord(
                    typeNameFormat: .external, type: Array("android.com:pkg".utf8), payload: Array("com.example".utf8)))
        let nested = try NDEFExternalRecord(domain: "a.org", type: "b:c", payload: [])
        #expect(try NDEFExternalRecord(record: nested.record).externalType == "b:c")
    }

    @Test func externalNamesCompareIgnoringCase() throws {
        let lower = try NDEFExternalRecord(domain: "example.com", type: "mytype", payload: [1])
        let upper = try NDEFExternalRecord(domain: "Example.COM", type: "MyType", payload: [1])
        #expect(lower == upper)
        #expect(Set([lower, upper]).count == 1)
        #expect(lower != (try NDEFExternalRecord(domain: "example.com", type: "mytype", payload: [2])))
        #expect(upper.typeString == "Example.COM:MyType")
    }

    @Test(arguments: [
        "", ":", "nocolon", ":type", "domain:", "do main:type", "domain:ty pe", "dömain:type",
        String(repeating: "a", count: 200) + ":" + String(repeating: "b", count: 60),
    ])
    func invalidExternalTypesAreRejected(name: String) {
        #expect(throws: NDEFEncodingError.invalidExternalType(name)) {
            try NDEFExternalRecord(typeString: name, payload: [])
        }
        let record = NDEFRecord(typeNameFormat: .external, type: Array(name.utf8))
        #expect(throws: NDEFDecodingError(offset: 0, reason: .invalidExternalType(name))) {
            try NDEFExternalRecord(record: record)
        }
    }

    @Test func externalDomainMayNotContainAColon() {
        #expect(throws: NDEFEncodingError.invalidExternalType("a:b:c")) {
            try NDEFExternalRecord(domain: "a:b", type: "c", payload: [])
        }
        #expect(throws: NDEFEncodingError.invalidExternalType(":c")) {
            try NDEFExternalRecord(domain: "", type: "c", payload: [])
        }
    }

    @Test func absoluteURIIsTheTypeWithAnEmptyPayload() throws {
        let absolute = NDEFAbsoluteURIRecord(uri: "https://example.com/schema")
        let bytes = try NDEFMessage(records: [absolute.record]).encoded()
        #expect(bytes == [0xD3, 26, 0] + Array("https://example.com/schema".utf8))
        #expect(try NDEFMessage(bytes: bytes).records[0].parsedPayload() == .absoluteURI(absolute))
        #expect(throws: NDEFDecodingError(offset: 1, reason: .invalidUTF8)) {
            try NDEFAbsoluteURIRecord(record: NDEFRecord(typeNameFormat: .absoluteURI, type: [0x61, 0xFF]))
        }
    }

    @Test func absoluteURILongerThan255BytesFailsToEncode() {
        let record = NDEFAbsoluteURIRecord(uri: "urn:" + String(repeating: "x", count: 252)).record
        #expect(throws: NDEFEncodingError.typeTooLong(recordIndex: 0, length: 256)) {
            try NDEFMessage(records: [record]).encoded()
        }
    }

    @Test func parsedPayloadPicksTheMostSpecificType() throws {
        #expect(
            try NDEFRecord.wellKnown("Hr", payload: [0x12]).parsedPayload() == .other(.wellKnown("Hr", payload: [0x12]))
        )
        #expect(
            try NDEFRecord(typeNameFormat: .unknown, payload: [1]).parsedPayload()
                == .other(NDEFRecord(typeNameFormat: .unknown, payload: [1])))
        let external = NDEFRecord(typeNameFormat: .external, type: Array("a.b:c".utf8), payload: [7])
        #expect(
            try external.parsedPayload() == .external(try NDEFExternalRecord(domain: "a.b", type: "c", payload: [7])))
        let media = NDEFRecord(typeNameFormat: .media, type: Array("text/plain".utf8), payload: [7])
        #expect(try media.parsedPayload().makeRecord() == media)
    }
}

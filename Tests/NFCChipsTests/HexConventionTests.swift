import Foundation
import Testing
import NFCChips

@Suite("Hex text conventions of datasheets/")
struct HexConventionTests {
    struct Sample: Codable, Equatable {
        @Hex var code: UInt8
        @Hex var address: UInt16
        @Hex var bytes: [UInt8]
        @Hex var page: Int?
    }

    @Test("numbers and byte strings decode from their hex text")
    func decodesHexText() throws {
        let json = #"{"code":"0x3A","address":"0x6302","bytes":"00 04 04 02","page":"0x29"}"#
        let sample = try JSONDecoder().decode(Sample.self, from: Data(json.utf8))
        #expect(sample.code == 0x3A)
        #expect(sample.address == 0x6302)
        #expect(sample.bytes == [0x00, 0x04, 0x04, 0x02])
        #expect(sample.page == 0x29)
    }

    @Test("an optional hex value may be missing or null")
    func optionalMayBeMissing() throws {
        let missing = try JSONDecoder().decode(
            Sample.self, from: Data(#"{"code":"0x00","address":"0x0","bytes":""}"#.utf8))
        #expect(missing.page == nil)
        #expect(missing.bytes == [])
        let null = try JSONDecoder().decode(
            Sample.self, from: Data(#"{"code":"0x00","address":"0x0","bytes":"","page":null}"#.utf8))
        #expect(null.page == nil)
    }

    @Test("encoding then decoding gives the same value")
    func roundTrips() throws {
        let sample = Sample(code: 0xFF, address: 0x633D, bytes: [0xE1, 0x10, 0x6D, 0x00], page: nil)
        let again = try JSONDecoder().decode(Sample.self, from: JSONEncoder().encode(sample))
        #expect(again == sample)
    }

    @Test("malformed hex text is rejected", arguments: ["29", "0x", "0xGG", "0x100", "-0x1", " 0x1"])
    func rejectsMalformedNumbers(text: String) {
        #expect(throws: HexTextError.self) { try UInt8(hexText: text) }
    }

    @Test("malformed byte strings are rejected", arguments: ["0", "000", "00  04", "00,04", "0x00", " 00", "00 "])
    func rejectsMalformedBytes(text: String) {
        #expect(throws: HexTextError.self) { try [UInt8](hexText: text) }
    }

    @Test("hex text round-trips for every byte")
    func everyByteRoundTrips() throws {
        let all = (0...255).map { UInt8($0) }
        #expect(try [UInt8](hexText: all.hexText) == all)
        for byte in all { #expect(try UInt8(hexText: byte.hexText) == byte) }
    }
}

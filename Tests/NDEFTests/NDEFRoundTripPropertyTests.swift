import TestSupport
import Testing
@testable import NDEF

/// Generated values survive encode → decode. Every case has its own seed, printed on failure.
@Suite("Round trips over generated messages and typed records")
struct NDEFRoundTripPropertyTests {
    static let baseSeed: UInt64 = 0x4E44_4546_2024

    @Test func recordsOfEveryTNFRoundTripAndReEncodeIdentically() throws {
        for index in 0..<2_000 {
            let seed = Self.baseSeed &+ UInt64(index)
            var random = SplitMix64(seed: seed)
            let message = random.message()
            let bytes = try message.encoded()
            let decoded = try NDEFMessage(bytes: bytes)
            #expect(decoded == message, "seed \(seed)")
            #expect(try decoded.encoded() == bytes, "seed \(seed)")
        }
    }

    @Test func chunkedEncodingWithRandomChunkSizesRoundTrips() throws {
        for index in 0..<2_000 {
            let seed = Self.baseSeed &+ 1_000_000 &+ UInt64(index)
            var random = SplitMix64(seed: seed)
            let message = random.message()
            let chunkSize =
                random.chance(1, in: 3)
                ? Int.random(in: 1...4, using: &random) : Int.random(in: 1...400, using: &random)
            let bytes = try message.encoded(maximumChunkSize: chunkSize)
            #expect(try NDEFMessage(bytes: bytes) == message, "seed \(seed), chunk size \(chunkSize)")
            let largest = message.records.map(\.payload.count).max() ?? 0
            if chunkSize >= largest {
                #expect(try bytes == message.encoded(), "seed \(seed)")
            }
        }
    }

    @Test func textRecordsRoundTripInUTF8AndUTF16() throws {
        for index in 0..<3_000 {
            let seed = Self.baseSeed &+ 2_000_000 &+ UInt64(index)
            var random = SplitMix64(seed: seed)
            let text = random.textRecord()
            let record = try text.makeRecord()
            #expect(try NDEFTextRecord(record: record) == text, "seed \(seed)")
            let bytes = try NDEFMessage(records: [record]).encoded(
                maximumChunkSize: Int.random(in: 1...64, using: &random))
            #expect(try NDEFMessage(bytes: bytes).records[0].parsedPayload() == .text(text), "seed \(seed)")
        }
    }

    @Test func utf16TextsDecodeTheSameInEitherByteOrder() throws {
        for index in 0..<1_000 {
            let seed = Self.baseSeed &+ 3_000_000 &+ UInt64(index)
            var random = SplitMix64(seed: seed)
            let text = random.unicodeText()
            var littleEndian: [UInt8] = [0x82, 0x65, 0x6E, 0xFF, 0xFE]
            for unit in text.utf16 { littleEndian += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            #expect(try NDEFTextRecord(record: .wellKnown("T", payload: littleEndian)).text == text, "seed \(seed)")
        }
    }

    @Test func urisRoundTripAndUseTheLongestPrefix() throws {
        for index in 0..<3_000 {
            let seed = Self.baseSeed &+ 4_000_000 &+ UInt64(index)
            var random = SplitMix64(seed: seed)
            let uri = NDEFURIRecord(uri: random.uri())
            let record = uri.record
            #expect(try NDEFURIRecord(record: record) == uri, "seed \(seed)")
            let chosen = NDEFURIRecord.prefixTable[Int(record.payload[0])]
            #expect(uri.uri.utf8.starts(with: chosen.utf8), "seed \(seed)")
            let longer = NDEFURIRecord.prefixTable.filter {
                $0.utf8.count > chosen.utf8.count && uri.uri.utf8.starts(with: $0.utf8)
            }
            #expect(longer.isEmpty, "seed \(seed): \(longer) is longer than \(chosen)")
        }
    }

    @Test func smartPostersRoundTrip() throws {
        for index in 0..<1_500 {
            let seed = Self.baseSeed &+ 5_000_000 &+ UInt64(index)
            var random = SplitMix64(seed: seed)
            let poster = try random.smartPoster()
            let bytes = try NDEFMessage(records: [poster.makeRecord(), random.record()])
                .encoded(maximumChunkSize: Int.random(in: 1...512, using: &random))
            let decoded = try NDEFMessage(bytes: bytes)
            #expect(try decoded.records[0].parsedPayload() == .smartPoster(poster), "seed \(seed)")
        }
    }

    @Test func parsedPayloadsRebuildTheirRecord() throws {
        for index in 0..<1_000 {
            let seed = Self.baseSeed &+ 6_000_000 &+ UInt64(index)
            var random = SplitMix64(seed: seed)
            let payloads: [NDEFPayload] = [
                .empty, .text(random.textRecord()), .uri(NDEFURIRecord(uri: random.uri())),
                .smartPoster(try random.smartPoster()),
                .media(try NDEFMediaRecord(mediaType: random.mediaType(), payload: random.bytes(random.payloadSize()))),
                .external(try NDEFExternalRecord(domain: "nfc.example", type: "t\(index)", payload: random.bytes(3))),
                .absoluteURI(NDEFAbsoluteURIRecord(uri: "https://x.example/\(index)", payload: random.bytes(2))),
                .other(NDEFRecord(typeNameFormat: .unknown, payload: random.bytes(4))),
            ]
            for payload in payloads {
                #expect(try payload.makeRecord().parsedPayload() == payload, "seed \(seed)")
            }
        }
    }
}

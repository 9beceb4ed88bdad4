import TestSupport
import Testing
@testable import NDEF

/// Random and mutated bytes never trap: decoding either succeeds (and then re-encodes to a
/// message that decodes the same) or throws a typed error whose offset lies inside the input.
@Suite("Fuzzed input never traps")
struct NDEFFuzzTests {
    static let baseSeed: UInt64 = 0xF022_0000

    /// Decodes `bytes`, and checks whatever comes out.
    private func exercise(_ bytes: [UInt8], seed: UInt64) {
        do {
            let message = try NDEFMessage(bytes: bytes)
            let reEncoded = try message.encoded()
            #expect(try NDEFMessage(bytes: reEncoded) == message, "seed \(seed)")
            for record in message.records {
                exerciseParsing(record, seed: seed)
            }
        } catch let error as NDEFDecodingError {
            #expect((0...bytes.count).contains(error.offset), "seed \(seed): \(error)")
        } catch {
            Issue.record("seed \(seed): decoded message failed to re-encode: \(error)")
        }
    }

    private func exerciseParsing(_ record: NDEFRecord, seed: UInt64) {
        do {
            let payload = try record.parsedPayload()
            let rebuilt = try payload.makeRecord()
            #expect(try rebuilt.parsedPayload() == payload, "seed \(seed)")
        } catch let error as NDEFDecodingError {
            #expect(
                error.offset >= 0 && error.offset <= max(record.payload.count, record.type.count),
                "seed \(seed): \(error)")
        } catch {
            Issue.record("seed \(seed): parsed payload failed to rebuild: \(error)")
        }
    }

    @Test func randomBytes() {
        for index in 0..<5_000 {
            let seed = Self.baseSeed &+ UInt64(index)
            var random = SplitMix64(seed: seed)
            var bytes = random.bytes(Int.random(in: 0...48, using: &random))
            // Make plausible headers common: set MB on the first byte half of the time.
            if !bytes.isEmpty, random.chance(1, in: 2) { bytes[0] |= 0x80 }
            exercise(bytes, seed: seed)
        }
    }

    @Test func mutationsOfValidMessages() throws {
        for index in 0..<5_000 {
            let seed = Self.baseSeed &+ 1_000_000 &+ UInt64(index)
            var random = SplitMix64(seed: seed)
            let records: [NDEFRecord] = try [
                random.record(), random.textRecord().makeRecord(), NDEFURIRecord(uri: random.uri()).record,
                random.smartPoster().makeRecord(),
            ].shuffled(using: &random)
            var bytes = try NDEFMessage(records: Array(records.prefix(Int.random(in: 1...4, using: &random))))
                .encoded(maximumChunkSize: Int.random(in: 1...300, using: &random))
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                mutate(&bytes, using: &random)
            }
            exercise(bytes, seed: seed)
        }
    }

    @Test func hugeDeclaredLengthsAreRejectedWithoutAllocating() {
        // Each declares a 4 GiB payload in a few bytes; decoding must compare with the bytes left.
        for flags: UInt8 in [0xC1, 0xC2, 0xC4, 0xC5, 0xA1] {
            let bytes: [UInt8] = [flags, flags & 7 == 5 ? 0 : 1, 0xFF, 0xFF, 0xFF, 0xFF, 0x61]
            #expect(throws: NDEFDecodingError.self) { try NDEFMessage(bytes: bytes) }
        }
    }

    private func mutate(_ bytes: inout [UInt8], using random: inout SplitMix64) {
        guard !bytes.isEmpty else {
            bytes = random.bytes(3)
            return
        }
        let position = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0: bytes[position] ^= 1 << UInt8.random(in: 0...7, using: &random)
        case 1: bytes[position] = UInt8.random(in: 0...255, using: &random)
        case 2: bytes.removeSubrange(position...)
        case 3: bytes.remove(at: position)
        case 4: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
        default: bytes[position] = [0x00, 0xFF, 0x7F, 0x80][Int.random(in: 0..<4, using: &random)]
        }
    }
}

import NDEF
import NFCChips
import NFCEmulator
import TestSupport
import Testing
@testable import NFCTags

@Suite("Type 2 NDEF round trips on every emulated chip")
struct Type2RoundTripPropertyTests {
    @Test("random messages of random sizes read back as written", arguments: Type2Fixtures.chips)
    func randomMessages(chip: Chip) async throws {
        let seed = UInt64(0x5EED_0000) &+ UInt64(Type2Fixtures.chips.firstIndex(of: chip) ?? 0)
        var rng = SplitMix64(seed: seed)
        let transport = EmulatedTagTransport(tag: try await Type2Fixtures.formattedTag(chip))
        let driver = try Type2Fixtures.driver(chip, transport)
        let capacity = try await driver.queryStatus().capacity
        for round in 0..<40 {
            let message = Type2Fixtures.randomMessage(maximumSize: capacity, using: &rng)
            let size = try message.encoded().count
            guard size <= capacity else { continue }
            try await driver.writeMessage(message)
            let back = try await driver.readMessage()
            #expect(back == message, "seed \(seed) round \(round): \(size) bytes on \(chip)")
            #expect(try await driver.queryStatus().length == size, "seed \(seed) round \(round)")
        }
    }

    @Test("the largest message that fits, and an empty message, round-trip", arguments: Type2Fixtures.chips)
    func extremes(chip: Chip) async throws {
        let transport = EmulatedTagTransport(tag: try await Type2Fixtures.formattedTag(chip))
        let driver = try Type2Fixtures.driver(chip, transport)
        let capacity = try await driver.queryStatus().capacity
        let largest = Type2Fixtures.message(
            encodedSize: capacity == 269 || capacity == 270 || capacity == 271 ? 268 : capacity)
        try await driver.writeMessage(largest)
        #expect(try await driver.readMessage() == largest)
        try await driver.writeMessage(NDEFMessage(records: []))
        #expect(try await driver.readMessage().records.isEmpty)
        #expect(try await driver.queryStatus().length == 0)
    }

    @Test("the 1-byte / 3-byte length boundary (254, 255, 256 bytes) on NTAG215")
    func lengthFormBoundary() async throws {
        let transport = EmulatedTagTransport(tag: try Type2Fixtures.tag(.ntag215))
        let driver = try Type2Fixtures.driver(.ntag215, transport)
        for size in [254, 255, 256, 253, 300, 20] {
            let message = Type2Fixtures.message(encodedSize: size)
            try await driver.writeMessage(message)
            #expect(try await driver.readMessage() == message, "size \(size)")
            #expect(try await driver.queryStatus().length == size)
        }
    }
}

import NDEF
import NFCChips
import Locking
import NFCEmulator
import TestSupport
import Testing
@testable import NFCTags

/// Format → write → read on emulated Classic 1K and 4K cards.
@Suite("Classic NDEF round trips on emulated 1K and 4K cards")
struct ClassicRoundTripTests {
    @Test(
        "a formatted card is read-write and empty, with the NFC sectors' data bytes minus the TLV header",
        arguments: [(Chip.classic1k, 720 - 4), (.classic4k, 3360 - 4)])
    func formattedStatus(chip: Chip, capacity: Int) async throws {
        let transport = ClassicTagTransport(tag: try await ClassicFixtures.formattedTag(chip))
        let driver = try ClassicFixtures.driver(chip, transport)
        #expect(try await driver.queryStatus() == NDEFStatus(availability: .readWrite, capacity: capacity, length: 0))
        #expect(try await driver.readMessage() == NDEFMessage(records: []))
    }

    @Test("the driver factory hands out the Classic driver", arguments: ClassicFixtures.chips)
    func factory(chip: Chip) async throws {
        let transport = ClassicTagTransport(tag: try await ClassicFixtures.formattedTag(chip))
        let driver = try NDEFTagDrivers.driver(for: chip, transport: transport)
        #expect(driver is ClassicNDEFDriver)
        #expect(try await driver.queryStatus().availability == .readWrite)
    }

    @Test(
        "random messages of random sizes read back as written, through fresh drivers", arguments: ClassicFixtures.chips)
    func randomMessages(chip: Chip) async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var rng = SplitMix64(seed: seed)
        let transport = ClassicTagTransport(tag: try await ClassicFixtures.formattedTag(chip))
        let capacity = try await ClassicFixtures.driver(chip, transport).queryStatus().capacity
        for round in 0..<12 {
            let message = Type2Fixtures.randomMessage(maximumSize: capacity, using: &rng)
            let size = try message.encoded().count
            try await ClassicFixtures.driver(chip, transport).writeMessage(message)
            let back = try await ClassicFixtures.driver(chip, transport).readMessage()
            #expect(back == message, "seed \(seed), round \(round), \(size) bytes")
            let status = try await ClassicFixtures.driver(chip, transport).queryStatus()
            #expect(status.length == size, "seed \(seed), round \(round)")
        }
    }

    @Test(
        "the largest message fills the NFC sectors exactly, skipping trailers (and sector 16 on a 4K)",
        arguments: ClassicFixtures.chips)
    func fullCard(chip: Chip) async throws {
        let transport = ClassicTagTransport(tag: try await ClassicFixtures.formattedTag(chip))
        let driver = try ClassicFixtures.driver(chip, transport)
        let capacity = try await driver.queryStatus().capacity
        let message = Type2Fixtures.message(encodedSize: capacity, fill: 0x20)
        try await driver.writeMessage(message)
        #expect(try await ClassicFixtures.driver(chip, transport).readMessage() == message)
        let tag = await transport.tag
        let geometry = try ClassicFixtures.geometry(chip)
        // MAD sectors untouched by the message; trailers intact.
        #expect(tag.block(1)[2...3] == [0x03, 0xE1])
        for sector in 1..<geometry.sectorCount where sector != 16 {
            let trailer = tag.block(try #require(geometry.trailerBlock(ofSector: sector)))
            #expect(Array(trailer[6...9]) == [0x7F, 0x07, 0x88, 0x40], "sector \(sector)")
        }
        await #expect(throws: NDEFTagError.tagSizeTooSmall(needed: capacity + 1, capacity: capacity)) {
            try await driver.writeMessage(Type2Fixtures.message(encodedSize: capacity + 1))
        }
    }

    @Test("rewriting the same message writes nothing; a full write writes every block of it")
    func onlyChangedBlocks() async throws {
        let message = Type2Fixtures.message(encodedSize: 100)
        let transport = ClassicTagTransport(tag: try await ClassicFixtures.tag(.classic1k, holding: message))
        let driver = try ClassicFixtures.driver(.classic1k, transport)
        let writes = Counter()
        await transport.clearLog()
        try await driver.writeMessage(message, options: NDEFWriteOptions()) { writes.set($0.total) }
        #expect(writes.value == 0)
        #expect(await transport.log.allSatisfy { !$0.hasPrefix("A0") })
        try await driver.writeMessage(message, options: NDEFWriteOptions(fullWrite: true)) { writes.set($0.total) }
        // 03 64 + 100 bytes + FE = 103 bytes over 7 blocks, plus the clear and the commit of the length block.
        #expect(writes.value == 9)
        #expect(try await driver.readMessage() == message)
    }

    /// Records the last progress total.
    final class Counter: Sendable {
        private let last = Locked(-1)
        var value: Int { last.withLock { $0 } }
        func set(_ value: Int) { last.withLock { $0 = value } }
    }
}

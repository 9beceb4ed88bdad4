import NDEF
import NFCChips
import NFCEmulator
import TestSupport
import Testing
@testable import NFCTags

/// A status query or a write reads the lock bytes, the CC and the old message (not the whole
/// data area); a write writes pages past the old message blind and reads back only the
/// pages it wrote.
@Suite("Type 2 status and writes read only what they need")
struct Type2WriteSnapshotTests {
    private let writeCode = ChipTables.spec(for: .ntag216).command(.write)!.code
    private let fastReadCode = ChipTables.spec(for: .ntag216).command(.fastRead)!.code

    @Test("a one-page change reads back the two pages it wrote, in two reads")
    func readBackOnlyWrittenPages() async throws {
        let transport = EmulatedTagTransport(tag: try Type2Fixtures.tag(.ntag216))
        let driver = try Type2Fixtures.driver(.ntag216, transport)
        var record = NDEFRecord(
            typeNameFormat: .media, type: Array("text/plain".utf8), payload: Array(repeating: 0x41, count: 200))
        try await driver.writeMessage(NDEFMessage(records: [record]))
        let before = await transport.frames.count
        record.payload[150] = 0x42  // stream offset 2 + 13 + 150 = 165 → address 181 → page 45
        try await driver.writeMessage(NDEFMessage(records: [record]))
        let frames = Array(await transport.frames.dropFirst(before))
        #expect(frames.filter { $0.first == writeCode }.map { $0[1] } == [4, 45, 4])
        // From page 2 to one byte past the message (address 16 + 2 + 213 = 231 → page 57),
        // then the read-back of page 4 and of page 45. The configuration pages were read by
        // the first write on this connection: not again.
        #expect(
            frames.filter { $0.first == fastReadCode } == [
                [fastReadCode, 2, 5], [fastReadCode, 6, 57],
                [fastReadCode, 4, 4], [fastReadCode, 45, 45],
            ])
    }

    @Test("written pages a few apart are read back in one run")
    func runs() {
        #expect(Type2WritePlan.runs(of: [], mergingGapsUpTo: 4) == [])
        #expect(Type2WritePlan.runs(of: [4, 9, 5, 4], mergingGapsUpTo: 4) == [4...9])
        #expect(Type2WritePlan.runs(of: [4, 10], mergingGapsUpTo: 4) == [4...4, 10...10])
        var rng = SplitMix64(seed: 0x2A2A)
        for round in 0..<200 {
            let pages = (0..<Int.random(in: 1...12, using: &rng)).map { _ in Int.random(in: 4...60, using: &rng) }
            let runs = Type2WritePlan.runs(of: pages, mergingGapsUpTo: 4)
            #expect(pages.allSatisfy { page in runs.contains { $0.contains(page) } }, "round \(round): \(pages)")
            for (left, right) in zip(runs, runs.dropFirst()) {
                #expect(right.lowerBound - left.upperBound - 1 > 4, "round \(round): \(runs)")
            }
            #expect(
                runs.allSatisfy { pages.contains($0.lowerBound) && pages.contains($0.upperBound) }, "round \(round)")
        }
    }

    @Test("whatever lies past the old message, the new message reads back", arguments: [Chip.ntag213, .ntag216])
    func garbagePastTheMessage(chip: Chip) async throws {
        var rng = SplitMix64(seed: 0xB11D)
        for round in 0..<25 {
            var tag = try Type2Fixtures.tag(chip)
            let profile = try #require(Type2TagProfile(spec: ChipTables.spec(for: chip), mapping: .standard))
            let emptyTLVPage = chip == .ntag213 ? 5 : 4  // NTAG213 ships a Lock Control TLV first
            // Random bytes (zeros among them) from the page after the empty TLV on.
            for page in (emptyTLVPage + 1)...profile.lastUserPage {
                tag.setPage(
                    page, to: (0..<4).map { _ in Bool.random(using: &rng) ? 0 : UInt8.random(in: 0...255, using: &rng) }
                )
            }
            let transport = EmulatedTagTransport(tag: tag)
            let driver = try Type2Fixtures.driver(chip, transport)
            let capacity = try await driver.queryStatus().capacity
            // Payload bytes that are often zero, like the garbage.
            let size = Int.random(in: 13...min(capacity, 268), using: &rng)
            let message = NDEFMessage(records: [
                NDEFRecord(
                    typeNameFormat: .media, type: Array("text/plain".utf8),
                    payload: (0..<(size - 13)).map { _ in
                        Bool.random(using: &rng) ? 0 : UInt8.random(in: 0...255, using: &rng)
                    })
            ])
            try await driver.writeMessage(message)
            #expect(try await driver.readMessage() == message, "round \(round) on \(chip)")
            let written = try #require(await transport.model(as: Type2Tag.self))
            let fresh = try Type2Fixtures.driver(chip, EmulatedTagTransport(tag: written))
            #expect(try await fresh.readMessage() == message, "round \(round) on \(chip): a new reader disagrees")
        }
    }

    @Test("a page the new message shares with reserved bytes past the old message is read first, and keeps them")
    func reservedBytesPastTheMessage() async throws {
        var tag = try Type2Fixtures.tag(.ntag216)
        // Memory Control TLV reserving bytes 64–65 (page 16), then the empty NDEF TLV.
        tag.setPage(4, to: [0x02, 0x03, 0x40, 0x02])
        tag.setPage(5, to: [0x04, 0x03, 0x00, 0xFE])
        tag.setPage(16, to: [0xAA, 0xBB, 0x11, 0x22])
        let transport = EmulatedTagTransport(tag: tag)
        let driver = try Type2Fixtures.driver(.ntag216, transport)
        let message = Type2Fixtures.message(encodedSize: 80)  // TLV from address 21 to 103: pages 5…25
        try await driver.writeMessage(message)
        #expect(try await driver.readMessage() == message)
        let written = try #require(await transport.model(as: Type2Tag.self))
        #expect(Array(written.page(16).prefix(2)) == [0xAA, 0xBB])
        #expect(await transport.frames(withCode: fastReadCode).contains([fastReadCode, 6, 16]))
    }

    @Test("status reads from the static lock page as far as the message, then the configuration (once a connection)")
    func statusReads() async throws {
        let writer = EmulatedTagTransport(tag: try Type2Fixtures.tag(.ntag216))
        try await Type2Fixtures.driver(.ntag216, writer).writeMessage(Type2Fixtures.message(encodedSize: 20))
        let transport = EmulatedTagTransport(tag: try #require(await writer.model(as: Type2Tag.self)))
        let driver = try Type2Fixtures.driver(.ntag216, transport)
        let status = try await driver.queryStatus()
        #expect(status == NDEFStatus(availability: .readWrite, capacity: 868, length: 20))
        // 16 + 2 + 20 = 38, one byte more: pages 2…5, then 6…9; no data page after.
        #expect(
            await transport.frames == [
                [fastReadCode, 2, 5], [fastReadCode, 6, 9], [fastReadCode, 0xE2, 0xE4],
            ])
        // The same connection again: the configuration pages as it read them.
        let before = await transport.frames.count
        #expect(try await driver.queryStatus() == status)
        #expect(Array(await transport.frames.dropFirst(before)) == [[fastReadCode, 2, 5], [fastReadCode, 6, 9]])
    }

    @Test(
        "the configuration read once a connection: a lock reads it afresh and again after it; forgetting it reads it again"
    )
    func configurationOnceAConnection() async throws {
        let transport = EmulatedTagTransport(tag: try Type2Fixtures.tag(.ntag216))
        let driver = try #require(try Type2Fixtures.driver(.ntag216, transport) as? Type2NDEFDriver)
        try await driver.writeMessage(Type2Fixtures.message(encodedSize: 20))
        let configuration: [UInt8] = [fastReadCode, 0xE2, 0xE4]
        #expect(await transport.frames(withCode: fastReadCode).filter { $0 == configuration }.count == 1)
        await driver.forgetConfiguration()
        _ = try await driver.queryStatus()
        #expect(await transport.frames(withCode: fastReadCode).filter { $0 == configuration }.count == 2)
        _ = try await driver.readMessage()
        try await driver.makeReadOnly(force: false)
        #expect(await transport.frames(withCode: fastReadCode).filter { $0 == configuration }.count == 3)
        // The lock set dynamic lock bits: the status reads them, and reports read-only.
        #expect(try await driver.queryStatus().availability == .readOnly)
        #expect(await transport.frames(withCode: fastReadCode).filter { $0 == configuration }.count == 4)
    }

    @Test(
        "PROT behind the message, the configuration hidden: a write reaching AUTH0 is refused before any page is written"
    )
    func writeIntoHiddenProtection() async throws {
        let (tag, old) = try await Type2Fixtures.readProtectedTag(.ntag216, from: 0x10)
        let transport = EmulatedTagTransport(tag: tag)
        let driver = try Type2Fixtures.driver(.ntag216, transport)
        // 80 bytes: TLV 16…97 and the Terminator at 98 → last page 24, protected.
        await #expect(throws: NDEFTagError.authenticationRequired(step: .readData(page: 24))) {
            try await driver.writeMessage(Type2Fixtures.message(encodedSize: 80))
        }
        #expect(await transport.frames(withCode: writeCode).isEmpty)
        #expect(try await driver.readMessage() == old)
    }

    @Test("PROT behind the message, the configuration hidden: a write that stays below AUTH0 is written")
    func writeBelowHiddenProtection() async throws {
        let (tag, _) = try await Type2Fixtures.readProtectedTag(.ntag216, from: 0x10)
        let transport = EmulatedTagTransport(tag: tag)
        let driver = try Type2Fixtures.driver(.ntag216, transport)
        let message = Type2Fixtures.message(encodedSize: 30)  // TLV 16…47, Terminator 48: page 12
        try await driver.writeMessage(message)
        #expect(try await driver.readMessage() == message)
        #expect(try await driver.queryStatus().availability == .readOnly, "the rest of the area is protected")
    }
}

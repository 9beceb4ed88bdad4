import NDEF
import NFCChips
import NFCEmulator
import Locking
import Testing
@testable import NFCTags

@Suite("Type 2 writes send only the pages that change")
struct Type2WriteEfficiencyTests {
    private let writeCode = ChipTables.spec(for: .ntag215).command(.write)!.code
    private let fastReadCode = ChipTables.spec(for: .ntag215).command(.fastRead)!.code

    @Test("changing one payload byte writes the clear, that page and the commit")
    func onePageChanges() async throws {
        let transport = EmulatedTagTransport(tag: try Type2Fixtures.tag(.ntag215))
        let driver = try Type2Fixtures.driver(.ntag215, transport)
        var record = NDEFRecord(
            typeNameFormat: .media, type: Array("text/plain".utf8), payload: Array(repeating: 0x41, count: 100))
        try await driver.writeMessage(NDEFMessage(records: [record]))
        let before = await transport.frames(withCode: writeCode).count
        record.payload[80] = 0x42
        try await driver.writeMessage(NDEFMessage(records: [record]))
        let writes = Array(await transport.frames(withCode: writeCode).dropFirst(before))
        // Byte 80 of the payload is at stream offset 2 + 13 + 80 = 95 → address 111 → page 27.
        #expect(writes.map { $0[1] } == [4, 27, 4])
        #expect(writes.first?[2...5] == [0x03, 0x00, 0xD2, 0x0A])
    }

    @Test("writing the same message again writes nothing (what it just read is the check)")
    func sameMessage() async throws {
        let transport = EmulatedTagTransport(tag: try Type2Fixtures.tag(.ntag213))
        let driver = try Type2Fixtures.driver(.ntag213, transport)
        let message = Type2Fixtures.message(encodedSize: 60)
        try await driver.writeMessage(message)
        let before = await transport.frames.count
        try await driver.writeMessage(message)
        let frames = Array(await transport.frames.dropFirst(before))
        #expect(!frames.contains { $0.first == writeCode })
        // Lock bytes and CC, the message; the configuration pages were read by the first write
        // on this connection and only this driver's lock changes them.
        #expect(frames.filter { $0.first == fastReadCode }.count == 2)
    }

    @Test(
        "fullWrite writes every page of the TLV even when nothing changes (the length page three times: clear, body, length)"
    )
    func fullWrite() async throws {
        let transport = EmulatedTagTransport(tag: try Type2Fixtures.tag(.ntag215))
        let driver = try Type2Fixtures.driver(.ntag215, transport)
        let message = Type2Fixtures.message(encodedSize: 30)  // TLV: 2 + 30 + 1 = 33 bytes → pages 4…12
        try await driver.writeMessage(message)
        let before = await transport.frames(withCode: writeCode).count
        try await driver.writeMessage(message, options: NDEFWriteOptions(fullWrite: true)) { _ in }
        let writes = Array(await transport.frames(withCode: writeCode).dropFirst(before)).map { Int($0[1]) }
        #expect(writes == [4] + Array(4...12) + [4])
    }

    @Test("the length commit changes the length byte alone: message bytes in the length page go first, with length 0")
    func commitIsTheLengthAlone() async throws {
        let transport = EmulatedTagTransport(tag: try Type2Fixtures.tag(.ntag215))
        let driver = try Type2Fixtures.driver(.ntag215, transport)
        try await driver.writeMessage(NDEFMessage(records: [NDEFURIRecord(uri: "https://example.com/old").record]))
        let before = await transport.frames(withCode: writeCode).count
        try await driver.writeMessage(Type2Fixtures.message(encodedSize: 40))  // D2 0A … where D1 01 … was
        let writes = Array(await transport.frames(withCode: writeCode).dropFirst(before))
        let pages = writes.map { Int($0[1]) }
        #expect(pages.first == 4 && pages.dropFirst().first == 4 && pages.last == 4, "\(pages)")
        #expect(writes.first?[2...5] == [0x03, 0x00, 0xD1, 0x01])  // clear: only the length changes
        #expect(writes.dropFirst().first?[2...5] == [0x03, 0x00, 0xD2, 0x0A])  // body: the message start, length 0
        #expect(writes.last?[2...5] == [0x03, 40, 0xD2, 0x0A])  // commit: only the length changes
    }

    @Test("progress counts every acknowledged write up to the total")
    func progress() async throws {
        let transport = EmulatedTagTransport(tag: try Type2Fixtures.tag(.ntag213))
        let driver = try Type2Fixtures.driver(.ntag213, transport)
        let log = ProgressLog()
        try await driver.writeMessage(Type2Fixtures.message(encodedSize: 50), options: .init()) { log.append($0) }
        let reports = log.reports
        let total = try #require(reports.last?.total)
        #expect(reports.map(\.written) == Array(0...total))
        #expect(total == (await transport.frames(withCode: writeCode)).count)
    }

    @Test("FAST_READ is split to the reader's frame size")
    func fastReadSplit() async throws {
        let transport = EmulatedTagTransport(tag: try Type2Fixtures.tag(.ntag216), maximumFrameLength: 64)
        let driver = try Type2Fixtures.driver(.ntag216, transport)
        let message = Type2Fixtures.message(encodedSize: 800)
        try await driver.writeMessage(message)
        let before = await transport.frames(withCode: fastReadCode).count
        #expect(try await driver.readMessage() == message)
        let ranges = await transport.frames(withCode: fastReadCode).map { Int($0[2]) - Int($0[1]) + 1 }
        #expect(ranges.allSatisfy { $0 <= 16 })
        // From the CC page (3) to the TLV's last byte (16 + 4 + 800 - 1 = 819, page 204).
        #expect(ranges.dropFirst(before).reduce(0, +) == 202)
    }
}

/// Collects progress reports from a `@Sendable` closure.
final class ProgressLog: Sendable {
    private let storage = Locked<[NDEFWriteProgress]>([])
    func append(_ progress: NDEFWriteProgress) { storage.withLock { $0.append(progress) } }
    var reports: [NDEFWriteProgress] { storage.withLock { $0 } }
}

import NDEF
import NFCChips
import TestSupport
import Testing
@testable import NFCTags

@Suite("Type 4 NDEF: application, CC file, NLEN / ENLEN, tear-safe UPDATE BINARY")
struct Type4NDEFDriverTests {
    let v2Select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]
    let v1Select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00, 0x00]
    let ok: [UInt8] = [0x90, 0x00]
    let cc: [UInt8] = [0x00, 0x0F, 0x20, 0x00, 0x3B, 0x00, 0x34, 0x04, 0x06, 0xE1, 0x04, 0x02, 0x00, 0x00, 0x00]

    func driver(_ transport: any TagTransport) throws -> any NDEFTagDriver {
        try NDEFTagDrivers.driver(for: .type4, transport: transport)
    }

    @Test("status transcript: SELECT app, SELECT CC, READ BINARY CC, SELECT NDEF, READ NLEN")
    func statusTranscript() async throws {
        let transport = TranscriptTransport([
            .send(v2Select, .standard, answer: .bytes(ok)),
            .send([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03], .standard, answer: .bytes(ok)),
            .send([0x00, 0xB0, 0x00, 0x00, 0x0F], .standard, answer: .bytes(cc + ok)),
            .send([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04], .standard, answer: .bytes(ok)),
            .send([0x00, 0xB0, 0x00, 0x00, 0x02], .standard, answer: .bytes([0x00, 0x03] + ok)),
        ])
        #expect(
            try await driver(transport).queryStatus() == NDEFStatus(availability: .readWrite, capacity: 510, length: 3))
        #expect(await transport.mismatches.isEmpty)
        #expect(await transport.remaining == 0)
    }

    @Test("write transcript: NLEN 0, body, NLEN, read-back")
    func writeTranscript() async throws {
        let message = NDEFMessage(records: [.wellKnown("U", payload: [0x04] + Array("a.b".utf8))])
        let body: [UInt8] = [0xD1, 0x01, 0x04, 0x55, 0x04, 0x61, 0x2E, 0x62]
        let open: [TranscriptStep] = [
            .send(v2Select, .standard, answer: .bytes(ok)),
            .send([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03], .standard, answer: .bytes(ok)),
            .send([0x00, 0xB0, 0x00, 0x00, 0x0F], .standard, answer: .bytes(cc + ok)),
            .send([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04], .standard, answer: .bytes(ok)),
            .send([0x00, 0xB0, 0x00, 0x00, 0x02], .standard, answer: .bytes([0x00, 0x03] + ok)),
            .send([0x00, 0xB0, 0x00, 0x02, 0x03], .standard, answer: .bytes([0xD0, 0x00, 0x00] + ok)),
        ]
        let transport = TranscriptTransport(
            open + [
                .send([0x00, 0xD6, 0x00, 0x00, 0x02, 0x00, 0x00], .standard, answer: .bytes(ok)),
                .send([0x00, 0xD6, 0x00, 0x02, 0x08] + body, .standard, answer: .bytes(ok)),
                .send([0x00, 0xD6, 0x00, 0x00, 0x02, 0x00, 0x08], .standard, answer: .bytes(ok)),
                .send([0x00, 0xB0, 0x00, 0x00, 0x0A], .standard, answer: .bytes([0x00, 0x08] + body + ok)),
            ])
        try await driver(transport).writeMessage(message)
        #expect(await transport.mismatches.isEmpty)
        #expect(await transport.remaining == 0)
    }

    @Test("mapping 1.0 tags: the v2 AID is not found, the v1 AID is selected and files use P2 00")
    func versionOneFallback() async throws {
        var tag = MiniType4Tag()
        tag.aid = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00]
        let transport = EmulatedTagTransport(tag: tag)
        let driver = try driver(transport)
        #expect(try await driver.queryStatus().availability == .readWrite)
        let frames = await transport.frames
        #expect(frames.prefix(2) == [v2Select, v1Select])
        #expect(frames[2] == [0x00, 0xA4, 0x00, 0x00, 0x02, 0xE1, 0x03])
    }

    @Test("no NDEF application: not supported")
    func noApplication() async throws {
        var tag = MiniType4Tag()
        tag.aid = [0xA0, 0x00]
        let transport = EmulatedTagTransport(tag: tag)
        #expect(
            try await driver(transport).queryStatus() == NDEFStatus(availability: .notSupported, capacity: 0, length: 0)
        )
    }

    @Test("write access FF: read-only, writes refused before any UPDATE BINARY; lock reports it done")
    func readOnly() async throws {
        let transport = EmulatedTagTransport(tag: MiniType4Tag(writeAccess: 0xFF))
        let driver = try driver(transport)
        #expect(try await driver.queryStatus().availability == .readOnly)
        await #expect(throws: NDEFTagError.tagNotWritable) {
            try await driver.writeMessage(Type2Fixtures.message(encodedSize: 20))
        }
        #expect(await transport.frames.allSatisfy { $0[1] != 0xD6 })
        try await driver.makeReadOnly(force: true)
    }

    @Test("a writable Type 4 tag cannot be locked through the standard mapping")
    func lockUnsupported() async throws {
        let driver = try driver(EmulatedTagTransport(tag: MiniType4Tag()))
        await #expect(throws: NDEFTagError.notVerified) { try await driver.makeReadOnly(force: false) }
        _ = try await driver.readMessage()
        await #expect(throws: NDEFTagError.self) { try await driver.makeReadOnly(force: false) }
    }

    @Test("too large a message is refused before anything is written")
    func tooLarge() async throws {
        let transport = EmulatedTagTransport(tag: MiniType4Tag(size: 64))
        await #expect(throws: NDEFTagError.tagSizeTooSmall(needed: 63, capacity: 62)) {
            try await driver(transport).writeMessage(Type2Fixtures.message(encodedSize: 63))
        }
        #expect(await transport.frames.allSatisfy { $0[1] != 0xD6 })
    }

    @Test("random messages round-trip, short NLEN and extended ENLEN files, small MLe / MLc", arguments: [false, true])
    func roundTrips(extended: Bool) async throws {
        var rng = SplitMix64(seed: extended ? 0x7404 : 0x7402)
        let transport = EmulatedTagTransport(tag: MiniType4Tag(size: 1_000, mle: 0x20, mlc: 0x18, extended: extended))
        let driver = try driver(transport)
        let capacity = try await driver.queryStatus().capacity
        #expect(capacity == (extended ? 996 : 998))
        for round in 0..<20 {
            let message = Type2Fixtures.randomMessage(maximumSize: capacity, using: &rng)
            try await driver.writeMessage(message)
            #expect(try await driver.readMessage() == message, "round \(round)")
        }
        try await driver.format(force: true)
        #expect(try await driver.readMessage().records.isEmpty)
    }

    @Test("only the chunks that change are written")
    func changedChunksOnly() async throws {
        let transport = EmulatedTagTransport(tag: MiniType4Tag(mlc: 0x10))
        let driver = try driver(transport)
        var record = NDEFRecord(
            typeNameFormat: .media, type: Array("text/plain".utf8), payload: Array(repeating: 0x41, count: 100))
        try await driver.writeMessage(NDEFMessage(records: [record]))
        let before = await transport.frames.count
        record.payload[50] = 0x42
        try await driver.writeMessage(NDEFMessage(records: [record]))
        let updates = Array(await transport.frames.dropFirst(before)).filter { $0[1] == 0xD6 }
        // NLEN 0, the 16-byte chunk holding body byte 63 (offset 2 + 48), NLEN.
        #expect(updates.map { Int($0[2]) << 8 | Int($0[3]) } == [0, 50, 0])
    }

    @Test(
        "tear matrix: every cut point reads as old, new or empty, and the error agrees",
        arguments: TagCutMode.allCases)
    func tearMatrix(mode: TagCutMode) async throws {
        for (oldSize, newSize) in [(20, 300), (300, 40), (0, 100)] {
            let old = Type2TearMatrixTests.message(size: oldSize, fill: 0x10)
            let new = Type2TearMatrixTests.message(size: newSize, fill: 0x80)
            let setup = EmulatedTagTransport(tag: MiniType4Tag(mle: 0x40, mlc: 0x30))
            try await driver(setup).writeMessage(old)
            let prepared = try #require(await setup.model(as: MiniType4Tag.self))
            let probe = EmulatedTagTransport(tag: prepared)
            try await driver(probe).writeMessage(new)
            let frameCount = await probe.frames.count
            for k in 0...frameCount {
                let transport = EmulatedTagTransport(tag: prepared)
                await transport.cut(after: k, mode: mode)
                var reported: NDEFTagContentState?
                do { try await driver(transport).writeMessage(new) } catch {
                    reported = Type2TearMatrixTests.state(of: error)
                }
                await transport.bringBack()
                let message = try? await driver(transport).readMessage()
                let reading: Type2TearMatrixTests.Reading =
                    message == nil
                    ? .other("unreadable")
                    : message!.records.isEmpty
                        ? .empty : message == old ? .old : message == new ? .new : .other("different")
                let oldReading: Type2TearMatrixTests.Reading = oldSize == 0 ? .empty : .old
                let context = "\(mode) \(oldSize)→\(newSize) cut after \(k) of \(frameCount)"
                #expect([oldReading, .new, .empty].contains(reading), "\(context): \(reading)")
                if let reported {
                    #expect(
                        Type2TearMatrixTests.agrees(reported, with: reading, old: oldReading),
                        "\(context): said \(reported), reads \(reading)")
                }
            }
        }
    }
}

import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Locking
import Testing
import TestSupport

/// One user of the tag at a time: an NDEF session polling (and reading / writing) on the
/// same device as a tag session that runs multi-command operations. Without the device's
/// gate a poll resets the field between two commands of a dump (a Classic sector loses its
/// authentication, a Type 2 tag drops out of ACTIVE) and the dump fails.
@Suite("One user of the tag at a time on a device", .tags(.reader), .serialized, .timeLimit(.minutes(3)))
struct TagAccessGateTests {
    @Test(
        "a Classic dump (authenticate, then four reads per sector) stays whole while an NDEF session polls every 50 ms")
    func classicDumpWhilePolling() async throws {
        let uid: [UInt8] = [0x3E, 0xE0, 0x5A, 0x11]
        let harness = try await SessionHarness.start(tags: [try ClassicTag(chip: .classic1k, uid: uid)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            let (start, _) = try await harness.log.detected(count: 1)
            let tagSession = try await TagSession.connect(on: harness.device, timeout: .seconds(5)).miFareClassicTag()
            let emulated = try #require(harness.emulator.tags.first as? ClassicTag)
            for round in 0..<3 {
                let dump = try await tagSession.dump()
                let blocks = try #require(dump.blocks)
                for block in blocks.indices
                where ChipTables.spec(for: .classic1k).classicGeometry?.isTrailer(block: block) == false {
                    #expect(blocks[block] == emulated.block(block), "round \(round), block \(block)")
                }
            }
            // The NDEF session kept polling between the dumps and still sees the one tag,
            // with no loss reported in between.
            #expect(await harness.session.detectedTags.map(\.uid) == [uid])
            #expect(
                !harness.log.all[start...].contains {
                    if case .tagsDetected(let tags) = $0 { tags.isEmpty } else { false }
                })
            await harness.stop()
        }
    }

    @Test(
        "an NDEF session writing and reading while a tag session dumps the same NTAG215: every message and every dump is whole"
    )
    func ndefWritesWhileDumping() async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: .ntag215, uid: SessionUID.first)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            let ndefTag = try await harness.connectToOnlyTag()
            let tagSession = try await TagSession.connect(on: harness.device, timeout: .seconds(5)).type2Tag()
            let messages = [SessionMessages.old, SessionMessages.new, try SessionMessages.sized(200)]
            let encoded = try messages.map { try $0.encoded() }
            let ndefBytes = Locked<[[UInt8]]>([])

            try await ndefTag.writeNDEF(messages[0])
            async let writer: Void = {
                for index in 1..<10 {
                    let message = messages[index % messages.count]
                    try await ndefTag.writeNDEF(message)
                    #expect(try await ndefTag.readNDEF() == message)
                }
            }()
            async let dumper: Int = {
                var dumps = 0
                for _ in 0..<9 {
                    let dump = try await tagSession.dump()
                    let pages = try #require(dump.pages)
                    // The NDEF TLV in the dump is one of the messages, whole (the dump never
                    // sees a write half done, nor a page read across a poll).
                    let data = pages[4...].flatMap { $0 }
                    #expect(data.first == ChipTables.type2.tlvs[.ndef].type)
                    let length = Int(data[1])
                    let body = Array(data[2..<(2 + min(length, data.count - 2))])
                    ndefBytes.withLock { $0.append(body) }
                    dumps += 1
                }
                return dumps
            }()
            try await writer
            #expect(try await dumper == 9)
            for body in ndefBytes.withLock({ $0 }) {
                #expect(encoded.contains(body), "a dump caught a torn message: \(body.count) bytes")
            }
            await harness.stop()
        }
    }

    @Test("withExclusiveTagAccess keeps polls out of a raw Classic authenticate-then-read sequence")
    func exclusiveBlock() async throws {
        let uid: [UInt8] = [0x3E, 0xE0, 0x5A, 0x11]
        let harness = try await SessionHarness.start(tags: [try ClassicTag(chip: .classic1k, uid: uid)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            _ = try await harness.log.detected(count: 1)
            let device = harness.device
            let spec = ChipTables.spec(for: .classic1k)
            let authenticate = try #require(spec.command(.authenticateKeyA)).code
            let read = try #require(spec.command(.read)).code
            let key = ChipTables.classic.keys[.factoryDefault].key
            let emulated = try #require(harness.emulator.tags.first as? ClassicTag)
            for sector in 0..<16 {
                let blocks = try await device.withExclusiveTagAccess(busy: { $0 }) { () async throws -> [[UInt8]] in
                    guard try await device.selectTarget(uid: uid) != nil else { return [] }
                    _ = try await device.transceive([authenticate, UInt8(sector * 4 + 3)] + key + uid)
                    // Leave room for a poll (every 50 ms) to slip in, were the gate not held.
                    try await Task.sleep(for: .milliseconds(30))
                    var blocks: [[UInt8]] = []
                    for block in (sector * 4)..<(sector * 4 + 3) {
                        blocks.append(try await device.transceive([read, UInt8(block)]).bytes)
                    }
                    return blocks
                }
                #expect(blocks == (0..<3).map { emulated.block(sector * 4 + $0) }, "sector \(sector)")
            }
            await harness.stop()
        }
    }
}

import Foundation
import NFCChips
import Testing
import TestSupport

@testable import NFCEmulator

/// The emulated FeliCa Lite-S, frame by frame (LEN first, as a PN532 host sends them), and
/// through libnfc's own `nfc-list`, which must show it as a real card.
@Suite("Emulated FeliCa Lite-S")
struct FeliCaLiteSTagTests {
    static let idm: [UInt8] = [0x01, 0x2E, 0x5A, 0x11, 0x22, 0x33, 0x44, 0x55]
    static let pmm: [UInt8] = ChipTables.felica.liteS.pmm

    static func frame(_ code: UInt8, _ body: [UInt8]) -> [UInt8] { [UInt8(body.count + 2), code] + body }

    static func bytes(_ answer: TagAnswer) -> [UInt8]? {
        if case .bytes(let bytes) = answer.reply { return bytes }
        return nil
    }

    /// Read Without Encryption of `blocks` (2-byte elements) over `service`.
    static func read(_ blocks: [UInt8], service: UInt16 = 0x000B) -> [UInt8] {
        frame(
            0x06,
            idm + [1, UInt8(service & 0xFF), UInt8(service >> 8), UInt8(blocks.count)] + blocks.flatMap { [0x80, $0] })
    }

    static func write(_ block: UInt8, _ data: [UInt8], service: UInt16 = 0x0009) -> [UInt8] {
        frame(0x08, idm + [1, UInt8(service & 0xFF), UInt8(service >> 8), 1, 0x80, block] + data)
    }

    @Test("Polling: IDm and PMm; with RC 01 the system code — 88B4 for FFFF, 12FC when asked for it")
    func polling() throws {
        var tag = FeliCaLiteSTag(idm: Self.idm, ndef: true)
        let plain = try #require(Self.bytes(tag.receive(Self.frame(0x00, [0xFF, 0xFF, 0x00, 0x00]))))
        #expect(plain == [0x12, 0x01] + Self.idm + Self.pmm)
        let withCode = try #require(Self.bytes(tag.receive(Self.frame(0x00, [0xFF, 0xFF, 0x01, 0x00]))))
        #expect(withCode == [0x14, 0x01] + Self.idm + Self.pmm + [0x88, 0xB4])
        let ndef = try #require(Self.bytes(tag.receive(Self.frame(0x00, [0x12, 0xFC, 0x01, 0x00]))))
        #expect(Array(ndef.suffix(2)) == [0x12, 0xFC])
        // A system the card does not have: no answer.
        #expect(tag.receive(Self.frame(0x00, [0x00, 0x03, 0x01, 0x00])).reply == .silence)
        // Without NDEF the card does not answer 12FC.
        var blank = FeliCaLiteSTag(idm: Self.idm)
        #expect(blank.receive(Self.frame(0x00, [0x12, 0xFC, 0x01, 0x00])).reply == .silence)
    }

    @Test("Write then Read Without Encryption: the block comes back, WCNT counts, D_ID holds IDm and PMm")
    func writeAndRead() throws {
        var tag = FeliCaLiteSTag(idm: Self.idm)
        let data = (0..<16).map { UInt8($0 * 3) }
        let written = try #require(Self.bytes(tag.receive(Self.write(0x05, data))))
        #expect(written == [0x0C, 0x09] + Self.idm + [0x00, 0x00])
        let read = try #require(Self.bytes(tag.receive(Self.read([0x05, 0x83, 0x90]))))
        #expect(read.count == 13 + 48)
        #expect(Array(read[1..<10]) == [0x07] + Self.idm)
        #expect(Array(read[10..<13]) == [0x00, 0x00, 0x03])
        #expect(Array(read[13..<29]) == data)
        #expect(Array(read[29..<45]) == Self.idm + Self.pmm)
        #expect(Array(read[45..<48]) == [0x01, 0x00, 0x00])
    }

    @Test("errors carry their status flags: service, block number, block count, the MAC block, a read-only service")
    func statusFlags() throws {
        var tag = FeliCaLiteSTag(idm: Self.idm)
        func flags(_ frame: [UInt8]) -> [UInt8]? { Self.bytes(tag.receive(frame)).map { Array($0[10..<12]) } }
        #expect(flags(Self.read([0x00], service: 0x1234)) == [0x01, 0xA6])
        #expect(flags(Self.read([0x00, 0x20])) == [0x02, 0xA8])  // the second element: no block 20
        #expect(flags(Self.read([0x00, 0x01, 0x02, 0x03, 0x04])) == [0xFF, 0xA2])  // five blocks
        #expect(flags(Self.read([0x81])) == [0x01, 0xB1])  // MAC: only with a MAC read
        #expect(flags(Self.read([0x87])) == [0x01, 0xA8])  // CK is write-only
        #expect(flags(Self.write(0x01, [UInt8](repeating: 1, count: 16), service: 0x000B)) == [0x01, 0xA6])
        #expect(flags(Self.write(0x82, [UInt8](repeating: 1, count: 16))) == [0x01, 0xA8])  // ID is read-only
    }

    @Test("a frame for another IDm, with a wrong LEN, or a command the Lite-S lacks gets no answer")
    func silence() {
        var tag = FeliCaLiteSTag(idm: Self.idm)
        var other = Self.read([0x00])
        other[2] ^= 0xFF
        #expect(tag.receive(other).reply == .silence)
        var badLength = Self.read([0x00])
        badLength[0] += 1
        #expect(tag.receive(badLength).reply == .silence)
        #expect(tag.receive(Self.frame(0x04, Self.idm)).reply == .silence)  // Request Response
    }

    @Test("MC: a user block whose bit is clear refuses writes")
    func readOnlyBlock() throws {
        var tag = FeliCaLiteSTag(idm: Self.idm)
        var mc = ChipTables.felica.liteS.mcFactory
        mc[0] &= ~0x04  // block 2 read-only
        #expect(Self.bytes(tag.receive(Self.write(0x88, mc))).map { Array($0[10..<12]) } == [0x00, 0x00])
        let refused = try #require(Self.bytes(tag.receive(Self.write(0x02, [UInt8](repeating: 7, count: 16)))))
        #expect(Array(refused[10..<12]) == [0x01, 0xA8])
    }

    @Test(
        "nfc-list, unmodified, lists the card at 212 and 424 kbit/s with its IDm, PMm and system code",
        .enabled(if: LibNFCTool.isInstalled("nfc-list"), "libnfc-bin is not installed (scripts/setup installs it)"))
    func nfcList() throws {
        let emulator = try PN532Emulator(tags: [FeliCaLiteSTag(idm: Self.idm, ndef: true)])
        try emulator.start()
        defer { emulator.stop() }
        let result = try LibNFCTool.run("nfc-list", [], device: emulator.connectionString)
        #expect(!result.timedOut, "nfc-list hung:\n\(result.output)")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("1 Felica (212 kbps) passive target(s) found"), "\(result.output)")
        #expect(result.output.contains("1 Felica (424 kbps) passive target(s) found"), "\(result.output)")
        #expect(result.output.contains("ID (NFCID2): 01  2e  5a  11  22  33  44  55"), "\(result.output)")
        #expect(result.output.contains("Parameter (PAD): 00  f1  00  00  00  01  43  00"), "\(result.output)")
        #expect(result.output.contains("System Code (SC): 88  b4"), "\(result.output)")
        #expect(!result.output.contains("ISO14443A passive target"), "\(result.output)")
    }

    @Test(
        "nfc-read-forum-tag3, unmodified, reads the NDEF message from the emulated Lite-S (re-polling for 12FC)",
        .enabled(if: LibNFCTool.isInstalled("nfc-read-forum-tag3"), "libnfc-bin is not installed"))
    func readForumTag3() throws {
        // At most four blocks, what one read of Nbr blocks carries: a longer message meets the
        // tool's chunk-loop bug (it reads only the first Nbr blocks).
        let uri = Array("example.com/felica-lite-s-read-by-nfc-read-forum-tag3".utf8)
        let message: [UInt8] = [0xD1, 0x01, UInt8(1 + uri.count), 0x55, 0x04] + uri
        #expect(message.count <= 64)
        var tag = FeliCaLiteSTag(idm: Self.idm, ndef: true)
        let stored = tag.setNDEFMessage(message)
        #expect(stored)
        let emulator = try PN532Emulator(tags: [tag])
        try emulator.start()
        defer { emulator.stop() }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("felica-\(UUID()).ndef")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try LibNFCTool.run("nfc-read-forum-tag3", ["-o", output.path], device: emulator.connectionString)
        #expect(!result.timedOut, "nfc-read-forum-tag3 hung:\n\(result.output)")
        #expect(result.status == 0, "\(result.output)")
        let read = try [UInt8](Data(contentsOf: output))
        #expect(read == message, "\(result.output)")
    }

    @Test("a snapshot (--state) keeps every block, and a block of the wrong size is refused")
    func snapshot() throws {
        var tag = FeliCaLiteSTag(idm: Self.idm, ndef: true)
        tag.setNDEFMessage([0xD0, 0x00, 0x00])
        _ = tag.receive(Self.write(0x0A, [UInt8](repeating: 0x5A, count: 16)))
        let snapshot = try #require(TagSnapshot(of: tag))
        let decoded = try JSONDecoder().decode(TagSnapshot.self, from: JSONEncoder().encode(snapshot))
        let rebuilt = try #require(try decoded.makeTag() as? FeliCaLiteSTag)
        #expect(rebuilt.blocks == tag.blocks)
        #expect(rebuilt.identity == tag.identity)
        var broken = decoded
        broken.blocks?["0a"] = "00"
        #expect(throws: EmulatorSetupError.self) { try broken.makeTag() }
    }

    @Test("timing: a one-block write waits the 6.04 ms the Lite-S's PMm gives, a read 0.91 ms, at 212 kbit/s")
    func timing() throws {
        var controller = PN532Controller(field: Field(tags: [FeliCaLiteSTag(idm: Self.idm, ndef: true)]))
        let pmm = Self.pmm
        let write = Self.write(0x01, [UInt8](repeating: 1, count: 16))
        let read = Self.read([0x01])
        #expect(controller.feliCaResponseTime(write, pmm: pmm) == .microseconds(6042))
        #expect(controller.feliCaResponseTime(read, pmm: pmm) == .microseconds(906))
        #expect(
            controller.feliCaResponseTime(Self.frame(0x00, [0xFF, 0xFF, 0x01, 0x00]), pmm: pmm) == .microseconds(2417))
        // The whole exchange: 8 bytes of framing on each frame at 212 kbit/s, and the wait.
        let air = controller.feliCaAirTime(request: write.count, answer: 12, bitRate: 212, wait: .microseconds(6042))
        let frames = Double((write.count + 10) * 8 + (12 + 10) * 8) / 212_000
        #expect(abs((air - .microseconds(6042)) / .seconds(1) - frames) < 1e-6)
        _ = controller.listFeliCa([0x00, 0xFF, 0xFF, 0x01, 0x00], bitRate: 212)
        #expect(controller.targets.count == 1)
    }
}

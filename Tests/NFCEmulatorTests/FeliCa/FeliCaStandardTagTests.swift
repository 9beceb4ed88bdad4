import Foundation
import NFCChips
import Testing
import TestSupport

@testable import NFCEmulator

/// The emulated FeliCa Standard, frame by frame, and through libnfc's own tools.
@Suite("Emulated FeliCa Standard")
struct FeliCaStandardTagTests {
    static let idm: [UInt8] = [0x01, 0x2E, 0x5A, 0x11, 0x22, 0x33, 0x44, 0x55]
    /// The NDEF system's IDm: system 1 in the high nibble of the first byte.
    static let ndefIDm: [UInt8] = [0x11] + idm.dropFirst()
    static let pmm = FeliCaStandardTag.pmm

    static func frame(_ code: UInt8, _ body: [UInt8]) -> [UInt8] { [UInt8(body.count + 2), code] + body }

    static func bytes(_ answer: TagAnswer) -> [UInt8]? {
        if case .bytes(let bytes) = answer.reply { return bytes }
        return nil
    }

    static func le(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    /// A block list over `services`: elements (service index, block) in two bytes.
    static func list(_ services: [UInt16], _ blocks: [(Int, UInt8)]) -> [UInt8] {
        [UInt8(services.count)] + services.flatMap(le) + [UInt8(blocks.count)]
            + blocks.flatMap { [0x80 | UInt8($0.0), $0.1] }
    }

    @Test("Polling: each system answers with its own IDm; FFFF finds the plain system, 12FC the NDEF one")
    func polling() throws {
        var card = FeliCaStandardTag(idm: Self.idm)
        let any = try #require(Self.bytes(card.receive(Self.frame(0x00, [0xFF, 0xFF, 0x01, 0x00]))))
        #expect(any == [0x14, 0x01] + Self.idm + Self.pmm + [0x80, 0x08])
        let ndef = try #require(Self.bytes(card.receive(Self.frame(0x00, [0x12, 0xFC, 0x01, 0x00]))))
        #expect(ndef == [0x14, 0x01] + Self.ndefIDm + Self.pmm + [0x12, 0xFC])
        #expect(card.receive(Self.frame(0x00, [0x88, 0xB4, 0x01, 0x00])).reply == .silence)
    }

    @Test("Request System Code, Request Response, Request Service and Search Service Code")
    func requests() throws {
        var card = FeliCaStandardTag(idm: Self.idm)
        let codes = try #require(Self.bytes(card.receive(Self.frame(0x0C, Self.idm))))
        #expect(codes == [0x0F, 0x0D] + Self.idm + [2, 0x80, 0x08, 0x12, 0xFC])
        #expect(Self.bytes(card.receive(Self.frame(0x04, Self.ndefIDm))) == [0x0B, 0x05] + Self.ndefIDm + [0x00])
        let service = try #require(
            Self.bytes(
                card.receive(Self.frame(0x02, Self.idm + [3] + Self.le(0x0000) + Self.le(0x1009) + Self.le(0x000B)))))
        #expect(Array(service.dropFirst(10)) == [3, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF])
        var nodes: [[UInt8]] = []
        for index: UInt16 in 0..<5 {
            nodes.append(
                Array(try #require(Self.bytes(card.receive(Self.frame(0x0A, Self.idm + Self.le(index))))).dropFirst(10))
            )
        }
        #expect(nodes == [[0x00, 0x00, 0xFE, 0xFF], Self.le(0x1009), Self.le(0x100B), Self.le(0x104B), [0xFF, 0xFF]])
    }

    @Test("reads over several services; a write to a read-only service or past the end changes nothing")
    func readWrite() throws {
        var card = FeliCaStandardTag(idm: Self.idm)
        let data = [UInt8](repeating: 0xA5, count: 16)
        let written = try #require(
            Self.bytes(card.receive(Self.frame(0x08, Self.idm + Self.list([0x1009], [(0, 2)]) + data))))
        #expect(Array(written.dropFirst(10)) == [0x00, 0x00])
        let read = try #require(
            Self.bytes(card.receive(Self.frame(0x06, Self.idm + Self.list([0x100B, 0x104B], [(0, 2), (1, 0)])))))
        #expect(Array(read.dropFirst(10)) == [0x00, 0x00, 2] + data + Array("NFCTagKit FeliCa".utf8))
        let readOnly = try #require(
            Self.bytes(card.receive(Self.frame(0x08, Self.idm + Self.list([0x104B], [(0, 0)]) + data))))
        #expect(Array(readOnly.dropFirst(10)) == [0x01, 0xA6])
        let pastEnd = try #require(
            Self.bytes(card.receive(Self.frame(0x08, Self.idm + Self.list([0x1009], [(0, 1), (0, 8)]) + data + data))))
        #expect(Array(pastEnd.dropFirst(10)) == [0x02, 0xA8])
        #expect(
            card.systems[0].blocks[0x40]?[1] == [UInt8](repeating: 0, count: 16), "the first element was not written")
        let otherSystem = try #require(
            Self.bytes(card.receive(Self.frame(0x06, Self.ndefIDm + Self.list([0x1009], [(0, 0)])))))
        #expect(Array(otherSystem.dropFirst(10)) == [0x01, 0xA6])
    }

    @Test("a snapshot (--state) keeps every block of both systems")
    func snapshot() throws {
        var card = FeliCaStandardTag(idm: Self.idm)
        card.setNDEFMessage([0xD0, 0x00, 0x00])
        _ = card.receive(Self.frame(0x08, Self.idm + Self.list([0x1009], [(0, 7)]) + [UInt8](repeating: 9, count: 16)))
        let snapshot = try #require(TagSnapshot(of: card))
        #expect(snapshot.tag == EmulatedTagFactory.feliCaStandardName)
        let decoded = try JSONDecoder().decode(TagSnapshot.self, from: JSONEncoder().encode(snapshot))
        let rebuilt = try #require(try decoded.makeTag() as? FeliCaStandardTag)
        #expect(rebuilt.systems == card.systems)
        var broken = decoded
        broken.blocks?["8008/0040/08"] = String(repeating: "00", count: 16)
        #expect(throws: EmulatorSetupError.self) { try broken.makeTag() }
    }

    @Test(
        "nfc-list lists the plain system; nfc-read-forum-tag3 re-polls 12FC and reads the NDEF system",
        .enabled(if: LibNFCTool.isInstalled("nfc-read-forum-tag3"), "libnfc-bin is not installed"))
    func outsideTools() throws {
        let uri = Array("example.com/felica-standard".utf8)
        let message: [UInt8] = [0xD1, 0x01, UInt8(1 + uri.count), 0x55, 0x04] + uri
        var card = FeliCaStandardTag(idm: Self.idm)
        let stored = card.setNDEFMessage(message)
        #expect(stored)
        let emulator = try PN532Emulator(tags: [card])
        try emulator.start()
        defer { emulator.stop() }
        let list = try LibNFCTool.run("nfc-list", [], device: emulator.connectionString)
        #expect(list.status == 0, "\(list.output)")
        #expect(list.output.contains("Parameter (PAD): 10  0b  4b  42  84  85  d0  ff"), "\(list.output)")
        #expect(list.output.contains("System Code (SC): 80  08"), "\(list.output)")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("felica-standard-\(UUID()).ndef")
        defer { try? FileManager.default.removeItem(at: output) }
        let read = try LibNFCTool.run("nfc-read-forum-tag3", ["-o", output.path], device: emulator.connectionString)
        #expect(read.status == 0, "\(read.output)")
        #expect(try [UInt8](Data(contentsOf: output)) == message, "\(read.output)")
    }
}

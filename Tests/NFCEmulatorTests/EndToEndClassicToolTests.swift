import Foundation
import NFCChips
import Testing
@testable import NFCEmulator
import TestSupport

@Suite("nfc-mfclassic reads and writes the emulated MIFARE Classic 1K", .serialized, .blockingCalls)
struct EndToEndClassicToolTests {
    static let secretKey: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66]

    func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).mfd")
    }

    /// A 1K with a recognisable pattern in every data block.
    func patternedCard() throws -> ClassicTag {
        var card = try Classic.card()
        for block in 1..<64 where (block + 1) % 4 != 0 {
            card.setBlock(block, to: (0..<16).map { UInt8(truncatingIfNeeded: block &* 7 &+ $0) })
        }
        return card
    }

    func run(_ arguments: [String], with card: ClassicTag) throws -> (LibNFCTool.Result, ClassicTag) {
        let emulator = try PN532Emulator(tags: [card])
        try emulator.start()
        defer { emulator.stop() }
        let result = try LibNFCTool.run("nfc-mfclassic", arguments, device: emulator.connectionString, timeout: 60)
        let after = try #require(emulator.withField { $0.tag($0.handles[0]) } as? ClassicTag)
        return (result, after)
    }

    @Test("r a u: every block read with the default keys; trailers carry the key found and the access bits")
    func readWithDefaultKeys() throws {
        let card = try patternedCard()
        let dump = temporaryFile("classic-read")
        defer { try? FileManager.default.removeItem(at: dump) }
        let (result, _) = try run(["r", "a", "u", dump.path], with: card)
        #expect(!result.timedOut, "nfc-mfclassic hung:\n\(result.output)")
        #expect(result.output.contains("Done, 64 of 64 blocks read."), "\(result.output)")
        let bytes = [UInt8](try Data(contentsOf: dump))
        try #require(bytes.count == 1024)
        for block in 0..<64 {
            let read = Array(bytes[(block * 16)..<(block * 16 + 16)])
            if (block + 1) % 4 == 0 {
                #expect(
                    read == Classic.transportKey + [0xFF, 0x07, 0x80, 0x69] + [UInt8](repeating: 0, count: 6),
                    "trailer \(block)")
            } else {
                #expect(read == card.block(block), "block \(block)")
            }
        }
    }

    @Test("r a u with a key file: sectors locked with a key nobody guesses are read with the file's keys")
    func readWithKeyFile() throws {
        var card = try patternedCard()
        var keys = [UInt8](repeating: 0, count: 1024)
        keys.replaceSubrange(0..<16, with: card.block(0))
        for sector in 0..<16 {
            let trailer = sector * 4 + 3
            let value = Self.secretKey + [0xFF, 0x07, 0x80, 0x69] + Classic.keyB
            card.setBlock(trailer, to: value)
            keys.replaceSubrange((trailer * 16)..<(trailer * 16 + 16), with: value)
        }
        let keyFile = temporaryFile("classic-keys")
        let dump = temporaryFile("classic-dump")
        defer { for file in [keyFile, dump] { try? FileManager.default.removeItem(at: file) } }
        try Data(keys).write(to: keyFile)
        let (result, _) = try run(["r", "a", "u", dump.path, keyFile.path], with: card)
        #expect(result.output.contains("Done, 64 of 64 blocks read."), "\(result.output)")
        let bytes = [UInt8](try Data(contentsOf: dump))
        #expect(Array(bytes[(4 * 16)..<(5 * 16)]) == card.block(4))
        #expect(Array(bytes[(3 * 16)..<(3 * 16 + 6)]) == Self.secretKey)
    }

    @Test("r a u reports a sector whose key A is unknown and writes no dump")
    func readWrongKey() throws {
        var card = try patternedCard()
        card.setBlock(63, to: Self.secretKey + [0xFF, 0x07, 0x80, 0x69] + Classic.keyB)
        let dump = temporaryFile("classic-wrong")
        defer { try? FileManager.default.removeItem(at: dump) }
        let (result, _) = try run(["r", "a", "u", dump.path], with: card)
        #expect(!result.timedOut)
        #expect(result.output.contains("Error: authentication failed for block 0x3f"), "\(result.output)")
        #expect(result.output.contains("Mifare Authentication Failed"), "libnfc saw status 14:\n\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: dump.path))
    }

    @Test("w a u writes a dump back as libnfc 1.8.0 does: the first block of each sector, 60 of 64 counted")
    func write() throws {
        let card = try Classic.card()
        var image = [UInt8](repeating: 0, count: 1024)
        for block in 0..<64 {
            let content =
                (block + 1) % 4 == 0
                ? card.block(block) : (0..<16).map { UInt8(truncatingIfNeeded: 0xA5 &+ block &+ $0) }
            image.replaceSubrange((block * 16)..<(block * 16 + 16), with: block == 0 ? card.block(0) : content)
        }
        let dump = temporaryFile("classic-write")
        defer { try? FileManager.default.removeItem(at: dump) }
        try Data(image).write(to: dump)
        let (result, after) = try run(["w", "a", "u", dump.path], with: card)
        #expect(!result.timedOut, "nfc-mfclassic hung:\n\(result.output)")
        #expect(result.output.contains("Done, 60 of 64 blocks written."), "\(result.output)")
        for sector in 1..<16 {
            let first = sector * 4
            #expect(after.block(first) == Array(image[(first * 16)..<(first * 16 + 16)]), "block \(first)")
            #expect(after.block(first + 1) == card.block(first + 1), "libnfc 1.8.0 skips block \(first + 1)")
        }
        #expect(after.block(0) == card.block(0))
    }

    @Test("w a u reports a sector it cannot open")
    func writeWrongKey() throws {
        var card = try Classic.card()
        card.setBlock(7, to: Self.secretKey + [0xFF, 0x07, 0x80, 0x69] + Classic.keyB)
        let dump = temporaryFile("classic-write-wrong")
        defer { try? FileManager.default.removeItem(at: dump) }
        try Data([UInt8](repeating: 0, count: 1024)).write(to: dump)
        let (result, after) = try run(["w", "a", "u", dump.path], with: card)
        #expect(result.output.contains("Error: authentication failed for block 04"), "\(result.output)")
        #expect(after.block(4) == card.block(4))
    }
}

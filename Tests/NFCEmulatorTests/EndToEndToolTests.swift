import Foundation
import Testing
@testable import NFCEmulator
import NFCChips
import TestSupport

@Suite("libnfc's own tools drive the emulated PN532", .serialized, .blockingCalls)
struct EndToEndToolTests {
    @Test("nfc-list shows the exact UID, ATQA and SAK of the tag in the field")
    func nfcList() throws {
        let emulator = try PN532Emulator(tags: [ScriptedTag(uid: ntagUID)])
        try emulator.start()
        defer { emulator.stop() }
        let result = try LibNFCTool.run("nfc-list", [], device: emulator.connectionString)
        #expect(!result.timedOut, "nfc-list hung:\n\(result.output)")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("ATQA (SENS_RES): 00  44"), "\(result.output)")
        #expect(result.output.contains("UID (NFCID1): 04  47  5e  d2  9c  39  80"), "\(result.output)")
        #expect(result.output.contains("SAK (SEL_RES): 00"), "\(result.output)")
        #expect(result.output.contains("1 ISO14443A passive target(s) found"), "\(result.output)")
    }

    @Test("nfc-mfultralight r reads every page of an NTAG215 into a dump equal to the tag's memory")
    func nfcMfultralightRead() throws {
        var tag = try Type2Tag(chip: .ntag215, uid: ntagUID)
        for page in 4..<0x82 { tag.setPage(page, to: [UInt8(page), 0xA5, UInt8(page) ^ 0xFF, 0x5A]) }
        let emulator = try PN532Emulator(tags: [tag])
        try emulator.start()
        defer { emulator.stop() }
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ntag215-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).mfd")
        defer { try? FileManager.default.removeItem(at: dump) }
        let result = try LibNFCTool.run("nfc-mfultralight", ["r", dump.path], device: emulator.connectionString)
        #expect(!result.timedOut, "nfc-mfultralight hung:\n\(result.output)")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Done, 135 of 135 pages read (0 pages failed)."), "\(result.output)")
        let bytes = [UInt8](try Data(contentsOf: dump))
        #expect(bytes.count == 135 * 4)
        #expect(Array(bytes.prefix(0x85 * 4)) == Array(tag.memory.prefix(0x85 * 4)), "pages 00–84 byte for byte")
        #expect(emulator.statistics.framesToTags >= 34)
    }
}

extension EndToEndToolTests {
    @Test("nfc-mfultralight w writes a dump back: prompts answered no, 130 of 135 pages, memory equals the dump")
    func nfcMfultralightWrite() throws {
        let emulator = try PN532Emulator(tags: [try Type2Tag(chip: .ntag215, uid: ntagUID)])
        try emulator.start()
        defer { emulator.stop() }
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ntag215-w-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).mfd")
        defer { try? FileManager.default.removeItem(at: dump) }
        let read = try LibNFCTool.run("nfc-mfultralight", ["r", dump.path], device: emulator.connectionString)
        #expect(read.output.contains("Done, 135 of 135 pages read"), "\(read.output)")
        var image = [UInt8](try Data(contentsOf: dump))
        for page in 4..<0x82 {
            image.replaceSubrange((page * 4)..<(page * 4 + 4), with: [UInt8(page), 0x5A, 0xA5, UInt8(page) ^ 0x0F])
        }
        try Data(image).write(to: dump)
        let write = try LibNFCTool.run(
            "nfc-mfultralight", ["w", dump.path], device: emulator.connectionString, input: "n\nn\nn\nn\n")
        #expect(!write.timedOut, "nfc-mfultralight hung:\n\(write.output)")
        #expect(
            write.output.contains("Done, 130 of 135 pages written (5 pages skipped, 0 pages failed)."),
            "\(write.output)")
        let tag = try #require(emulator.tags.first as? Type2Tag)
        #expect(
            Array(tag.memory[(4 * 4)..<(0x82 * 4)]) == Array(image[(4 * 4)..<(0x82 * 4)]), "user pages as in the dump")
        #expect(tag.page(0x85) == [0, 0, 0, 0], "PWD written from the dump, where it read as zeros")
    }
}

@Suite("Two tags in the field, tags that leave, a reader unplugged by a fault", .serialized, .blockingCalls)
struct EndToEndFieldTests {
    @Test("nfc-list lists an NTAG215 and a Classic 1K; after one is removed, only the other")
    func twoTags() throws {
        let emulator = try PN532Emulator(tagNames: ["ntag215", "classic1k"], realTime: true)
        try emulator.start()
        defer { emulator.stop() }
        let both = try LibNFCTool.run("nfc-list", [], device: emulator.connectionString)
        #expect(both.output.contains("2 ISO14443A passive target(s) found"), "\(both.output)")
        #expect(both.output.contains("SAK (SEL_RES): 08"), "\(both.output)")
        let handle = try #require(emulator.withField { $0.handles.first })
        emulator.remove(handle)
        let one = try LibNFCTool.run("nfc-list", [], device: emulator.connectionString)
        #expect(one.output.contains("1 ISO14443A passive target(s) found"), "\(one.output)")
        #expect(one.output.contains("SAK (SEL_RES): 08"), "\(one.output)")
    }

    @Test("unplug-after=N: libnfc's tool loses the reader mid-run and the emulator can be plugged again")
    func unplugFault() throws {
        let emulator = try PN532Emulator(tagNames: ["ntag215"], faults: try FaultPlan(parsing: ["unplug-after=12"]))
        try emulator.start()
        defer { emulator.stop() }
        let result = try LibNFCTool.run("nfc-mfultralight", ["r", "/dev/null"], device: emulator.connectionString)
        #expect(!result.timedOut)
        #expect(!result.output.contains("Done, 135 of 135 pages read"), "\(result.output)")
        try emulator.plug()
        let again = try LibNFCTool.run("nfc-list", [], device: emulator.connectionString)
        #expect(again.output.contains("1 ISO14443A passive target(s) found"), "\(again.output)")
    }
}

import Foundation
import NFCChips
import Testing
import TestSupport

@testable import NFCEmulator

/// The emulated Topaz and Topaz 512, and the PN532's Jewel path, byte by byte.
@Suite("Type 1 tag (topaz, topaz512)")
struct Type1TagTests {
    static let uid: [UInt8] = [0xB2, 0x56, 0x54, 0x00, 0x11, 0x22, 0x33]
    static let jewelID = Array(uid.prefix(4))

    static func frame(_ code: UInt8, _ address: UInt8 = 0, _ data: UInt8 = 0) -> [UInt8] {
        [code, address, data] + jewelID
    }

    @Test("RID: HR0 HR1 and UID0-3 (nfcpy's Topaz answer 11 48 b2565400); a Topaz 512 says 12 4C")
    func rid() {
        var topaz = Type1Tag(chip: .topaz, uid: Self.uid)
        #expect(topaz.receive([0x78, 0, 0, 0, 0, 0, 0]) == .bytes([0x11, 0x48] + Self.jewelID))
        var topaz512 = Type1Tag(chip: .topaz512, uid: Self.uid)
        #expect(topaz512.receive([0x78, 0, 0, 0, 0, 0, 0]) == .bytes([0x12, 0x4C] + Self.jewelID))
        #expect(topaz512.memory.count == 512)
    }

    @Test("RALL, READ, WRITE-E, WRITE-NE; another UID, a short frame and a locked block get no answer")
    func commands() {
        var tag = Type1Tag(chip: .topaz, uid: Self.uid)
        let answer = tag.receive(Self.frame(0x00))
        guard case .bytes(let all) = answer.reply else {
            Issue.record("RALL unanswered")
            return
        }
        #expect(all.count == 122 && Array(all[2..<9]) == Self.uid)
        #expect(Array(all[10..<16]) == [0xE1, 0x10, 0x0E, 0x00, 0x03, 0x00])
        #expect(tag.receive(Self.frame(0x01, 0x08)) == .bytes([0x08, 0xE1]))
        #expect(tag.receive(Self.frame(0x53, 0x10, 0xA5)) == .bytes([0x10, 0xA5]))
        #expect(tag.receive(Self.frame(0x1A, 0x10, 0x5A)) == .bytes([0x10, 0xFF]))
        #expect(tag.receive(Self.frame(0x53, 0x10, 0x00)) == .bytes([0x10, 0x00]))
        #expect(tag.receive([0x01, 0x08, 0x00, 0x11, 0x22, 0x33, 0x44]) == .silence)
        #expect(tag.receive([0x01, 0x08]) == .silence)
        // The UID block, the reserved block, and block 2 once LOCK0 bit 2 is set.
        #expect(tag.receive(Self.frame(0x53, 0x01, 0xFF)) == .silence)
        #expect(tag.receive(Self.frame(0x53, 0x68, 0xFF)) == .silence)
        #expect(tag.receive(Self.frame(0x1A, 0x70, 0x04)) == .bytes([0x70, 0x04]))
        #expect(tag.receive(Self.frame(0x53, 0x10, 0x01)) == .silence)
    }

    @Test("the PN532's Jewel path: BrTy 04 lists SENS_RES and JEWELID; short and long forms; READ8 times out")
    func pn532() {
        var controller = PN532Controller(field: Field(tags: [Type1Tag(chip: .topaz, uid: Self.uid)]))
        #expect(controller.listPassiveTargets([0x01, 0x04]) == [0x01, 0x01, 0x0C, 0x00] + Self.jewelID)
        #expect(controller.listPassiveTargets([0x01, 0x04, 0x00]) == nil)
        _ = controller.listPassiveTargets([0x01, 0x04])
        #expect(controller.dataExchange([0x01, 0x78]) == [0x00, 0x11, 0x48] + Self.jewelID)
        #expect(controller.dataExchange([0x01, 0x78, 0, 0, 0, 0, 0, 0]) == [0x00, 0x11, 0x48] + Self.jewelID)
        #expect(controller.dataExchange([0x01, 0x01, 0x08]) == [0x00, 0xE1])
        #expect(controller.dataExchange([0x01, 0x53, 0x10, 0x42]) == [0x00, 0x42])
        #expect(controller.dataExchange([0x01, 0x01, 0x10, 0x00] + Self.jewelID) == [0x00, 0x42])
        #expect(controller.dataExchange([0x01, 0x00])?.count == 123)
        #expect(controller.dataExchange([0x01, 0x02, 0x01]) == [0x01])
        // Type A activation passes a Type 1 tag by.
        #expect(controller.listPassiveTargets([0x01, 0x00]) == [0x00])
    }

    @Test("a snapshot (--state) keeps the memory; the factory builds both chips by name")
    func snapshot() throws {
        var tag = try EmulatedTagFactory.make(name: "topaz")
        _ = tag.receive([0x53, 0x20, 0x77] + Self.jewelID)
        let snapshot = try #require(TagSnapshot(of: tag))
        let rebuilt = try #require(try snapshot.makeTag() as? Type1Tag)
        #expect(rebuilt.memory[0x20] == 0x77)
        #expect(EmulatedTagFactory.name(of: try EmulatedTagFactory.make(name: "topaz512")) == "topaz512")
    }

    @Test(
        "nfc-list, unmodified, lists the Topaz as a Jewel with SENS_RES 0c 00 and its JEWELID",
        .enabled(if: LibNFCTool.isInstalled("nfc-list"), "libnfc-bin is not installed (scripts/setup installs it)"))
    func nfcList() throws {
        let emulator = try PN532Emulator(tags: [Type1Tag(chip: .topaz, uid: Self.uid)])
        try emulator.start()
        defer { emulator.stop() }
        let result = try LibNFCTool.run("nfc-list", [], device: emulator.connectionString)
        #expect(result.status == 0 && !result.timedOut, "\(result.output)")
        #expect(result.output.contains("1 ISO14443A-3 Jewel passive target(s) found"), "\(result.output)")
        #expect(result.output.contains("ATQA (SENS_RES): 0c  00"), "\(result.output)")
        #expect(result.output.contains("4-LSB JEWELID: b2  56  54  00"), "\(result.output)")
    }

    @Test(
        "nfc-jewel, unmodified, reads the Topaz's 15 blocks and writes a dump back (lock and OTP bytes declined)",
        .enabled(if: LibNFCTool.isInstalled("nfc-jewel"), "libnfc-bin is not installed (scripts/setup installs it)"))
    func nfcJewel() throws {
        let emulator = try PN532Emulator(tags: [Type1Tag(chip: .topaz, uid: Self.uid)])
        try emulator.start()
        defer { emulator.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jewel-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("read.jwd")
        let read = try LibNFCTool.run("nfc-jewel", ["r", dump.path], device: emulator.connectionString)
        #expect(read.status == 0, "\(read.output)")
        var image = try [UInt8](Data(contentsOf: dump))
        #expect(image.count == 120 && Array(image.prefix(7)) == Self.uid)
        image.replaceSubrange(12..<17, with: [0x03, 0x02, 0xD0, 0x00, 0xFE])
        let written = directory.appendingPathComponent("write.jwd")
        try Data(image).write(to: written)
        let write = try LibNFCTool.run(
            "nfc-jewel", ["w", written.path], device: emulator.connectionString, input: "n\nn\n")
        #expect(write.status == 0, "\(write.output)")
        #expect(write.output.contains("12 of 15 blocks written"), "\(write.output)")
        let back = directory.appendingPathComponent("back.jwd")
        _ = try LibNFCTool.run("nfc-jewel", ["r", back.path], device: emulator.connectionString)
        #expect(try [UInt8](Data(contentsOf: back)) == image)
    }
}

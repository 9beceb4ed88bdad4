import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// `nfctag dump` and `restore` against the emulated PN532, through libnfc.
@Suite("nfctag dump and restore", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls)
struct DumpRestoreCommandTests {
    static let uid: [UInt8] = [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]
    static let memory = ChipTables.spec(for: .ntag213).memory!

    func temporaryFile(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "nfctag-\(name)-\(getpid())-\(UUID().uuidString).json"
        ).path
    }

    @Test("dump --out then restore: changed user pages come back; lock bytes in the file are not written")
    func roundTrip() throws {
        var tag = try Type2Tag(chip: .ntag213, uid: Self.uid)
        let user = Self.memory.firstUserPage
        for page in user..<(user + 6) { tag.setPage(page, to: [UInt8(page), 0x11, 0x22, 0x33]) }
        let emulator = try startEmulator([tag])
        defer { emulator.stop() }
        let file = temporaryFile("dump")
        defer { try? FileManager.default.removeItem(atPath: file) }

        let dump = try runTool(["dump", "--out", file, "--json"], on: emulator)
        #expect(dump.status == 0, "\(dump.stderr)")
        #expect(try jsonObject(dump)["pages"] as? Int == Self.memory.lastReadablePage + 1)
        #expect(dump.stderr.isEmpty, "no progress bar without a terminal: \(dump.stderr)")
        let original = try type2Tag(emulator).memory

        // Scribble over the user pages, and make the file ask for lock bits.
        emulator.withField { field in
            guard let handle = field.handles.first else { return }
            field.withTag(handle) { tag in
                guard var type2 = tag as? Type2Tag else { return }
                for page in user..<(user + 6) { type2.setPage(page, to: [0, 0, 0, 0]) }
                tag = type2
            }
        }
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        var pages = try #require(json["pages"] as? [String])
        pages[Self.memory.staticLock.page] = String(pages[Self.memory.staticLock.page].prefix(4)) + "FFFF"
        json["pages"] = pages
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: file))

        let restore = try runTool(["restore", file, "--json"], on: emulator)
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(try jsonObject(restore)["written"] as? [Int] == Array(user..<(user + 6)))
        #expect(try type2Tag(emulator).memory == original)

        let locks = try runTool(["restore", file, "--include-locks"], on: emulator)
        #expect(locks.status == 2, "\(locks.stderr)")
        #expect(try type2Tag(emulator).memory == original)
    }

    @Test("dump without --out prints the image; a file that is not a dump exits 2; another chip's dump is refused")
    func refusals() throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag213, uid: Self.uid)])
        defer { emulator.stop() }
        let printed = try runTool(["dump"], on: emulator)
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(try jsonObject(printed)["chip"] as? String == "ntag213")

        let junk = temporaryFile("junk")
        defer { try? FileManager.default.removeItem(atPath: junk) }
        try Data("{\"format\": \"something else\"}".utf8).write(to: URL(fileURLWithPath: junk))
        #expect(try runTool(["restore", junk], on: emulator).status == 2)

        let other = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { other.stop() }
        let file = temporaryFile("other")
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try runTool(["dump", "--out", file], on: other).status == 0)
        let mismatch = try runTool(["restore", file], on: emulator)
        #expect(mismatch.status == 1)
        #expect(mismatch.stderr.contains("ntag215"), "\(mismatch.stderr)")
    }

    @Test("Classic: dump with the transport key, restore a changed data block")
    func classic() throws {
        let emulator = try startEmulator([try ClassicTag(chip: .classic1k, uid: [0x3E, 0xE0, 0x5A, 0x11])])
        defer { emulator.stop() }
        emulator.withField { field in
            guard let handle = field.handles.first else { return }
            field.withTag(handle) { tag in
                guard var classic = tag as? ClassicTag else { return }
                classic.setBlock(4, to: (0..<16).map { UInt8($0) })
                tag = classic
            }
        }
        let file = temporaryFile("classic")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let dump = try runTool(["dump", "--out", file, "--json"], on: emulator)
        #expect(dump.status == 0, "\(dump.stderr)")
        emulator.withField { field in
            guard let handle = field.handles.first else { return }
            field.withTag(handle) { tag in
                guard var classic = tag as? ClassicTag else { return }
                classic.setBlock(4, to: [UInt8](repeating: 0xEE, count: 16))
                tag = classic
            }
        }
        let restore = try runTool(["restore", file, "--json"], on: emulator)
        #expect(restore.status == 0, "\(restore.stderr)")
        let classic = try #require(emulator.tags.first as? ClassicTag)
        #expect(classic.block(4) == (0..<16).map { UInt8($0) })
    }
}

import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

@Suite("nfctag lock", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls)
struct LockCommandTests {
    @Test("lock without --yes exits 2 and touches nothing")
    func refusesWithoutYes() throws {
        let fixture = try CLITagFixture(chip: .ntag215)
        defer { fixture.stop() }
        let before = fixture.memory
        let result = try fixture.run(["lock"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--yes"), "\(result.stderr)")
        #expect(fixture.memory == before)
    }

    @Test(
        "lock --yes verifies the message, locks, and a later write is refused",
        arguments: [Chip.ntag213, .ntag216, .ultralightEV1MF0UL11])
    func locks(chip: Chip) throws {
        let fixture = try CLITagFixture(chip: chip)
        defer { fixture.stop() }
        try fixture.formatIfBlank(chip)
        #expect(try fixture.run(["write", "--uri", "https://example.com"]).status == 0)
        let lock = try fixture.run(["lock", "--yes", "--json"])
        #expect(lock.status == 0, "\(lock.stderr)")
        let object = try CLITagFixture.object(lock)
        #expect(object["locked"] as? Bool == true)
        #expect(object["verified"] as? Bool == true)
        let scan = try CLITagFixture.object(try fixture.run(["scan", "--json"]))
        #expect((scan["ndef"] as? [String: Any])?["status"] as? String == "read-only")
        let write = try fixture.run(["write", "--uri", "https://other.example"])
        #expect(write.status == 1)
        #expect(write.stderr.contains("read-only"), "\(write.stderr)")
    }

    @Test("lock --yes on a corrupt message is refused (exit 1) and nothing is locked")
    func corruptNotLocked() throws {
        let fixture = try CLITagFixture(chip: .ntag215)
        defer { fixture.stop() }
        #expect(try fixture.run(["write", "--uri", "https://example.com"]).status == 0)
        let page = try #require(ChipTables.spec(for: .ntag215).memory?.firstUserPage)
        fixture.emulator.withField { field in
            guard let handle = field.handles.first else { return }
            _ = field.withTag(handle) { tag in
                guard var type2 = tag as? Type2Tag else { return }
                var bytes = type2.page(page)
                bytes[3] = 0x7F
                type2.setPage(page, to: bytes)
                tag = type2
            }
        }
        let before = fixture.memory
        let lock = try fixture.run(["lock", "--yes"])
        #expect(lock.status == 1)
        #expect(fixture.memory == before)
    }
}

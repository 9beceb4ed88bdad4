import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

@Suite("nfctag format", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls)
struct FormatCommandTests {
    @Test("format refuses a tag holding NDEF (exit 1); --force leaves an empty message")
    func formatForce() throws {
        let fixture = try CLITagFixture(chip: .ntag215)
        defer { fixture.stop() }
        #expect(try fixture.run(["write", "--uri", "https://example.com"]).status == 0)
        let refused = try fixture.run(["format"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("already holds NDEF"), "\(refused.stderr)")
        let forced = try fixture.run(["format", "--force", "--json"])
        #expect(forced.status == 0, "\(forced.stderr)")
        let object = try CLITagFixture.object(forced)
        #expect(object["formatted"] as? Bool == true)
        #expect((object["ndef"] as? [String: Any])?["length"] as? Int == 0)
        let read = try CLITagFixture.object(try fixture.run(["read", "--json"]))
        #expect((read["records"] as? [Any])?.isEmpty == true)
    }

    @Test("format on a blank tag (no capability container) writes an empty NDEF structure")
    func formatBlank() throws {
        var tag = try Type2Tag(chip: .ntag213, uid: CLITagFixture.uid)
        let ccPage = try #require(ChipTables.spec(for: .ntag213).memory?.capabilityContainer.page)
        tag.setPage(ccPage, to: [0, 0, 0, 0])
        let fixture = try CLITagFixture([tag])
        defer { fixture.stop() }
        let before = try CLITagFixture.object(try fixture.run(["scan", "--json"]))
        #expect((before["ndef"] as? [String: Any])?["status"] as? String == "not-supported")
        let read = try fixture.run(["read"])
        #expect(read.status == 1 && read.stderr.contains("not NDEF-formatted"), "\(read.stderr)")
        #expect(read.stderr.contains("nfctag format"), "\(read.stderr)")
        let result = try fixture.run(["format"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("NDEF read-write, 0/"), "\(result.stdout)")
    }

    @Test("format with two tags exits 5")
    func formatTwoTags() throws {
        let fixture = try CLITagFixture([
            try Type2Tag(chip: .ntag215, uid: CLITagFixture.uid),
            try Type2Tag(chip: .ntag215, uid: CLITagFixture.secondUID),
        ])
        defer { fixture.stop() }
        #expect(try fixture.run(["format", "--force"]).status == 5)
    }
}

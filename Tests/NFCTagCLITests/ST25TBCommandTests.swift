import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// The tag commands on an ST25TB512-AC, against the emulated reader kind under test, through
/// libnfc's ST SRx path.
@Suite("nfctag on an ST25TB card", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls)
struct ST25TBCommandTests {
    @Test(
        "scan names the card and product, no NDEF; st25tb read and write, a locked block and a counter counting up exit 1; dump"
    )
    func commands() throws {
        let emulator = try startEmulator([ST25TBTag(uid: ChipTables.st25tb.emulatedUID)])
        defer { emulator.stop() }
        let scan = try jsonObject(try runTool(["scan", "--json"], on: emulator))
        #expect(scan["technology"] as? String == "iso14443b" && scan["chip"] as? String == "st25tb")
        #expect(scan["uid"] as? String == "b6c061a0001b02d0" && scan["product"] as? String == "ST25TB512-AC")
        #expect((scan["ndef"] as? [String: Any])?["status"] as? String == "not-supported")
        let read = try runTool(["read"], on: emulator)
        #expect(read.status == 1 && read.stderr.contains("not an NFC Forum tag"), "\(read.stderr)")
        let written = try runTool(["st25tb", "write", "--block", "7", "--hex", "01020304"], on: emulator)
        #expect(written.status == 0, "\(written.stderr)")
        let blocks = try jsonObject(try runTool(["st25tb", "read", "--block", "7,0xff", "--json"], on: emulator))
        #expect(blocks["blocks"] as? [String] == ["01020304", "ffffffff"])
        #expect(try runTool(["st25tb", "write", "--block", "5", "--hex", "10000000"], on: emulator).status == 0)
        let up = try runTool(["st25tb", "write", "--block", "5", "--hex", "20000000"], on: emulator)
        #expect(up.status == 1 && up.stderr.contains("counter"), "\(up.stderr)")
        // Bit 16 + 7 of the system block cleared: block 7 is read-only for good.
        #expect(try runTool(["st25tb", "write", "--block", "0xff", "--hex", "ffff7fff"], on: emulator).status == 0)
        #expect(try runTool(["st25tb", "write", "--block", "7", "--hex", "00000000"], on: emulator).status == 1)
        let dump = try jsonObject(try runTool(["dump"], on: emulator))
        #expect((dump["blocks"] as? [String])?.count == 16 && dump["systemBlock"] as? String == "FFFF7FFF")
        #expect(try runTool(["st25tb", "write", "--block", "7"], on: emulator).status == 2)
    }
}

import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// The tag commands on an ISO/IEC 14443 Type B card, against the emulated reader kind under
/// test, through libnfc.
@Suite("nfctag on a type B card", .tags(.reader), .serialized, .timeLimit(.minutes(2)), .blockingCalls)
struct TypeBCommandTests {
    @Test("scan and info give technology iso14443b, the PUPI as uid and the ATQB; write, read and apdu work as on A")
    func commands() throws {
        let emulator = try startEmulator([try Type4Tag(typeBPUPI: [0xB1, 0x22, 0x33, 0x44])])
        defer { emulator.stop() }
        let scan = try jsonObject(try runTool(["scan", "--json"], on: emulator))
        #expect(scan["technology"] as? String == "iso14443b")
        #expect(scan["uid"] as? String == "b1223344")
        #expect(scan["chip"] as? String == "type4")
        #expect(scan["atqb"] as? String == "50b122334400000011008185")
        #expect(scan["atqa"] == nil)
        let text = try runTool(["scan"], on: emulator)
        #expect(text.stdout.contains("b1223344  type4  ATQB 50b122334400000011008185"), "\(text.stdout)")
        let url = "https://example.com/written-on-b"
        let written = try runTool(["write", "--uri", url], on: emulator)
        #expect(written.status == 0, "\(written.stderr)")
        let read = try jsonObject(try runTool(["read", "--json"], on: emulator))
        #expect((read["records"] as? [[String: Any]])?.first?["uri"] as? String == url)
        let apdu = try runTool(["apdu", "00A4040007D276000085010100"], on: emulator)
        #expect(apdu.status == 0 && apdu.stdout.hasPrefix("9000"), "\(apdu.stdout) \(apdu.stderr)")
        let info = try jsonObject(try runTool(["info", "--json"], on: emulator))
        #expect(info["technology"] as? String == "iso14443b")
        #expect((info["ndef"] as? [String: Any])?["length"] as? Int == 29)
    }
}

import Foundation
import Testing
@testable import NFCEmulator

@Suite("libnfc's own tools drive the emulated PN532", .serialized)
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
}

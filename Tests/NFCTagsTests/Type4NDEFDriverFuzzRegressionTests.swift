import NFCChips
import Testing
@testable import NFCTags

/// Inputs the `type4-cc` fuzz target found (kept in `Fuzz/Corpus/type4-cc/`).
@Suite("Type 4 NDEF driver: fuzz regressions")
struct Type4NDEFDriverFuzzRegressionTests {
    let ok: [UInt8] = [0x90, 0x00]
    let selectApplication: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]

    /// `Fuzz/Corpus/type4-cc/extended-file-enlen-2-7-gb`: an extended NDEF file (T = 06)
    /// of FFFD0100 bytes whose ENLEN declares A1013000 (2.7 GB). The status query used to
    /// allocate a zero-filled message of that length only to report its count.
    @Test("the status of an extended file reports a 2.7 GB ENLEN without allocating it")
    func extendedFileLengthIsNotAllocated() async throws {
        let cc: [UInt8] = [
            0xA1, 0x01, 0x30, 0x00, 0x03, 0xAD, 0xFF, 0x06, 0x08, 0xE1, 0x03, 0xFF, 0xFD, 0x01, 0x00, 0x00, 0x00,
        ]
        let transport = TranscriptTransport([
            .send(selectApplication, .standard, answer: .bytes(ok)),
            .send([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03], .standard, answer: .bytes(ok)),
            .send([0x00, 0xB0, 0x00, 0x00, 0x0F], .standard, answer: .bytes(Array(cc.prefix(15)) + ok)),
            .send([0x00, 0xB0, 0x00, 0x0F, 0x02], .standard, answer: .bytes(Array(cc.suffix(2)) + ok)),
            // The CC names E103 — the CC file itself — as the NDEF file.
            .send([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03], .standard, answer: .bytes(ok)),
            .send([0x00, 0xB0, 0x00, 0x00, 0x03], .standard, answer: .bytes([0xA1, 0x01, 0x30] + ok)),
            .send([0x00, 0xB0, 0x00, 0x03, 0x01], .standard, answer: .bytes([0x00] + ok)),
        ])
        let status = try await NDEFTagDrivers.driver(for: .type4, transport: transport).queryStatus()
        #expect(status == NDEFStatus(availability: .readWrite, capacity: 0xFFFD_0100 - 4, length: 0xA101_3000))
        #expect(await transport.mismatches.isEmpty)
        #expect(await transport.remaining == 0)
    }
}

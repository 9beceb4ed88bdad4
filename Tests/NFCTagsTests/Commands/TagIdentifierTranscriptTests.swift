import NFCChips
import NFCTags
import Testing

@Suite("Identification over a transport: GET_VERSION, the UL-C probe, ATQA / SAK")
struct TagIdentifierTranscriptTests {
    static let type2Target = TagTarget(uid: [UInt8](commandHex: "04 47 5E D2 9C 39 80"), atqa: 0x0044, sak: 0x00)

    @Test(
        "GET_VERSION answers from the datasheets identify each NTAG21x and EV1 without the UL-C probe",
        arguments: [
            ("00 04 04 02 01 00 0F 03", Chip.ntag213),
            ("00 04 04 02 01 00 11 03", Chip.ntag215),
            ("00 04 04 02 01 00 13 03", Chip.ntag216),
            ("00 04 03 01 01 00 0B 03", Chip.ultralightEV1MF0UL11),
            ("00 04 03 02 01 00 0E 03", Chip.ultralightEV1MF0UL21),
        ])
    func getVersionIdentifies(answer: String, chip: Chip) async throws {
        let transport = TranscriptTransport(target: Self.type2Target, steps: [.send("60", answer: answer)])
        let report = try await TagIdentifier.identify(over: transport)
        #expect(report.chip == chip)
        #expect(report.ultralightCProbeAnswer == nil)
        #expect(await transport.problems == [])
    }

    @Test("An NTAG215 is never reported as an Ultralight")
    func ntag215IsNotAnUltralight() async throws {
        let transport = TranscriptTransport(
            target: Self.type2Target, steps: [.send("60", answer: "00 04 04 02 01 00 11 03")])
        let report = try await TagIdentifier.identify(over: transport)
        #expect(report.chip == .ntag215)
        #expect(report.chip != .ultralight && report.chip != .ultralightC)
    }

    @Test(
        "A NAK to GET_VERSION, then AF + ek(RndB) to 1A 00, is an Ultralight C; the tag is reselected after each probe")
    func ultralightCProbe() async throws {
        let transport = TranscriptTransport(
            target: Self.type2Target,
            steps: [
                .send("60", nak: 0x0), .reselect,
                .send("1A 00", answer: "AF 57 72 93 FD 2F 34 CA 51"), .reselect,
            ])
        let report = try await TagIdentifier.identify(over: transport)
        #expect(report.chip == .ultralightC)
        #expect(report.getVersionAnswer == .nak(0))
        #expect(await transport.problems == [])
    }

    @Test("Silence to both probes is the original Ultralight")
    func originalUltralight() async throws {
        let transport = TranscriptTransport(
            target: Self.type2Target,
            steps: [
                .send("60", fails: .timeout), .reselect,
                .send("1A 00", fails: .timeout), .reselect,
            ])
        let report = try await TagIdentifier.identify(over: transport)
        #expect(report.chip == .ultralight)
        #expect(report.getVersionAnswer == .noAnswer)
        #expect(report.ultralightCProbeAnswer == .noAnswer)
        #expect(await transport.problems == [])
    }

    @Test("An unknown GET_VERSION answer is reported as unknown with the raw bytes")
    func unknownChipKeepsRawAnswers() async throws {
        let transport = TranscriptTransport(
            target: Self.type2Target, steps: [.send("60", answer: "00 04 04 05 02 01 15 03")])
        let report = try await TagIdentifier.identify(over: transport)
        #expect(report.chip == nil)
        #expect(
            report.identification
                == .unknown(atqa: 0x0044, sak: 0x00, getVersion: [UInt8](commandHex: "00 04 04 05 02 01 15 03")))
        #expect(report.description.contains("00 04 04 05 02 01 15 03"))
    }

    @Test(
        "MIFARE Classic is identified from ATQA / SAK alone, without any frame",
        arguments: [(UInt16(0x0004), UInt8(0x08), Chip.classic1k), (0x0002, 0x18, .classic4k)])
    func classicFromSAK(atqa: UInt16, sak: UInt8, chip: Chip) async throws {
        let transport = TranscriptTransport(target: TagTarget(uid: [1, 2, 3, 4], atqa: atqa, sak: sak), steps: [])
        #expect(try await TagIdentifier.identify(over: transport).chip == chip)
        #expect(await transport.problems == [])
    }

    @Test("A lost tag during a probe is an error, not an identification")
    func lostTagThrows() async {
        let transport = TranscriptTransport(target: Self.type2Target, steps: [.send("60", fails: .tagLost)])
        await #expect(throws: TagCommandError.transport(.tagLost)) {
            _ = try await TagIdentifier.identify(over: transport)
        }
    }
}

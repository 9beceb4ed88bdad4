import NFCChips
import NFCEmulator
import NFCTags
import Testing

@Suite("Identification against the emulated tag models")
struct EmulatedIdentificationTests {
    @Test(
        "Each emulated Type 2 chip with GET_VERSION is identified exactly, with no UL-C probe",
        arguments: [Chip.ntag213, .ntag215, .ntag216, .ultralightEV1MF0UL11, .ultralightEV1MF0UL21])
    func identifiesModel(chip: Chip) async throws {
        let transport = EmulatedTagTransport(tag: try Type2Tag(chip: chip, uid: EmulatedNTAG.uid))
        let report = try await TagIdentifier.identify(over: transport)
        #expect(report.chip == chip)
        #expect(report.ultralightCProbeAnswer == nil)
        #expect(await transport.frames == [[0x60]])
    }

    @Test("The original Ultralight model answers neither probe and is left ACTIVE afterwards")
    func originalUltralight() async throws {
        let transport = EmulatedTagTransport(tag: try Type2Tag(chip: .ultralight, uid: EmulatedNTAG.uid))
        let report = try await TagIdentifier.identify(over: transport)
        #expect(report.chip == .ultralight)
        let tag = try Type2Commands(transport: transport, chip: .ultralight)
        #expect(try await tag.read(page: 0).prefix(3) == EmulatedNTAG.uid.prefix(3))
    }
}

import NFCChips
import NFCEmulator
import NFCTags
import TestSupport
import Testing

@Suite("Configuration pages decoded into typed fields and written back")
struct Type2ConfigurationTests {
    @Test("NTAG215 CFG0 / CFG1 decode every field with the datasheet masks")
    func decodeNTAG() throws {
        // MIRROR D4 = UID+counter mirror, byte 1, STRG_MOD_EN; MIRROR_PAGE 0x10; AUTH0 0x20;
        // ACCESS 0xDB = PROT, CFGLCK, NFC_CNT_EN, NFC_CNT_PWD_PROT, AUTHLIM 3.
        let config = try Type2Configuration(
            chip: .ntag215, pages: [0x83: [0xD4, 0x00, 0x10, 0x20], 0x84: [0xDB, 0x05, 0x00, 0x00]])
        #expect(config.mirrorConfiguration == 3 && config.mirrorByte == 1 && config.isStrongModulationEnabled == true)
        #expect(config.mirrorPage == 0x10 && config.auth0 == 0x20)
        #expect(config.isReadProtected == true && config.isConfigurationLocked == true)
        #expect(config.isNFCCounterEnabled == true && config.isNFCCounterPasswordProtected == true)
        #expect(config.authenticationLimit == 3)
        #expect(config.isProtectionActive)
        #expect(config.vctid == nil && config.auth1 == nil)
    }

    @Test("Encoding keeps RFUI bytes and only the changed page differs")
    func encodeChangesOnePage() throws {
        var config = try Type2Configuration(
            chip: .ntag213, pages: [0x29: [0x04, 0x00, 0x00, 0xFF], 0x2A: [0x00, 0x05, 0x00, 0x00]])
        config.isNFCCounterEnabled = true
        let pages = try config.encodedPages()
        #expect(pages[0x2A] == [0x10, 0x05, 0x00, 0x00])
        #expect(pages[0x29] == [0x04, 0x00, 0x00, 0xFF])
        let changes = config.changes(from: try Type2Configuration(chip: .ntag213, pages: config.pages))
        #expect(changes.map(\.description) == ["NFC_CNT_EN: 0 → 1"])
    }

    @Test("Values that do not fit a field, and fields a chip lacks, are refused")
    func refusals() throws {
        var config = try Type2Configuration.factoryDefault(for: .ultralightEV1MF0UL11)
        config.authenticationLimit = 9
        #expect(throws: TagCommandError.self) { _ = try config.encodedPages() }
        var ev1 = try Type2Configuration.factoryDefault(for: .ultralightEV1MF0UL11)
        ev1.isNFCCounterEnabled = true
        #expect(throws: TagCommandError.featureNotSupported(feature: "NFC_CNT_EN", chip: .ultralightEV1MF0UL11)) {
            _ = try ev1.encodedPages()
        }
        #expect(throws: TagCommandError.self) { _ = try Type2Configuration.factoryDefault(for: .ultralight) }
    }

    @Test("Random field values round-trip through the pages on every chip with configuration")
    func roundTrip() throws {
        var random = SplitMix64(seed: 0xC0F1_6A7E)
        for chip in Chip.allCases where ChipTables.spec(for: chip).memory?.configuration != nil {
            let fields = try #require(ChipTables.spec(for: chip).memory?.configuration?.fields)
            for _ in 0..<200 {
                var config = try Type2Configuration.factoryDefault(for: chip)
                for field in fields {
                    let width = field.mask.nonzeroBitCount
                    config.values[field.name] = UInt8(truncatingIfNeeded: random.next() & ((1 << width) - 1))
                }
                let decoded = try Type2Configuration(chip: chip, pages: try config.encodedPages())
                #expect(decoded.values == config.values, "seed \(random.seed) chip \(chip)")
            }
        }
    }

    @Test("writeConfiguration on the emulator writes only CFG1 to enable the NFC counter, and counts a read")
    func enableNFCCounter() async throws {
        let transport = EmulatedTagTransport(tag: try EmulatedNTAG.fresh(.ntag213))
        let tag = try Type2Commands(transport: transport, chip: .ntag213)
        var config = try await tag.readConfiguration()
        await #expect(throws: TagCommandError.nak(code: 0, command: CommandName.readCounter.rawValue)) {
            _ = try await tag.readNFCCounter()
        }
        try await transport.reselect()
        config.isNFCCounterEnabled = true
        #expect(try await tag.writeConfiguration(config) == [0x2A])
        _ = try await tag.read(page: 4)  // counted once per field
        #expect(try await tag.readNFCCounter() == 0)  // the first read of this field happened before the enable
    }

    @Test("writeConfiguration refuses to turn protection on and asks consent for CFGLCK")
    func writeConfigurationGuards() async throws {
        let transport = EmulatedTagTransport(tag: try EmulatedNTAG.fresh())
        let tag = try Type2Commands(transport: transport, chip: .ntag215)
        var config = try await tag.readConfiguration()
        config.auth0 = 4
        await #expect(throws: TagCommandError.self) { try await tag.writeConfiguration(config) }
        config.auth0 = 0xFF
        config.isConfigurationLocked = true
        await #expect(throws: TagCommandError.irreversibleNotConsented([.configurationLock])) {
            try await tag.writeConfiguration(config)
        }
        #expect(try await tag.writeConfiguration(config, consent: .configurationLock) == [0x84])
    }
}

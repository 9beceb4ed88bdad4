import NFCChips
import Testing

@testable import NFCTags

/// DESFire commands, bytes out and bytes in, against exchanges recorded on real cards
/// (facts file §2 and §5: pm3 #2961 and PR #3638, kpn532's TagInfo trace on an EV3, the
/// Istanbulkart EV1 transcript).
@Suite("DESFire command transcripts")
struct DESFireTranscriptTests {
    static func step(_ command: String, _ answer: String) -> TranscriptStep {
        .send(command, .standard, answer: answer)
    }

    func finished(_ transport: TranscriptTransport) async {
        #expect(await transport.mismatches.isEmpty)
        #expect(await transport.remaining == 0)
    }

    @Test("(D) ISO authentication with the DES key, then FormatPICC with the card's CMAC checked")
    func isoAuthenticationThenFormat() async throws {
        let transport = TranscriptTransport([
            Self.step("901A0000010000", "83B879409232725991AF"),
            Self.step("90AF000010CC4506665C229B49BBD7B67113A942F300", "03FB11800B8204959100"),
            Self.step("90FC000000", "0A2819F80BA056A09100"),
        ])
        let desfire = DESFireCommands(transport: transport)
        await desfire.useRndA([UInt8](commandHex: "0102030405060708"))
        try await desfire.authenticate(keyNumber: 0, key: .factoryDefault, method: .iso)
        try await desfire.formatPICC()
        #expect(await desfire.session != nil)
        await finished(transport)
    }

    @Test("(D) a FormatPICC answer whose CMAC is off by one bit is an integrity error; the session ends")
    func wrongCMAC() async throws {
        let transport = TranscriptTransport([
            Self.step("901A0000010000", "83B879409232725991AF"),
            Self.step("90AF000010CC4506665C229B49BBD7B67113A942F300", "03FB11800B8204959100"),
            Self.step("90FC000000", "0A2819F80BA056A19100"),
        ])
        let desfire = DESFireCommands(transport: transport)
        await desfire.useRndA([UInt8](commandHex: "0102030405060708"))
        try await desfire.authenticate(keyNumber: 0, key: .factoryDefault, method: .iso)
        await #expect(throws: TagCommandError.ntag424(.integrityError(command: "FormatPICC"))) {
            try await desfire.formatPICC()
        }
        #expect(await desfire.session == nil)
        await finished(transport)
    }

    @Test("(A) legacy authentication on a real EV1, then GetKeyVersion answered plain (no MAC)")
    func legacyThenKeyVersion() async throws {
        let transport = TranscriptTransport([
            Self.step("900A0000010000", "DF6AB29AAE46BA2791AF"),
            Self.step("90AF00001005EEC31F1E6A0CC31FEF8398A662137000", "26ACED3C771EF9A09100"),
            Self.step("90640000010000", "009100"),
        ])
        let desfire = DESFireCommands(transport: transport)
        await desfire.useRndA([UInt8](commandHex: "A0A1A2A3A4A5A6A7"))
        try await desfire.authenticate(keyNumber: 0, key: .factoryDefault)
        #expect(try await desfire.keyVersion(0) == 0)
        await finished(transport)
    }

    @Test("a wrong key: 91AE to the first frame is wrongKey for that key number")
    func wrongKey() async throws {
        let transport = TranscriptTransport([Self.step("90AA0000010000", "91AE")])
        let desfire = DESFireCommands(transport: transport)
        let key = DESFireKey(cipher: .aes, hex: "00112233445566778899AABBCCDDEEFF")!
        await #expect(throws: TagCommandError.ntag424(.wrongKey(keyNumber: 0))) {
            try await desfire.authenticate(keyNumber: 0, key: key)
        }
        await finished(transport)
    }

    @Test("kpn532's EV3 8K: GetVersion in three frames, GetKeySettings 0F 01, FreeMem 8192, no applications")
    func factoryEV3() async throws {
        let transport = TranscriptTransport([
            Self.step("9060000000", "04010133001A0591AF"),
            Self.step("90AF000000", "04010103001A0591AF"),
            Self.step("90AF000000", "0495910A5D6D8099536730302020" + "9100"),
            Self.step("9045000000", "0F019100"),
            Self.step("906E000000", "0020009100"),
            Self.step("906A000000", "9100"),
        ])
        let desfire = DESFireCommands(transport: transport)
        let version = try await desfire.version()
        #expect(version.chip == .desfireEV3)
        #expect(version.storageSize == 8192)
        #expect(version.uid == [UInt8](commandHex: "0495910A5D6D80"))
        #expect(try await desfire.keySettings() == DESFireKeySettings(settings: 0x0F, keyCount: 1, cipher: .des))
        #expect(try await desfire.freeMemory() == 8192)
        #expect(try await desfire.applicationIDs() == [])
        await finished(transport)
    }

    @Test("kpn532's EV3: an absent application answers 91A0, typed with the step and the table's meaning")
    func applicationNotFound() async throws {
        let transport = TranscriptTransport([Self.step("905A0000033010F200", "91A0")])
        let desfire = DESFireCommands(transport: transport)
        await #expect(
            throws: TagCommandError.ntag424(
                .status(
                    command: "SelectApplication", statusWord: 0x91A0,
                    meaning: ChipTables.desfire.statuses[.applicationNotFound].meaning))
        ) {
            try await desfire.selectApplication(0xF21030)
        }
        await finished(transport)
    }

    @Test("Istanbulkart EV1: select 422201, GetFileSettings of file 2 (MACed, read free), ReadData of file 1 in plain")
    func istanbulkart() async throws {
        let data = String(repeating: "A5", count: 32)
        let transport = TranscriptTransport([
            Self.step("905A00000301224200", "9100"),
            Self.step("90F50000010200", "000121E24000009100"),
            Self.step("90BD0000070100000020000000", data + "9100"),
        ])
        let desfire = DESFireCommands(transport: transport)
        try await desfire.selectApplication(0x422201)
        let settings = try await desfire.fileSettings(2)
        guard case .data(size: 0x40, backup: false) = settings.kind else {
            Issue.record("kind \(settings.kind)")
            return
        }
        #expect(settings.communicationMode == .mac)
        #expect(settings.accessRights == 0xE221)
        #expect(settings.rights == DESFireAccessRights(read: 0xE, write: 2, readWrite: 2, change: 1))
        #expect(try await desfire.readData(file: 1, length: 32) == [UInt8](commandHex: data))
        await finished(transport)
    }

    @Test("a long answer is gathered over AF frames; a long WriteData goes out in 54-byte frames")
    func chaining() async throws {
        let first = String(repeating: "11", count: 59)
        let second = String(repeating: "22", count: 5)
        let payload = [UInt8](repeating: 0x33, count: 60)
        let header = "01000000" + "3C0000"
        let frame1 = header + String(repeating: "33", count: 47)
        let frame2 = String(repeating: "33", count: 13)
        let transport = TranscriptTransport([
            Self.step("90BD0000070100000040000000", first + "91AF"),
            Self.step("90AF000000", second + "9100"),
            Self.step("903D000036" + frame1 + "00", "91AF"),
            Self.step("90AF00000D" + frame2 + "00", "9100"),
        ])
        let desfire = DESFireCommands(transport: transport)
        let read = try await desfire.readData(file: 1, length: 64)
        #expect(read.count == 64)
        try await desfire.writeData(file: 1, data: payload)
        await finished(transport)
    }
}

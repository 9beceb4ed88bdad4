import Testing
import NFCChips

@Suite("Chip specs")
struct ChipSpecTests {
    @Test("every Chip has exactly one spec, named after its file", arguments: Chip.allCases)
    func everyChipHasASpec(chip: Chip) {
        #expect(ChipTables.chips.filter { $0.chip == chip }.count == 1)
        #expect(ChipTables.spec(for: chip).chip == chip)
    }

    @Test(
        "NTAG21x memory maps",
        arguments: [
            (Chip.ntag213, 45, 0x27, 0x28, 0x29, 0x2B, [0xE1, 0x10, 0x12, 0x00] as [UInt8], 144),
            (Chip.ntag215, 135, 0x81, 0x82, 0x83, 0x85, [0xE1, 0x10, 0x3E, 0x00], 504),
            (Chip.ntag216, 231, 0xE1, 0xE2, 0xE3, 0xE5, [0xE1, 0x10, 0x6D, 0x00], 888),
        ])
    func ntagMemory(
        chip: Chip, pages: Int, lastUser: Int, dynamicLock: Int, cfg0: Int, pwd: Int, cc: [UInt8], userBytes: Int
    ) throws {
        let memory = try #require(ChipTables.spec(for: chip).memory)
        #expect(memory.pageCount == pages)
        #expect(memory.userPages == 4...lastUser)
        #expect(memory.userBytes == userBytes)
        #expect(memory.dynamicLock?.page == dynamicLock)
        let configuration = try #require(memory.configuration)
        #expect(configuration.auth0Page == cfg0)
        #expect(configuration.auth0Byte == 3)
        #expect(configuration.accessPage == cfg0 + 1)
        #expect(configuration.password?.pwdPage == pwd)
        #expect(configuration.password?.packPage == pwd + 1)
        #expect(configuration.password?.defaultPassword == [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(memory.capabilityContainer.factoryValue == cc)
        #expect(memory.capabilityContainer.dataAreaBytes == Int(cc[2]) * 8)
        #expect(memory.factoryContent(ofPage: 3) == cc)
        #expect(memory.isORWritePage(2) && memory.isORWritePage(3) && memory.isORWritePage(dynamicLock))
    }

    @Test("configuration fields of NTAG21x")
    func ntagConfigurationFields() throws {
        let configuration = try #require(ChipTables.spec(for: .ntag213).memory?.configuration)
        #expect(configuration.field(.prot)?.mask == 0x80)
        #expect(configuration.field(.cfgLock)?.mask == 0x40)
        #expect(configuration.field(.nfcCounterEnable)?.mask == 0x10)
        #expect(configuration.field(.nfcCounterPasswordProtect)?.mask == 0x08)
        #expect(configuration.field(.authLimit)?.mask == 0x07)
        let auth0 = try #require(configuration.field(.auth0))
        #expect(auth0.value(in: [0x04, 0x00, 0x00, 0xFF]) == 0xFF)
        #expect(auth0.setting(0x10, in: [0x04, 0x00, 0x00, 0xFF]) == [0x04, 0x00, 0x00, 0x10])
        let authLimit = try #require(configuration.field(.authLimit))
        #expect(authLimit.setting(3, in: [0x80, 0x05, 0, 0]) == [0x83, 0x05, 0, 0])
        // Every field's default agrees with the factory CFG pages.
        let memory = try #require(ChipTables.spec(for: .ntag213).memory)
        for field in configuration.fields {
            let page = try #require(memory.factoryContent(ofPage: field.page), "\(field.name)")
            #expect(field.value(in: page) == field.defaultValue, "\(field.name.rawValue)")
        }
    }

    @Test(
        "GET_VERSION storage size brackets the user memory of NTAG and EV1",
        arguments: [Chip.ntag213, .ntag215, .ntag216, .ultralightEV1MF0UL11, .ultralightEV1MF0UL21])
    func storageSize(chip: Chip) throws {
        let spec = ChipTables.spec(for: chip)
        for response in try #require(spec.getVersion).allResponses {
            let info = try GetVersionInfo(bytes: response)
            #expect(info.vendor == spec.activation.manufacturerCode)
            let bytes = try #require(spec.memory).userBytes
            #expect(info.storageSizeRange.contains(bytes), "\(chip.rawValue): \(bytes) not in \(info.storageSizeRange)")
        }
    }

    @Test("command support follows the data sheets")
    func commandSupport() throws {
        let ntag = ChipTables.spec(for: .ntag213)
        #expect(
            ntag.command(.read)?.code == 0x30 && ntag.command(.read)?.answerLength == 16
                && ntag.command(.read)?.timeoutMs == 5)
        #expect(ntag.command(.write)?.timeoutMs == 10)
        #expect(ntag.command(.passwordAuthenticate)?.code == 0x1B)
        #expect(ntag.command(.readSignature)?.answerLength == 32)
        #expect(
            !ntag.supports(.incrementCounter) && !ntag.supports(.checkTearingEvent)
                && !ntag.supports(.virtualCardSelect))
        #expect(ntag.command(code: 0x3A)?.name == .fastRead)
        let ev1 = ChipTables.spec(for: .ultralightEV1MF0UL21)
        #expect(ev1.command(.incrementCounter)?.code == 0xA5)
        #expect(ev1.command(.checkTearingEvent)?.code == 0x3E)
        #expect(ev1.counters.first?.tearingFlagValid == 0xBD)
        #expect(ev1.counters.first?.addresses == [0, 1, 2])
        let ultralight = ChipTables.spec(for: .ultralight)
        #expect(ultralight.getVersion == nil && !ultralight.supports(.getVersion))
        #expect(ultralight.memory?.pageCount == 16)
        let ulc = ChipTables.spec(for: .ultralightC)
        #expect(ulc.command(.authenticate)?.code == 0x1A && !ulc.supports(.getVersion))
        #expect(ChipTables.spec(for: .classic1k).command(.authenticateKeyA)?.code == 0x60)
        #expect(ChipTables.spec(for: .classic1k).command(.write)?.code == 0xA0)
        // Codes are unique within each chip.
        for spec in ChipTables.chips {
            #expect(Set(spec.commands.map(\.code)).count == spec.commands.count, "\(spec.chip.rawValue)")
        }
    }

    @Test("NTAG213 dynamic lock bits cover pages 16–39 two by two")
    func ntag213DynamicLock() throws {
        let lock = try #require(ChipTables.spec(for: .ntag213).memory?.dynamicLock)
        #expect(lock.lockBit(forPage: 16)! == (0, 0x01))
        #expect(lock.lockBit(forPage: 17)! == (0, 0x01))
        #expect(lock.lockBit(forPage: 31)! == (0, 0x80))
        #expect(lock.lockBit(forPage: 32)! == (1, 0x01))
        #expect(lock.lockBit(forPage: 39)! == (1, 0x08))
        #expect(lock.lockBit(forPage: 15) == nil)
        #expect(lock.lockBit(forPage: 40) == nil)
        #expect(lock.lockAllValue == [0xFF, 0xFF, 0xFF, 0x00])
    }

    @Test("dynamic lock bits cover every user page from 16 on", arguments: Chip.allCases)
    func dynamicLockCoversUserMemory(chip: Chip) {
        guard let memory = ChipTables.spec(for: chip).memory, let lock = memory.dynamicLock else { return }
        #expect(lock.lockAllValue.count == memory.pageSize)
        for page in 16...memory.lastUserPage {
            #expect(lock.lockBit(forPage: page) != nil, "\(chip.rawValue) page \(page)")
        }
    }

    @Test("Ultralight C key storage order")
    func ultralightCKey() throws {
        let spec = ChipTables.spec(for: .ultralightC)
        let auth = try #require(spec.ultralightCAuthentication)
        #expect(auth.keyPages(forKey: auth.defaultKey) == auth.defaultKeyPages)
        #expect(auth.defaultKeyPages == Array("BREAKMEIFYOUCAN!".utf8))
        #expect(auth.keyPages(forKey: Array(0...15)) == [7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8])
        let memory = try #require(spec.memory)
        let stored = (auth.firstKeyPage...auth.lastKeyPage).flatMap { memory.factoryContent(ofPage: $0) ?? [] }
        #expect(stored == auth.defaultKeyPages)
        #expect(memory.configuration?.auth0Page == 0x2A)
        #expect(memory.configuration?.field(.auth0)?.defaultValue == 0x30)
        #expect(memory.configuration?.field(.auth1)?.page == 0x2B)
        #expect(memory.lastReadablePage == 0x2B)
        #expect(spec.counters.first?.page == 0x29)
    }

    @Test("MIFARE Classic geometry")
    func classicGeometry() throws {
        let oneK = try #require(ChipTables.spec(for: .classic1k).classicGeometry)
        #expect(oneK.sectorCount == 16 && oneK.blockCount == 64 && oneK.totalBytes == 1024)
        #expect(oneK.trailerBlock(ofSector: 15) == 63)
        let fourK = try #require(ChipTables.spec(for: .classic4k).classicGeometry)
        #expect(fourK.sectorCount == 40 && fourK.blockCount == 256 && fourK.totalBytes == 4096)
        #expect(fourK.firstBlock(ofSector: 31) == 124)
        #expect(fourK.firstBlock(ofSector: 32) == 128 && fourK.trailerBlock(ofSector: 32) == 143)
        #expect(fourK.trailerBlock(ofSector: 39) == 255)
        #expect(fourK.sector(ofBlock: 143) == 32 && fourK.sector(ofBlock: 144) == 33)
        #expect(fourK.isTrailer(block: 143) && !fourK.isTrailer(block: 142))
        #expect(fourK.sector(ofBlock: 256) == nil && fourK.firstBlock(ofSector: 40) == nil)
        // Every block belongs to exactly the sector whose range holds it.
        for sector in 0..<fourK.sectorCount {
            let first = try #require(fourK.firstBlock(ofSector: sector))
            let last = try #require(fourK.trailerBlock(ofSector: sector))
            for block in first...last { #expect(fourK.sector(ofBlock: block) == sector) }
        }
    }

    @Test(
        "activation values",
        arguments: [
            (Chip.ntag213, UInt16(0x0044), UInt8(0x00), 7), (.ultralightC, 0x0044, 0x00, 7),
            (.classic1k, 0x0004, 0x08, 4), (.classic4k, 0x0002, 0x18, 4), (.type4, 0x0344, 0x20, 7),
        ])
    func activation(chip: Chip, atqa: UInt16, sak: UInt8, uidLength: Int) {
        let activation = ChipTables.spec(for: chip).activation
        #expect(activation.atqa == atqa && activation.sak == sak && activation.uidLength == uidLength)
        #expect(ChipTables.iso14443a.uidLength(forATQA: atqa) == uidLength)
    }

    @Test("chip raw values are the CLI tag names")
    func cliNames() {
        #expect(
            Chip.allCases.map(\.rawValue) == [
                "ntag213", "ntag215", "ntag216", "ultralight", "ultralight-ev1-mf0ul11",
                "ultralight-ev1-mf0ul21", "ultralight-c", "classic1k", "classic4k", "type4",
                "ntag424dna", "desfire-ev1", "desfire-ev2", "desfire-ev3",
            ])
    }

    @Test("GET_VERSION answers of other lengths are rejected", arguments: [0, 7, 9])
    func getVersionLength(length: Int) {
        #expect(throws: GetVersionInfo.LengthError.self) {
            try GetVersionInfo(bytes: Array(repeating: 0, count: length))
        }
    }
}

/// The NTAG 424 DNA codes the library and the emulator switch over agree with the chip table.
@Suite("NTAG424DNATable against datasheets/chips/ntag424dna.json")
struct NTAG424DNATableTests {
    @Test("every native command code is the table's INS of the command of the same name")
    func commands() throws {
        let pairs: [(NTAG424DNATable.Command, NTAG424CommandName)] = [
            (.getVersion, .getVersion), (.additionalFrame, .additionalFrame),
            (.authenticateEV2First, .authenticateEV2First),
            (.authenticateEV2NonFirst, .authenticateEV2NonFirst), (.changeKey, .changeKey),
            (.getKeyVersion, .getKeyVersion),
            (.getFileSettings, .getFileSettings), (.changeFileSettings, .changeFileSettings), (.readData, .readData),
            (.writeData, .writeData), (.getFileCounters, .getFileCounters), (.readSignature, .readSig),
            (.getCardUID, .getCardUID),
            (.setConfiguration, .setConfiguration),
        ]
        for (command, name) in pairs { #expect(command.rawValue == NTAG424DNATable.spec.commands[name].ins, "\(name)") }
        #expect(NTAG424DNATable.ISOCommand.select.rawValue == NTAG424DNATable.spec.commands[.isoSelectFile].ins)
        #expect(NTAG424DNATable.ISOCommand.readBinary.rawValue == NTAG424DNATable.spec.commands[.isoReadBinary].ins)
        #expect(NTAG424DNATable.ISOCommand.updateBinary.rawValue == NTAG424DNATable.spec.commands[.isoUpdateBinary].ins)
    }

    @Test("every 91xx status is the table's status word of the same name")
    func statuses() {
        let pairs: [(NTAG424DNATable.Status, NTAG424StatusWordName)] = [
            (.ok, .operationOK), (.illegalCommand, .illegalCommandCode), (.integrityError, .integrityError),
            (.noSuchKey, .noSuchKey),
            (.lengthError, .lengthError), (.permissionDenied, .permissionDenied), (.parameterError, .parameterError),
            (.authenticationError, .authenticationError), (.additionalFrame, .additionalFrame),
            (.boundaryError, .boundaryError),
            (.commandAborted, .commandAborted), (.fileNotFound, .fileNotFound),
        ]
        for (status, name) in pairs {
            #expect(
                UInt16(NTAG424DNATable.nativeSW1) << 8 | UInt16(status.rawValue)
                    == NTAG424DNATable.spec.statusWords[name].code, "\(name)")
        }
    }
}

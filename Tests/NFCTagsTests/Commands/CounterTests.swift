import NFCChips
import NFCEmulator
import NFCTags
import Testing

@Suite("Counters: the NTAG21x NFC counter and the Ultralight EV1 counters")
struct CounterTests {
    @Test("The NFC counter counts the first read of each field once enabled")
    func nfcCounterCountsFields() async throws {
        var model = try EmulatedNTAG.fresh(.ntag216)
        do {
            let transport = EmulatedTagTransport(tag: model)
            let tag = try Type2Commands(transport: transport, chip: .ntag216)
            var config = try await tag.readConfiguration()
            config.isNFCCounterEnabled = true
            try await tag.writeConfiguration(config)
            model = await transport.tag
        }
        for field in 1...3 {
            model.fieldReset()
            let transport = EmulatedTagTransport(tag: model)
            let tag = try Type2Commands(transport: transport, chip: .ntag216)
            _ = try await tag.read(page: 4)
            _ = try await tag.read(page: 8)
            #expect(try await tag.readNFCCounter() == field)
            model = await transport.tag
        }
    }

    @Test("NFC_CNT_PWD_PROT: READ_CNT is refused without PWD_AUTH and answered after it")
    func passwordProtectedCounter() async throws {
        let transport = EmulatedTagTransport(tag: try EmulatedNTAG.fresh(.ntag213))
        let tag = try Type2Commands(transport: transport, chip: .ntag213)
        let password = [UInt8](commandHex: "01 02 03 04")
        let pack = [UInt8](commandHex: "05 06")
        try await tag.protect(password: password, pack: pack, from: 0x20, readProtected: false)
        try await transport.reselect()
        try await tag.authenticate(password: password, expectedPACK: pack)
        var config = try await tag.readConfiguration()
        config.isNFCCounterEnabled = true
        config.isNFCCounterPasswordProtected = true
        try await tag.writeConfiguration(config)
        try await transport.reselect()
        await #expect(throws: TagCommandError.nak(code: 0, command: CommandName.readCounter.rawValue)) {
            _ = try await tag.readNFCCounter()
        }
        try await transport.reselect()
        try await tag.authenticate(password: password, expectedPACK: pack)
        #expect(try await tag.readNFCCounter() == 0)
    }

    @Test("EV1 counters 0…2 increment independently, refuse to pass FFFFFF, and report valid tearing flags")
    func ev1Counters() async throws {
        let transport = EmulatedTagTransport(tag: try Type2Tag(chip: .ultralightEV1MF0UL21, uid: EmulatedNTAG.uid))
        let tag = try Type2Commands(transport: transport, chip: .ultralightEV1MF0UL21)
        try await tag.incrementCounter(0, by: 5)
        try await tag.incrementCounter(2, by: 0xFFFFFE)
        try await tag.incrementCounter(2, by: 1)
        #expect(try await tag.readCounter(0) == 5)
        #expect(try await tag.readCounter(1) == 0)
        #expect(try await tag.readCounter(2) == 0xFFFFFF)
        await #expect(throws: TagCommandError.self) { try await tag.incrementCounter(2, by: 1) }
        try await transport.reselect()
        for counter in UInt8(0)...2 { #expect(try await tag.checkTearingEvent(counter).isValid) }
        await #expect(throws: TagCommandError.self) { _ = try await tag.readCounter(3) }
        await #expect(throws: TagCommandError.self) { try await tag.incrementCounter(0, by: 0x1000000) }
    }
}

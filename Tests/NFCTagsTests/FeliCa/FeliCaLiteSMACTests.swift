import NFCChips
import NFCEmulator
import Testing
@testable import NFCTags

/// The FeliCa Lite MAC against nfcpy's own test data (tests/test_tag_tt3_sony.py: its MAC
/// vectors and the exchanges of an authentication with the key "0123456789abcdef" and the
/// challenge 00…0F, and of a mutual authentication: STATE written with MAC_A), then the
/// emulated Lite-S against the same exchanges.
@Suite("FeliCa Lite-S MAC: session key, read with MAC, write with MAC_A, nfcpy's vectors")
struct FeliCaLiteSMACTests {
    static let idm = [UInt8](commandHex: "01 02 03 04 05 06 07 08")
    static let pmm = ChipTables.felica.liteS.pmm
    static let key = Array("0123456789abcdef".utf8)
    static let challenge = [UInt8](0..<16)
    static let attribute = [UInt8](commandHex: "10 04 01 00 03 00 00 00 00 00 01 00 00 27 00 40")
    static let message = [UInt8](
        commandHex: """
            d1 02 22 53 70 91 01 0e 55 03 6e 66 63 2d 66 6f 72 75 6d 2e 6f 72 67 51 01 0c 54 02 65 6e 4e 46
            43 20 46 6f 72 75 6d 00 00 00 00 00 00 00 00 00
            """)

    @Test("the MAC of nfcpy's vectors: 32 bytes 00…1F, key 00…0F, IV 00…07, plain and with the key halves swapped")
    func vectors() {
        let data = [UInt8](0..<32)
        let key = [UInt8](0..<16)
        let iv = [UInt8](0..<8)
        #expect(FeliCaLiteSMAC.mac(data, sessionKey: key, iv: iv) == [UInt8](commandHex: "0b1268d7a4ac6932"))
        #expect(
            FeliCaLiteSMAC.mac(data, sessionKey: key, iv: iv, flipKey: true) == [UInt8](commandHex: "18cdd33c0fb25dd7"))
    }

    static let readAnswer =
        "4d 07 0102030405060708 0000 04 d1022253709101 0e55036e66632d666f72756d2e6f726751010c5402656e4e4643"
        + " 20466f72756d000000000000000000 9e2d7fe15b2f5d1c 0000000000000000"

    static var transcript: [TranscriptStep] {
        [
            .send(
                "20 08 0102030405060708 01 0900 01 8080 0706050403020100 0f0e0d0c0b0a0908", .standard,
                answer: "0c 09 0102030405060708 0000"),
            .send(
                "12 06 0102030405060708 01 0b00 02 8082 8081", .standard,
                answer: "2d 07 0102030405060708 0000 02" + String(repeating: "00", count: 16)
                    + "cc97f1b97b8bbc79 0000000000000000"),
            .send(
                "12 06 0102030405060708 01 0b00 02 8000 8081", .standard,
                answer: "2d 07 0102030405060708 0000 02 10040100030000000000010000270040"
                    + "af36b1f1524e3eb9 0000000000000000"),
            .send(
                "16 06 0102030405060708 01 0b00 04 8001 8002 8003 8081", .standard,
                answer: Self.readAnswer),
        ]
    }

    @Test("nfcpy's exchanges: the challenge written card-order, the ID block's MAC, then blocks read with MAC")
    func transcriptReplay() async throws {
        let transport = TranscriptTransport(target: TagTarget(uid: Self.idm, atqa: 0, sak: 0), steps: Self.transcript)
        let felica = FeliCaCommands(transport: transport, idm: Self.idm, pmm: Self.pmm)
        let session = try await felica.authenticateLite(cardKey: Self.key, challenge: Self.challenge)
        #expect(try await felica.readWithMAC(blocks: [0], session: session) == [Self.attribute])
        let data = try await felica.readWithMAC(blocks: [1, 2, 3], session: session)
        #expect(data.flatMap { $0 } == Self.message)
        #expect(await transport.problems.isEmpty)
    }

    @Test("a card under another key: the authentication fails on the MAC, and says so")
    func wrongKey() async throws {
        let transport = TranscriptTransport(
            target: TagTarget(uid: Self.idm, atqa: 0, sak: 0), steps: Array(Self.transcript.prefix(2)))
        let felica = FeliCaCommands(transport: transport, idm: Self.idm, pmm: Self.pmm)
        await #expect(throws: TagCommandError.self) {
            _ = try await felica.authenticateLite(cardKey: [UInt8](repeating: 0, count: 16), challenge: Self.challenge)
        }
    }

    @Test("the emulated Lite-S answers nfcpy's exchanges byte for byte")
    func emulatorAgrees() async throws {
        var card = FeliCaLiteSTag(idm: Self.idm, ndef: true)
        // Set up by the card's own writes: the key, then nfcpy's attribute block and message.
        var contents: [(UInt8, [UInt8])] = [
            (ChipTables.felica.liteS.blocks[.ck].block, FeliCaLiteSMAC.cardOrder(Self.key)), (0, Self.attribute),
        ]
        for block in 0..<3 {
            let start = block * 16
            contents.append((UInt8(block + 1), Array(Self.message[start..<(start + 16)])))
        }
        for (block, data) in contents {
            let frame: [UInt8] = [0x20, 0x08] + Self.idm + [0x01, 0x09, 0x00, 0x01, 0x80, block] + data
            #expect(card.receive(frame).reply == .bytes([0x0C, 0x09] + Self.idm + [0x00, 0x00]))
        }
        // nfcpy's mock card has an ID block of zeros; a Lite-S's holds its IDm, so that one
        // exchange is checked through the library instead of byte for byte.
        for (index, step) in Self.transcript.enumerated() where index != 1 {
            guard case .exchange(let frame, _, let answer) = step.kind, case .bytes(let expected) = try answer.get()
            else { continue }
            let answered = card.receive(frame)
            #expect(answered.reply == .bytes(expected), "\(frame.hexString())")
        }
        let transport = EmulatedTagTransport(tag: card)
        let felica = FeliCaCommands(transport: transport, idm: Self.idm, pmm: Self.pmm)
        let session = try await felica.authenticateLite(cardKey: Self.key)
        #expect(try await felica.readWithMAC(blocks: [1, 2, 3], session: session).flatMap { $0 } == Self.message)
        await #expect(throws: TagCommandError.self) {
            _ = try await felica.authenticateLite(cardKey: [UInt8](repeating: 0, count: 16))
        }
    }

    /// nfcpy's `test_protect_ndef_tag_readonly`, exchanges 5 to 9: the internal authentication
    /// (an ID block holding the IDm, as on a real card), WCNT, STATE with MAC_A, STATE with MAC.
    static var mutualAuthentication: [TranscriptStep] {
        [
            .send(
                "20 08 0102030405060708 01 0900 01 8080 0706050403020100 0f0e0d0c0b0a0908", .standard,
                answer: "0c 09 0102030405060708 0000"),
            .send(
                "12 06 0102030405060708 01 0b00 02 8082 8081", .standard,
                answer: "2d 07 0102030405060708 0000 02 0102030405060708 0000000000000000"
                    + " 91aec5b6d9b3b12d 0000000000000000"),
            .send(
                "10 06 0102030405060708 01 0b00 01 8090", .standard,
                answer: "1d 07 0102030405060708 0000 01 00feff00000000000000000000000000"),
            .send(
                "32 08 0102030405060708 01 0900 02 8092 8091 01000000000000000000000000000000"
                    + " 17c19e3bbdc3e8bd 00feff0000000000", .standard,
                answer: "0c 09 0102030405060708 0000"),
            .send(
                "12 06 0102030405060708 01 0b00 02 8092 8081", .standard,
                answer: "2d 07 0102030405060708 0000 02 01000000000000000000000000000000"
                    + " bd73eb7294a00279 0000000000000000"),
        ]
    }

    static let authenticated = [UInt8](commandHex: "01") + [UInt8](repeating: 0, count: 15)

    @Test("nfcpy's mutual authentication: WCNT read, STATE written with its MAC_A, read back with the card's MAC")
    func writeWithMACTranscript() async throws {
        let transport = TranscriptTransport(
            target: TagTarget(uid: Self.idm, atqa: 0, sak: 0), steps: Self.mutualAuthentication)
        let felica = FeliCaCommands(transport: transport, idm: Self.idm, pmm: Self.pmm)
        let session = try await felica.authenticateLite(cardKey: Self.key, challenge: Self.challenge)
        try await felica.writeWithMAC(block: 0x92, data: Self.authenticated, session: session)
        #expect(try await felica.readWithMAC(blocks: [0x92], session: session) == [Self.authenticated])
        #expect(await transport.problems.isEmpty)
    }

    @Test(
        "the emulated Lite-S: a write with MAC lands, a wrong MAC_A is refused 02 B2, MC's MAC bits bind plain writes")
    func emulatorWriteWithMAC() async throws {
        let card = FeliCaLiteSTag(idm: Self.idm, ndef: true)
        let transport = EmulatedTagTransport(tag: card)
        let felica = FeliCaCommands(transport: transport, idm: Self.idm, pmm: Self.pmm)
        let session = try await felica.authenticateLite(cardKey: [UInt8](repeating: 0, count: 16))
        try await felica.writeWithMAC(block: 0x92, data: Self.authenticated, session: session)
        #expect(try await felica.readWithMAC(blocks: [0x92], session: session) == [Self.authenticated])
        let data = [UInt8](0..<16)
        try await felica.writeWithMAC(block: 5, data: data, session: session)
        #expect(
            try await felica.readWithoutEncryption(services: [0x000B], blocks: [FeliCaBlockElement(block: 5)]) == [data]
        )
        // Another session key (a reader without the card key): nothing is written.
        let forged = FeliCaMACSession(sessionKey: [UInt8](repeating: 0x11, count: 16), iv: session.iv)
        await #expect(throws: TagCommandError.feliCaStatus(flag1: 0x02, flag2: 0xB2, command: "WriteWithoutEncryption"))
        {
            try await felica.writeWithMAC(block: 5, data: [UInt8](repeating: 0xEE, count: 16), session: forged)
        }
        #expect(
            try await felica.readWithoutEncryption(services: [0x000B], blocks: [FeliCaBlockElement(block: 5)]) == [data]
        )
        // MC byte 10 bit 5: block 5 now takes only a write with MAC.
        var mc = try await felica.readWithoutEncryption(services: [0x000B], blocks: [FeliCaBlockElement(block: 0x88)])[
            0]
        mc[10] |= 1 << 5
        try await felica.writeWithoutEncryption(
            services: [0x0009], blocks: [FeliCaBlockElement(block: 0x88)], data: [mc])
        await #expect(throws: TagCommandError.feliCaStatus(flag1: 0x01, flag2: 0xA8, command: "WriteWithoutEncryption"))
        {
            try await felica.writeWithoutEncryption(
                services: [0x0009], blocks: [FeliCaBlockElement(block: 5)], data: [[UInt8](repeating: 0xEE, count: 16)])
        }
        try await felica.writeWithMAC(block: 5, data: [UInt8](repeating: 0x55, count: 16), session: session)
        #expect(
            try await felica.readWithoutEncryption(services: [0x000B], blocks: [FeliCaBlockElement(block: 5)])
                == [[UInt8](repeating: 0x55, count: 16)])
    }

    @Test("the emulated Lite-S forgets the external authentication and the challenge when the field resets")
    func emulatorFieldReset() {
        var card = FeliCaLiteSTag(idm: Self.idm, ndef: true)
        let write = { (block: UInt8, data: [UInt8]) -> [UInt8] in
            [0x20, 0x08] + Self.idm + [0x01, 0x09, 0x00, 0x01, 0x80, block] + data
        }
        #expect(card.receive(write(0x92, Self.authenticated)).reply == .bytes([0x0C, 0x09] + Self.idm + [0x00, 0x00]))
        #expect(card.blocks[0x92]?.first == 0x01)
        card.fieldReset()
        #expect(card.blocks[0x92]?.first == 0x00)
        // No challenge since the reset: a write with MAC cannot verify.
        let frame: [UInt8] =
            [0x32, 0x08] + Self.idm + [0x01, 0x09, 0x00, 0x02, 0x80, 0x05, 0x80, 0x91]
            + [UInt8](repeating: 0, count: 32)
        #expect(card.receive(frame).reply == .bytes([0x0C, 0x09] + Self.idm + [0x02, 0xB2]))
    }
}

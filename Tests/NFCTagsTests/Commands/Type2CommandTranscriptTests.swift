import NFCChips
import NFCTags
import Testing

/// Runs `body` against a transcript on `chip` and checks every step was played exactly.
func withTranscript<T>(
    _ chip: Chip, maximumFrameLength: Int = 252, _ steps: [TranscriptStep],
    _ body: (Type2Commands) async throws -> T
) async throws -> T {
    let transport = TranscriptTransport(maximumFrameLength: maximumFrameLength, steps: steps)
    let result = try await body(try Type2Commands(transport: transport, chip: chip))
    #expect(await transport.problems == [])
    return result
}

@Suite("Type 2 commands: bytes out and in as the datasheets give them")
struct Type2CommandTranscriptTests {
    static let sixteen = "03 00 FE 00 00 00 00 00 00 00 00 00 00 00 00 00"

    @Test("READ 30 AA answers 16 bytes")
    func read() async throws {
        let data = try await withTranscript(.ntag215, [.send("30 04", answer: Self.sixteen)]) {
            try await $0.read(page: 4)
        }
        #expect(data == [UInt8](commandHex: Self.sixteen))
    }

    @Test("READ past the last readable page is refused before anything is sent")
    func readOutOfRange() async throws {
        let transport = TranscriptTransport(steps: [])
        let tag = try Type2Commands(transport: transport, chip: .ntag213)
        await #expect(throws: TagCommandError.self) { _ = try await tag.read(page: 0x2D) }
        #expect(await transport.problems == [])
    }

    @Test("A short READ answer is an invalid answer that says where it ends")
    func shortRead() async throws {
        let transport = TranscriptTransport(steps: [.send("30 04", answer: "03 00 FE")])
        let tag = try Type2Commands(transport: transport, chip: .ntag215)
        await #expect(
            throws: TagCommandError.invalidAnswer(
                command: "READ", bytes: [0x03, 0x00, 0xFE], offset: 3, expected: "16 data bytes")
        ) {
            _ = try await tag.read(page: 4)
        }
    }

    @Test("FAST_READ 3A SS EE is split to the reader's frame limit (60 bytes = 15 pages)")
    func fastReadSplits() async throws {
        let pages = { (count: Int) in String(repeating: "AA BB CC DD ", count: count) }
        let data = try await withTranscript(
            .ntag215, maximumFrameLength: 60,
            [
                .send("3A 04 12", answer: pages(15)), .send("3A 13 21", answer: pages(15)),
                .send("3A 22 28", answer: pages(7)),
            ]
        ) { try await $0.fastRead(pages: 4...40) }
        #expect(data.count == 37 * 4)
    }

    @Test("readPages falls back to READ on the original Ultralight (no FAST_READ)")
    func readPagesWithoutFastRead() async throws {
        let data = try await withTranscript(
            .ultralight,
            [
                .send("30 04", answer: Self.sixteen), .send("30 08", answer: Self.sixteen),
            ]
        ) { try await $0.readPages(4...9) }
        #expect(data.count == 24)
    }

    @Test("WRITE A2 AA D0..D3 is acknowledged; a NAK 0 is reported with the command")
    func write() async throws {
        try await withTranscript(.ntag215, [.send("A2 04 03 00 FE 00", ack: ())]) {
            try await $0.write(page: 4, bytes: [0x03, 0x00, 0xFE, 0x00])
        }
        let transport = TranscriptTransport(steps: [.send("A2 04 01 02 03 04", nak: 0x0)])
        let tag = try Type2Commands(transport: transport, chip: .ntag215)
        await #expect(throws: TagCommandError.nak(code: 0, command: CommandName.write.rawValue)) {
            try await tag.write(page: 4, bytes: [1, 2, 3, 4])
        }
        #expect(TagCommandError.nak(code: 0, command: CommandName.write.rawValue).nakCode?.name == .invalidArgument)
    }

    @Test("COMPATIBILITY_WRITE sends A0 AA, then 16 bytes (4 data + 12 zeros), each acknowledged")
    func compatibilityWrite() async throws {
        try await withTranscript(
            .ntag213,
            [
                .send("A0 05", ack: ()), .send("01 02 03 04 00 00 00 00 00 00 00 00 00 00 00 00", ack: ()),
            ]
        ) { try await $0.compatibilityWrite(page: 5, bytes: [1, 2, 3, 4]) }
    }

    @Test("GET_VERSION 60 answers 8 bytes")
    func getVersion() async throws {
        let version = try await withTranscript(.ntag216, [.send("60", answer: "00 04 04 02 01 00 13 03")]) {
            try await $0.getVersion()
        }
        #expect(try GetVersionInfo(bytes: version).storageSize == 0x13)
    }

    @Test("READ_SIG 3C 00 answers the 32-byte signature")
    func readSignature() async throws {
        let signature = "1BA06985BC35E5D6E35F942159BE6B9AC9FAC2A42844DF9FAD9EEB579652928D"
        let bytes = try await withTranscript(.ntag215, [.send("3C 00", answer: signature)]) {
            try await $0.readSignature()
        }
        #expect(bytes == [UInt8](commandHex: signature))
    }

    @Test("PWD_AUTH 1B P0..P3 answers PACK, checked against the expected one")
    func passwordAuthenticate() async throws {
        let pack = try await withTranscript(.ntag215, [.send("1B FF FF FF FF", answer: "00 00")]) {
            try await $0.authenticate(password: [0xFF, 0xFF, 0xFF, 0xFF], expectedPACK: [0, 0])
        }
        #expect(pack == [0, 0])
        let transport = TranscriptTransport(steps: [.send("1B 12 34 56 78", answer: "AB CD")])
        let tag = try Type2Commands(transport: transport, chip: .ntag215)
        await #expect(throws: TagCommandError.packMismatch(expected: [0xAB, 0xCE], received: [0xAB, 0xCD])) {
            try await tag.authenticate(password: [0x12, 0x34, 0x56, 0x78], expectedPACK: [0xAB, 0xCE])
        }
    }

    @Test("A wrong password reselects, reads AUTHLIM from ACCESS and reports the remaining attempts")
    func wrongPasswordReportsRemainingAttempts() async throws {
        let access = "03 05 00 00 00 00 00 00 00 00 00 00 04 47 5E 95"  // READ 84: CFG1 (AUTHLIM 3), PWD, PACK, page 0
        let transport = TranscriptTransport(steps: [
            .send("1B 11 22 33 44", nak: 0x0), .reselect, .send("30 84", answer: access),
        ])
        let tag = try Type2Commands(transport: transport, chip: .ntag215)
        await #expect(throws: TagCommandError.authenticationFailed(remainingAttempts: .atMost(2))) {
            try await tag.authenticate(password: [0x11, 0x22, 0x33, 0x44])
        }
        #expect(await transport.problems == [])
    }

    @Test("NAK 4 to PWD_AUTH means the limit is reached: no attempts remain")
    func exhaustedLimit() async throws {
        let transport = TranscriptTransport(steps: [.send("1B 11 22 33 44", nak: 0x4), .reselect])
        let tag = try Type2Commands(transport: transport, chip: .ntag213)
        await #expect(throws: TagCommandError.authenticationFailed(remainingAttempts: .exhausted)) {
            try await tag.authenticate(password: [0x11, 0x22, 0x33, 0x44])
        }
        #expect(await transport.problems == [])
    }

    @Test("When ACCESS is read-protected the remaining attempts are unknown")
    func unknownRemainingAttempts() async throws {
        let transport = TranscriptTransport(steps: [
            .send("1B 11 22 33 44", nak: 0x0), .reselect, .send("30 2A", nak: 0x0), .reselect,
        ])
        let tag = try Type2Commands(transport: transport, chip: .ntag213)
        await #expect(throws: TagCommandError.authenticationFailed(remainingAttempts: .unknown)) {
            try await tag.authenticate(password: [0x11, 0x22, 0x33, 0x44])
        }
        #expect(await transport.problems == [])
    }

    @Test("READ_CNT 39 02 answers the NFC counter LSB first")
    func readNFCCounter() async throws {
        let count = try await withTranscript(.ntag213, [.send("39 02", answer: "31 3F 00")]) {
            try await $0.readNFCCounter()
        }
        #expect(count == 0x3F31)
    }

    @Test("EV1: READ_CNT 39 nn, INCR_CNT A5 nn v0..v3 and CHECK_TEARING_EVENT 3E nn")
    func ev1Counters() async throws {
        try await withTranscript(
            .ultralightEV1MF0UL11,
            [
                .send("A5 01 05 01 00 00", ack: ()), .send("39 01", answer: "05 01 00"), .send("3E 01", answer: "BD"),
            ]
        ) { tag in
            try await tag.incrementCounter(1, by: 0x105)
            #expect(try await tag.readCounter(1) == 0x105)
            let flag = try await tag.checkTearingEvent(1)
            #expect(flag.rawValue == 0xBD && flag.isValid)
        }
    }

    @Test("Commands a chip does not have are refused without a frame")
    func notSupported() async throws {
        let transport = TranscriptTransport(steps: [])
        let ntag = try Type2Commands(transport: transport, chip: .ntag215)
        await #expect(
            throws: TagCommandError.notSupported(command: CommandName.incrementCounter.rawValue, chip: .ntag215)
        ) {
            try await ntag.incrementCounter(2, by: 1)
        }
        let ultralight = try Type2Commands(transport: transport, chip: .ultralight)
        await #expect(
            throws: TagCommandError.notSupported(command: CommandName.readSignature.rawValue, chip: .ultralight)
        ) {
            _ = try await ultralight.readSignature()
        }
        #expect(throws: TagCommandError.self) { _ = try Type2Commands(transport: transport, chip: .classic1k) }
    }

    @Test("send() returns data or ACK and decodes NAK codes")
    func rawSend() async throws {
        let transport = TranscriptTransport(steps: [
            .send("30 00", answer: Self.sixteen), .send("A2 03 E1 10 3E 00", ack: ()),
            .send("A2 00 00 00 00 00", nak: 0x0),
        ])
        let tag = try Type2Commands(transport: transport, chip: .ntag215)
        #expect(try await tag.send([0x30, 0x00]).bytes.count == 16)
        #expect(try await tag.send([0xA2, 0x03, 0xE1, 0x10, 0x3E, 0x00]) == .ack)
        await #expect(throws: TagCommandError.nak(code: 0, command: CommandName.write.rawValue)) {
            _ = try await tag.send([0xA2, 0, 0, 0, 0, 0])
        }
        #expect(await transport.problems == [])
    }
}

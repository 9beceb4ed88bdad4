import NFCChips
import NFCTags
import Testing

/// The ISO/IEC 7816-4 §5.1 encodings of ``APDU``: one transcript per case, and decoding
/// what was encoded gives the same APDU back for any header, data and Ne.
@Suite("APDU: the four ISO 7816-4 cases, short and extended")
struct APDUTests {
    @Test(
        "each case encodes as ISO/IEC 7816-4 §5.1 writes it",
        arguments: [
            // (data length, Ne, forced extended, expected bytes after the header, case)
            (0, nil, false, "", APDUCase.case1),
            (0, nil, true, "", .case1),
            (0, 1, false, "01", .case2Short),
            (0, 256, false, "00", .case2Short),
            (0, 257, false, "00 01 01", .case2Extended),
            (0, 65536, false, "00 00 00", .case2Extended),
            (0, 16, true, "00 00 10", .case2Extended),
            (2, nil, false, "02 A0 A1", .case3Short),
            (2, nil, true, "00 00 02 A0 A1", .case3Extended),
            (2, 256, false, "02 A0 A1 00", .case4Short),
            (2, 65536, false, "00 00 02 A0 A1 00 00", .case4Extended),
            (2, 300, false, "00 00 02 A0 A1 01 2C", .case4Extended),
        ] as [(Int, Int?, Bool, String, APDUCase)])
    func transcript(dataLength: Int, ne: Int?, extended: Bool, body: String, isoCase: APDUCase) throws {
        let data = (0..<dataLength).map { UInt8(0xA0 + $0) }
        let apdu = try APDU(
            cla: 0x00, ins: 0xB0, p1: 0x01, p2: 0x02, data: data, expectedResponseLength: ne, extendedLength: extended)
        #expect(apdu.bytes == [0x00, 0xB0, 0x01, 0x02] + [UInt8](commandHex: body))
        #expect(apdu.isoCase == isoCase)
        #expect(try APDU(bytes: apdu.bytes) == apdu)
    }

    @Test("case 3E and 4E with 300 bytes of data: 00 01 2C before the data")
    func longData() throws {
        let data = [UInt8](repeating: 0x5A, count: 300)
        let apdu = try APDU(cla: 0x00, ins: 0xD6, p1: 0, p2: 0, data: data)
        #expect(apdu.bytes.prefix(7) == [0x00, 0xD6, 0x00, 0x00, 0x00, 0x01, 0x2C])
        #expect(apdu.bytes.count == 7 + 300 && apdu.isoCase == .case3Extended)
        let four = try APDU(cla: 0x00, ins: 0xD6, p1: 0, p2: 0, data: data, expectedResponseLength: 2)
        #expect(four.bytes.suffix(2) == [0x00, 0x02] && four.isoCase == .case4Extended)
    }

    @Test("decode(encode(x)) == x for random headers, data lengths up to 65535 and Ne up to 65536")
    func roundTrip() throws {
        var random = SystemRandomNumberGenerator()
        let iso = ChipTables.iso7816
        for _ in 0..<400 {
            let length =
                [
                    0, 1, Int.random(in: 1...iso.shortMaximumNc, using: &random), iso.shortMaximumNc,
                    iso.shortMaximumNc + 1, Int.random(in: 1...iso.extendedMaximumNc, using: &random),
                ].randomElement(using: &random) ?? 0
            let ne: Int? =
                [
                    nil, 1, iso.shortMaximumNe, iso.shortMaximumNe + 1, iso.extendedMaximumNe,
                    Int.random(in: 1...iso.extendedMaximumNe, using: &random),
                ].randomElement(using: &random) ?? nil
            let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let apdu = try APDU(
                cla: .random(in: 0...255, using: &random), ins: .random(in: 0...255, using: &random),
                p1: .random(in: 0...255, using: &random), p2: .random(in: 0...255, using: &random),
                data: data, expectedResponseLength: ne, extendedLength: Bool.random(using: &random))
            let decoded = try APDU(bytes: apdu.bytes)
            #expect(decoded == apdu, "\(apdu.bytes.prefix(12).hexString())…")
            if decoded != apdu { return }
        }
    }

    @Test(
        "malformed APDUs are refused: short header, Lc that does not match, extended Lc 0000, data or Ne out of range")
    func malformed() {
        for bytes in [
            "00 A4 04", "00 A4 04 00 07 D2 76", "00 D6 00 00 00 00", "00 D6 00 00 00 00 00 01",
            "00 D6 00 00 00 00 02 AA",
        ] {
            #expect(throws: TagCommandError.self, "\(bytes)") { try APDU(bytes: [UInt8](commandHex: bytes)) }
        }
        #expect(throws: TagCommandError.self) { try APDU(cla: 0, ins: 0, p1: 0, p2: 0, expectedResponseLength: 0) }
        #expect(throws: TagCommandError.self) { try APDU(cla: 0, ins: 0, p1: 0, p2: 0, expectedResponseLength: 65537) }
        #expect(throws: TagCommandError.self) {
            try APDU(cla: 0, ins: 0, p1: 0, p2: 0, data: [UInt8](repeating: 0, count: 65536))
        }
    }

    @Test("status words take their meaning from datasheets/iso7816.json, exactly or by SW1")
    func statusWords() throws {
        let ok = try #require(APDUResponse(bytes: [0x01, 0x90, 0x00]))
        #expect(ok.data == [0x01] && ok.isSuccess && ok.status?.name == .normalProcessing && ok.statusWordHex == "9000")
        #expect(APDUResponse(data: [], sw1: 0x91, sw2: 0x00).isSuccess)
        #expect(APDUResponse(data: [], sw1: 0x61, sw2: 0x10).status?.name == .bytesAvailable)
        #expect(APDUResponse(data: [], sw1: 0x6C, sw2: 0x0A).status?.name == .wrongLe)
        #expect(APDUResponse(data: [], sw1: 0x62, sw2: 0x82).status?.kind == .warning)
        #expect(APDUResponse(data: [], sw1: 0x63, sw2: 0xC2).status?.name == .warningMemoryChanged)
        #expect(APDUResponse(data: [], sw1: 0x6A, sw2: 0x82).status?.name == .fileNotFound)
        #expect(
            APDUResponse(data: [], sw1: 0x6A, sw2: 0x86).meaning
                == ChipTables.iso7816.statusWords[.incorrectP1P2].meaning)
        #expect(APDUResponse(data: [], sw1: 0x6A, sw2: 0x84).status == nil)
        #expect(!APDUResponse(data: [], sw1: 0x6D, sw2: 0x00).isSuccess)
        #expect(APDUResponse(bytes: [0x90]) == nil)
    }
}

/// ``ISO7816Commands`` over a transcript: GET RESPONSE after `61xx`, one Le retry after
/// `6Cxx`, and the refusal of an APDU longer than one reader exchange.
@Suite("ISO7816Commands: 61xx, 6Cxx and the exchange limit, transcript by transcript")
struct ISO7816CommandsTests {
    static let isoDEP = TagTarget(
        uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66], atqa: 0x0344, sak: 0x20,
        ats: [0x06, 0x75, 0x77, 0x81, 0x02, 0x80])

    func run(
        _ apdu: String, _ steps: [TranscriptStep], maximumFrameLength: Int = 252,
        maximumAnswerLength: Int = .max
    ) async throws -> APDUResponse {
        let transport = TranscriptTransport(
            target: Self.isoDEP, maximumFrameLength: maximumFrameLength,
            maximumAnswerLength: maximumAnswerLength, steps: steps)
        let answer = try await ISO7816Commands(transport: transport).send(try APDU(bytes: [UInt8](commandHex: apdu)))
        #expect(await transport.problems == [])
        return answer
    }

    @Test("61xx: GET RESPONSE 00 C0 00 00 xx until 9000, the parts joined")
    func getResponse() async throws {
        let answer = try await run(
            "00 B0 00 00 00",
            [
                .send("00 B0 00 00 00", .standard, answer: "01 02 61 03"),
                .send("00 C0 00 00 03", .standard, answer: "03 04 05 61 00"),
                .send("00 C0 00 00 00", .standard, answer: "06 90 00"),
            ])
        #expect(answer == APDUResponse(data: [1, 2, 3, 4, 5, 6], sw1: 0x90, sw2: 0x00))
    }

    @Test("61 00 on a reader that brings back 250 bytes: GET RESPONSE asks for 248, then for the rest")
    func getResponseWithinTheReader() async throws {
        let part = String(repeating: "AB ", count: 248)
        let answer = try await run(
            "00 B0 00 00 02",
            [
                .send("00 B0 00 00 02", .standard, answer: "01 02 61 00"),
                .send("00 C0 00 00 F8", .standard, answer: part + "61 08"),
                .send("00 C0 00 00 08", .standard, answer: "01 02 03 04 05 06 07 08 90 00"),
            ], maximumAnswerLength: 250)
        #expect(answer.data.count == 2 + 248 + 8 && answer.isSuccess)
    }

    @Test(
        "an answer lost on a reader that brings back 250 bytes, to an APDU asking for 256: the error says to ask for 248"
    )
    func lostLongAnswer() async throws {
        let transport = TranscriptTransport(
            target: Self.isoDEP, maximumAnswerLength: 250,
            steps: [
                .send("00 B0 00 00 00", .standard, fails: .timeout),
                .send("00 B0 00 00 F0", .standard, fails: .timeout),
            ])
        let commands = ISO7816Commands(transport: transport)
        await #expect(
            throws: TagCommandError.invalidArgument(
                """
                the answer to this APDU may be 256 bytes and SW1 SW2, and no answer came: \
                the reader brings back at most 250 bytes in one exchange; ask for at most 248 (Le)
                """)
        ) {
            _ = try await commands.send(try APDU(bytes: [0x00, 0xB0, 0x00, 0x00, 0x00]))
        }
        // Asking for what the reader carries, a silence stays a silence.
        await #expect(throws: TagCommandError.transport(.timeout)) {
            _ = try await commands.send(try APDU(bytes: [0x00, 0xB0, 0x00, 0x00, 0xF0]))
        }
        #expect(await transport.problems == [])
    }

    @Test("6Cxx: the same APDU once more with Le = xx; a second 6Cxx is returned as it is")
    func wrongLe() async throws {
        let answer = try await run(
            "00 B0 07 F6 14",
            [
                .send("00 B0 07 F6 14", .standard, answer: "6C 0A"),
                .send("00 B0 07 F6 0A", .standard, answer: "00 01 02 03 04 05 06 07 08 09 90 00"),
            ])
        #expect(answer.data.count == 10 && answer.isSuccess)
        let again = try await run(
            "00 B0 07 F6 14",
            [
                .send("00 B0 07 F6 14", .standard, answer: "6C 0A"),
                .send("00 B0 07 F6 0A", .standard, answer: "6C 05"),
            ])
        #expect(again.status?.name == .wrongLe)
    }

    @Test(
        "a case-3 APDU answered 6Cxx comes back as case 4 with Le = xx; an error status word is an answer, not a throw")
    func caseThreeRetry() async throws {
        let answer = try await run(
            "00 A4 04 00 02 E1 03",
            [
                .send("00 A4 04 00 02 E1 03", .standard, answer: "6C 02"),
                .send("00 A4 04 00 02 E1 03 02", .standard, answer: "AA BB 6A 82"),
            ])
        #expect(answer == APDUResponse(data: [0xAA, 0xBB], sw1: 0x6A, sw2: 0x82))
    }

    @Test("an APDU longer than one exchange is refused before anything is sent; an answer without SW is invalid")
    func limits() async throws {
        await #expect(throws: TagCommandError.self) {
            _ = try await run("00 D6 00 00 0A 00 01 02 03 04 05 06 07 08 09", [], maximumFrameLength: 10)
        }
        await #expect(throws: TagCommandError.self) {
            _ = try await run("00 B0 00 00 01", [.send("00 B0 00 00 01", .standard, answer: "90")])
        }
    }
}

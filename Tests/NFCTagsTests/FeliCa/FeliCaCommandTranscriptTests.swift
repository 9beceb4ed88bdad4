import NFCChips
import Testing
@testable import NFCTags

/// Bytes out, bytes in for every FeliCa command, with the IDm of the emulated Lite-S and
/// the PMm of a real one (`00F1000000014300`).
@Suite("FeliCa commands: frames, answers, status flags")
struct FeliCaCommandTranscriptTests {
    static let idm = [UInt8](commandHex: "01 2E 4C 2A 31 12 0B 05")
    static let pmm = [UInt8](commandHex: "00 F1 00 00 00 01 43 00")
    static let target = TagTarget(uid: idm, atqa: 0, sak: 0)

    func commands(_ steps: [TranscriptStep]) -> (FeliCaCommands, TranscriptTransport) {
        let transport = TranscriptTransport(target: Self.target, steps: steps)
        return (FeliCaCommands(transport: transport, idm: Self.idm, pmm: Self.pmm), transport)
    }

    func expectPlayed(_ transport: TranscriptTransport) async {
        #expect(await transport.problems.isEmpty)
    }

    @Test("Polling for 12FC with the system code asked for: IDm, PMm, system code")
    func polling() async throws {
        let (felica, transport) = commands([
            .send(
                "06 00 12 FC 01 00", .standard,
                answer: "14 01 012E4C2A31120B05 00F1000000014300 12 FC")
        ])
        let answer = try await felica.polling(systemCode: 0x12FC, requestCode: 1)
        #expect(answer.idm == Self.idm)
        #expect(answer.pmm == Self.pmm)
        #expect(answer.systemCode == 0x12FC)
        await expectPlayed(transport)
    }

    @Test("Polling refuses a time-slot count Polling cannot carry, before sending")
    func pollingSlots() async {
        let (felica, transport) = commands([])
        await #expect(throws: TagCommandError.self) { _ = try await felica.polling(timeSlots: 2) }
        await expectPlayed(transport)
    }

    @Test("Read Without Encryption of one block: the ACR122T manual's frame and answer")
    func readOneBlock() async throws {
        // ACR122T API §7.3: `10 06 IDm 01 09 01 01 80 00` → `1D 07 IDm 00 00 01` + 16 bytes.
        let data = [UInt8](0..<16)
        let (felica, transport) = commands([
            .send(
                [UInt8](commandHex: "10 06 012E4C2A31120B05 01 0901 01 8000"), .standard,
                answer: .bytes([UInt8](commandHex: "1D 07 012E4C2A31120B05 00 00 01") + data))
        ])
        let blocks = try await felica.readWithoutEncryption(services: [0x0109], blocks: [FeliCaBlockElement(block: 0)])
        #expect(blocks == [data])
        await expectPlayed(transport)
    }

    @Test("Read of several blocks and a block number past 255 (a three-byte element)")
    func readElements() async throws {
        let zero = [UInt8](repeating: 0, count: 16)
        let one = [UInt8](repeating: 1, count: 16)
        let (felica, transport) = commands([
            .send(
                [UInt8](commandHex: "13 06 012E4C2A31120B05 01 0B00 02 8001 002301"), .standard,
                answer: .bytes([UInt8](commandHex: "2D 07 012E4C2A31120B05 00 00 02") + zero + one))
        ])
        let blocks = try await felica.readWithoutEncryption(
            services: [0x000B], blocks: [FeliCaBlockElement(block: 1), FeliCaBlockElement(block: 0x0123)])
        #expect(blocks == [zero, one])
        await expectPlayed(transport)
    }

    @Test("a status-flag error is typed with both flags and the command")
    func statusError() async {
        let (felica, transport) = commands([
            .send("10 06 012E4C2A31120B05 01 0B00 01 8081", .standard, answer: "0C 07 012E4C2A31120B05 01 A8")
        ])
        await #expect(throws: TagCommandError.feliCaStatus(flag1: 0x01, flag2: 0xA8, command: "ReadWithoutEncryption"))
        {
            _ = try await felica.readWithoutEncryption(services: [0x000B], blocks: [FeliCaBlockElement(block: 0x81)])
        }
        await expectPlayed(transport)
    }

    @Test("Write Without Encryption: block list, then the data; the answer is the status flags")
    func write() async throws {
        let data = [UInt8](repeating: 0xAB, count: 16)
        let (felica, transport) = commands([
            .send(
                [UInt8](commandHex: "20 08 012E4C2A31120B05 01 0900 01 8001") + data, .standard,
                answer: .bytes([UInt8](commandHex: "0C 09 012E4C2A31120B05 00 00")))
        ])
        try await felica.writeWithoutEncryption(
            services: [0x0009], blocks: [FeliCaBlockElement(block: 1)], data: [data])
        await expectPlayed(transport)
    }

    @Test("Request Service, Request Response and Request System Code")
    func requests() async throws {
        let (felica, transport) = commands([
            .send("0F 02 012E4C2A31120B05 02 0B00 4811", .standard, answer: "0F 03 012E4C2A31120B05 02 0000 FFFF"),
            .send("0A 04 012E4C2A31120B05", .standard, answer: "0B 05 012E4C2A31120B05 00"),
            .send("0A 0C 012E4C2A31120B05", .standard, answer: "0F 0D 012E4C2A31120B05 02 0003 FE00"),
        ])
        #expect(try await felica.requestService([0x000B, 0x1148]) == [0x0000, 0xFFFF])
        #expect(try await felica.requestResponse() == 0)
        #expect(try await felica.requestSystemCode() == [0x0003, 0xFE00])
        await expectPlayed(transport)
    }

    @Test("Search Service Code walks the system: an area (code and end), services, then FFFF")
    func searchServiceCode() async throws {
        let (felica, transport) = commands([
            .send("0C 0A 012E4C2A31120B05 0000", .standard, answer: "0E 0B 012E4C2A31120B05 0000 FEFF"),
            .send("0C 0A 012E4C2A31120B05 0100", .standard, answer: "0C 0B 012E4C2A31120B05 0910"),
            .send("0C 0A 012E4C2A31120B05 0200", .standard, answer: "0C 0B 012E4C2A31120B05 FFFF"),
        ])
        #expect(try await felica.nodes() == [.area(0x0000, end: 0xFFFE), .service(0x1009)])
        await expectPlayed(transport)
    }

    @Test("an answer from another card, with a wrong code or a wrong LEN is refused")
    func wrongAnswers() async {
        let (felica, transport) = commands([
            .send("0A 04 012E4C2A31120B05", .standard, answer: "0B 05 0000000000000000 00"),
            .send("0A 04 012E4C2A31120B05", .standard, answer: "0B 07 012E4C2A31120B05 00"),
            .send("0A 04 012E4C2A31120B05", .standard, answer: "0C 05 012E4C2A31120B05 00"),
        ])
        for expected in [2, 1, 0] {
            do {
                _ = try await felica.requestResponse()
                Issue.record("accepted a wrong answer")
            } catch {
                guard case .invalidAnswer(_, _, let offset, _) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(offset == expected)
            }
        }
        await expectPlayed(transport)
    }

    @Test("the raw command gets LEN added and removed")
    func raw() async throws {
        let (felica, transport) = commands([
            .send("0A 04 012E4C2A31120B05", .standard, answer: "0B 05 012E4C2A31120B05 00")
        ])
        #expect(try await felica.send([0x04] + Self.idm) == [0x05] + Self.idm + [0x00])
        await expectPlayed(transport)
    }
}

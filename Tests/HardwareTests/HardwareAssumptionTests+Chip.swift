import Foundation
import NFCTagKit
import Testing

extension HardwareInTheLoop.Assumptions {
    /// P1: the CIU's TxMode (6302) and RxMode (6303) hold what the PN532 firmware sets —
    /// after libnfc's initiator set-up and after a type A activation — as the emulator's
    /// register file does. libnfc's API has no register read: the same `pn53x-tamashell`
    /// script (ReadRegister `06 6302 6303`) runs on the real reader and on its emulated twin.
    /// With `NFC_TEST_JUST_POWERED=1` (the reader was plugged in or powered on just before
    /// the run, and nothing opened it since) it also compares what libnfc's own first
    /// ReadRegister of the two read during the open (the power-up values, from the
    /// `LIBNFC_LOG_LEVEL=3` log).
    @Test(
        "P1 TxMode / RxMode read as the emulator's after libnfc's set-up and after activation (ReadRegister 6302 6303)")
    func ciuModeRegisters() async throws {
        let script = ["06 63 02 63 03", "4A 01 00", "06 63 02 63 03"]
        let twin = try await EmulatedTwin.ofRealTag(kind: HardwareBench.kindUnderTest)
        let claim = try twin.tamaShell(script, logLevel: 3)
        try #require(
            claim.steps.count == 3 && claim.steps.allSatisfy { $0.answer != nil }, "the emulator: \(claim.steps)")
        let reader = try RealReader.required(for: "P1")
        let seen = try reader.tamaShell(script, logLevel: 3)
        print("[hil] P1 real: \(seen.steps)  emulator: \(claim.steps)")
        try #require(
            seen.steps.count == 3,
            "the real reader ran \(seen.steps.count) of 3 commands: \(seen.run.output) \(seen.run.standardError)")
        #expect(
            seen.steps[0].outcome == claim.steps[0].outcome,
            "P1 disproved: after libnfc's initiator set-up TxMode RxMode read \(seen.steps[0].outcome) on the real reader, the emulator claims \(claim.steps[0].outcome)"
        )
        #expect(
            seen.steps[2].outcome == claim.steps[2].outcome,
            "P1 disproved: after InListPassiveTarget TxMode RxMode read \(seen.steps[2].outcome) on the real reader, the emulator claims \(claim.steps[2].outcome)"
        )
        let firstRead = LibNFCLog(seen.run.standardError).firstAnswer(toCommand: 0x06)
        print(
            "[hil] P1 libnfc's first ReadRegister during the open: \(firstRead.map { "\($0.command.hexString()) → \($0.answer.hexString())" } ?? "not in the log")"
        )
        guard HardwareBench.personSetUp("NFC_TEST_JUST_POWERED") else { return }
        let claimedFirst = LibNFCLog(claim.run.standardError).firstAnswer(toCommand: 0x06)
        #expect(
            firstRead != nil && firstRead == claimedFirst,
            "P1 disproved at power-up: libnfc's first ReadRegister answered \(firstRead?.answer.hexString() ?? "nothing") on the freshly powered reader, the emulator \(claimedFirst?.answer.hexString() ?? "nothing")"
        )
    }

    /// P2: InDataExchange and InCommunicateThru clear TxAuto's CAOn bit (6305, bit 3), as
    /// the emulator does. The script writes `4B` to TxAuto before each exchange, reads it
    /// after, and writes back what the real reader held before.
    @Test("P2 InDataExchange and InCommunicateThru clear TxAuto's CAOn bit as the emulator does")
    func txAutoCAOn() async throws {
        func script(restoring original: UInt8) -> [String] {
            [
                "4A 01 00", "08 63 05 4B", "06 63 05", "40 01 30 00", "06 63 05",
                "08 63 05 4B", "42 30 00", "06 63 05", String(format: "08 63 05 %02X", original),
            ]
        }
        let registerReads = [2, 4, 7]
        let twin = try await EmulatedTwin.ofRealTag(kind: HardwareBench.kindUnderTest)
        let before = try twin.tamaShell(["06 63 05"]).step(0)?.answer?.last
        let claim = try twin.tamaShell(script(restoring: try #require(before)))
        try #require(claim.steps.count == 9, "the emulator: \(claim.steps)")
        let caOn: UInt8 = 0x08
        // The emulator's own claim, as the article states it: set by the write, cleared by each exchange.
        #expect(
            claim.steps[2].answer?.last.map { $0 & caOn != 0 } == true,
            "the emulator lost CAOn before any exchange: \(claim.steps)")
        #expect(
            claim.steps[4].answer?.last.map { $0 & caOn == 0 } == true,
            "the emulator kept CAOn over InDataExchange: \(claim.steps)")
        let reader = try RealReader.required(for: "P2")
        let original = try #require(
            try reader.tamaShell(["06 63 05"]).step(0)?.answer?.last, "TxAuto could not be read")
        let seen = try reader.tamaShell(script(restoring: original))
        print("[hil] P2 TxAuto was \(String(format: "%02x", original)); real: \(seen.steps)  emulator: \(claim.steps)")
        try #require(seen.steps.count == 9, "the real reader ran \(seen.steps.count) of 9 commands: \(seen.run.output)")
        for index in registerReads {
            #expect(
                seen.steps[index].answer?.last == claim.steps[index].answer?.last,
                "P2 disproved: after \(seen.steps[index - 1].command.hexString()) TxAuto reads \(seen.steps[index].outcome) on the real reader, the emulator claims \(claim.steps[index].outcome)"
            )
        }
    }

    /// P6 (and the two-tag half of P4): two Type 2 tags answer one raw 7-bit WUPA together
    /// (the same ATQA, no collision), then their CL1 ANTICOLLISION collides, and libnfc
    /// reports it as for the emulator's two tags; libnfc's listing finds both. Needs two
    /// Type 2 tags whose UIDs differ in bytes 1–2 (the first cascade level): a person sets
    /// `NFC_TEST_TWO_TAGS=1` after placing them.
    @Test("P6 two tags in the field: a raw ANTICOLLISION collides as on the emulator, and nfc-list finds both")
    func twoTagsCollide() throws {
        // The field off and on (every tag IDLE), CRC off and a 7-bit frame for WUPA, whole
        // bytes for ANTICOLLISION CL1, then CRC back on as libnfc left it.
        let script = [
            "32 01 00", "32 01 01", "08 63 02 00 63 03 00 63 3D 07", "42 52", "08 63 3D 00", "42 93 20",
            "08 63 02 80 63 03 80",
        ]
        let (wakeUp, anticollision) = (3, 5)
        // Two NTAG215 whose UIDs differ in the first cascade level, as two real tags' mostly do.
        let twin = try EmulatedTwin(
            of: HardwareBench.kindUnderTest, tags: ["ntag215", "ntag215"],
            uids: [[0x04, 0xE0, 0x5A, 0x11, 0x22, 0x33, 0x44], [0x04, 0x17, 0xC3, 0x11, 0x22, 0x33, 0x45]])
        let claim = try twin.tamaShell(script)
        let claimList = try LibNFCToolRun(
            "nfc-list", [], device: twin.connectionString, logLevel: 0, environment: twin.environment)
        #expect(
            claimList.output.contains("2 ISO14443A passive target(s) found"),
            "the emulator with two tags: \(claimList.output)")
        try #require(claim.steps.count == script.count, "the emulator: \(claim.steps)")
        #expect(
            claim.steps[anticollision].answer == nil, "the emulator reported no collision of two UIDs: \(claim.steps)")
        let reader = try RealReader.required(for: "P6")
        guard HardwareBench.personSetUp("NFC_TEST_TWO_TAGS") else {
            try Test.cancel("P6 needs two Type 2 tags on the reader: place them, then set NFC_TEST_TWO_TAGS=1")
        }
        let seen = try reader.tamaShell(script)
        let list = try LibNFCToolRun("nfc-list", [], device: reader.connectionString, logLevel: 0)
        print(
            "[hil] P6 real: \(seen.steps)  emulator: \(claim.steps)  nfc-list: \(list.output.split(separator: "\n").filter { $0.contains("found") })"
        )
        try #require(
            seen.steps.count == script.count,
            "the real reader ran \(seen.steps.count) of \(script.count) commands: \(seen.run.output)")
        #expect(
            list.output.contains("2 ISO14443A passive target(s) found"),
            "P4 disproved: libnfc's listing of two tags: \(list.output)")
        if seen.steps[anticollision].answer?.count == 6 {
            try Test.cancel(
                "the two tags share their first cascade level (\(seen.steps[anticollision].outcome)): use two whose UIDs differ in bytes 1–2"
            )
        }
        #expect(
            seen.steps[wakeUp].outcome == claim.steps[wakeUp].outcome,
            "P6 disproved: two tags answer WUPA with \(seen.steps[wakeUp].outcome) on the real reader, \(claim.steps[wakeUp].outcome) on the emulator"
        )
        #expect(
            seen.steps[anticollision].outcome == claim.steps[anticollision].outcome,
            "P6 disproved: the CL1 ANTICOLLISION of two tags gives \(seen.steps[anticollision].outcome) on the real reader, the emulator claims \(claim.steps[anticollision].outcome)"
        )
    }

    /// P7, the part a host can see: a Type 4 tag's activation answer carries its ATS, and
    /// a READ BINARY of 253 bytes (one I-block filling the FSD of 256 the emulator announces
    /// in its RATS) ends with the same status word on the real reader as on the emulator. The RATS
    /// byte itself never reaches the host: only a sniffer (Proxmark3 `hf 14a sniff`) sees
    /// `E0 80`.
    @Test("P7 a Type 4 tag is activated with its ATS and answers a READ BINARY that fills FSD 256, as on the emulator")
    func ratsAndATS() async throws {
        let script = [
            "4A 01 00", "40 01 00 A4 04 00 07 D2 76 00 00 85 01 01 00", "40 01 00 A4 00 0C 02 E1 04",
            "40 01 00 B0 00 00 FD",
        ]
        if HardwareBench.realDevice != nil {
            try await TagOnReader.on(HardwareReader(), named: "type4").require(.isoDEP, for: "P7")
        }
        // The real Type 4 tag's twin (its CC and NDEF file), or the emulator's own Type 4 tag.
        let twin = try await EmulatedTwin.ofRealTag(kind: HardwareBench.kindUnderTest, fallback: "type4")
        let claim = try twin.tamaShell(script)
        try #require(claim.steps.count == 4, "the emulator: \(claim.steps)")
        let reader = try RealReader.required(for: "P7")
        let seen = try reader.tamaShell(script)
        print("[hil] P7 real: \(seen.steps)  emulator: \(claim.steps)")
        let activation = try #require(seen.step(0)?.answer, "no tag answered InListPassiveTarget")
        // NbTg, Tg, ATQA (2), SAK, UID length, UID, then ATS length and the ATS.
        guard activation.count > 5, activation[4] & 0x20 != 0 else {
            try Test.cancel("the tag on the reader is not ISO-DEP (SAK bit 6 clear)")
        }
        let atsStart = 6 + Int(activation[5])
        #expect(
            activation.count > atsStart && Int(activation[atsStart]) == activation.count - atsStart,
            "P7 disproved: the activation answer \(activation.hexString()) carries no ATS where the emulator puts it")
        func readStatus(_ run: TamaShellRun) -> [UInt8]? { run.step(3)?.answer.map { Array($0.suffix(2)) } }
        #expect(
            readStatus(seen) == readStatus(claim),
            "P7 disproved: READ BINARY Le FD of the NDEF file ends \(seen.step(3)?.outcome ?? "nowhere") on the real reader, \(claim.step(3)?.outcome ?? "nowhere") on the emulator"
        )
    }
}

/// The frames of a `LIBNFC_LOG_LEVEL=3` log (`TX: …` / `RX: …` lines), read as PN53x
/// commands and answers whatever the driver's framing around them.
struct LibNFCLog {
    struct Exchange: Equatable {
        var command: [UInt8]
        var answer: [UInt8]
    }

    var frames: [(sent: Bool, bytes: [UInt8])] = []

    init(_ text: String) {
        for line in text.split(separator: "\n") {
            for marker in ["TX: ", "RX: "] {
                guard let range = line.range(of: marker) else { continue }
                let bytes = line[range.upperBound...].split(separator: " ").compactMap { UInt8($0, radix: 16) }
                // A UART driver logs a frame in the pieces it reads: one direction's lines in a row are one.
                if let last = frames.last, last.sent == (marker == "TX: ") {
                    frames[frames.count - 1].bytes += bytes
                } else {
                    frames.append((marker == "TX: ", bytes))
                }
            }
        }
    }

    /// The first command `code` the host sent (its data after `D4 code`) and the chip's
    /// answer (its data after `D5 code+1`, without the trailing checksum bytes of a PN53x frame).
    func firstAnswer(toCommand code: UInt8) -> Exchange? {
        for (index, frame) in frames.enumerated() where frame.sent {
            guard let command = Self.payload(frame.bytes, marker: [0xD4, code]) else { continue }
            for later in frames[(index + 1)...] where !later.sent {
                if let answer = Self.payload(later.bytes, marker: [0xD5, code &+ 1]) {
                    return Exchange(command: command, answer: answer)
                }
            }
        }
        return nil
    }

    /// The bytes after `marker`, cut at the PN53x frame's end when the frame has one
    /// (`00 00 FF LEN LCS … DCS 00`), else at an APDU status word `90 00`.
    private static func payload(_ bytes: [UInt8], marker: [UInt8]) -> [UInt8]? {
        guard bytes.count >= marker.count,
            let start = (0...(bytes.count - marker.count)).first(where: {
                Array(bytes[$0..<$0 + marker.count]) == marker
            })
        else {
            return nil
        }
        if start >= 5, bytes[start - 5..<start - 2] == [0x00, 0x00, 0xFF] {
            let end = min(bytes.count, start + Int(bytes[start - 2]))
            return Array(bytes[(start + marker.count)..<end])
        }
        var body = Array(bytes[(start + marker.count)...])
        if body.suffix(2) == [0x90, 0x00] { body.removeLast(2) }
        return body
    }
}

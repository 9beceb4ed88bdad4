import Foundation
import NFCEmulator
import NFCTagKit
import Testing
import TestSupport

extension HardwareInTheLoop {
    /// Records, on a real reader, the exchanges no public real-hardware transcript in
    /// `Tests/Transcripts` shows yet — InListPassiveTarget, InAutoPoll, InSelect, the
    /// Diagnose echo, NTAG GET_VERSION, FAST_READ, READ_SIG and READ_CNT, and (with
    /// `NFC_TEST_ALLOW_WRITE=1`, on a MIFARE Classic) an authenticated READ and a WRITE of
    /// the same bytes back — and compares the shape of each answer with the emulator's.
    /// With `NFC_TEST_TRANSCRIPT=FILE` it writes them to FILE in the `pn53x-data` layer of
    /// the transcripts format, ready to go to `Tests/Transcripts` once its `source` is filled in.
    @Suite(
        "Transcripts for what no public real-hardware log shows", .serialized, .timeLimit(.minutes(2)), .blockingCalls)
    struct Transcripts {
        @Test(
            "record the missing exchanges on a real reader (NFC_TEST_TRANSCRIPT=FILE writes them) and compare their shape with the emulator's"
        )
        func recordMissingExchanges() async throws {
            let kind = HardwareBench.kindUnderTest
            let type2 = Self.type2Script(autoPoll: kind != .pn53xUSB)
            let reader = try RealReader.required(for: "the transcript recording")
            // The twin takes the real tag's identity and state (pages, configuration,
            // counter), so that a difference is the reader's, not the test's.
            let twin = try await EmulatedTwin.ofRealTag(kind: kind)
            let claim = try twin.tamaShell(type2)
            try #require(
                claim.steps.count == type2.count && claim.steps[1].answer != nil, "the emulator: \(claim.steps)")
            var seen = try reader.tamaShell(type2)
            var what = Self.type2What(autoPoll: kind != .pn53xUSB)
            let activation = seen.step(1)?.answer ?? []
            guard activation.count > 4, activation[4] & 0x20 == 0 else {
                try Test.cancel(
                    "the recording is for a Type 2 tag (an NTAG21x) or a MIFARE Classic, not \(activation.hexString())")
            }
            if activation[4] & 0x18 != 0 {
                // SAK 08 / 18: a MIFARE Classic.
                seen = try Self.classicRun(on: reader, activation: activation)
                what = Self.classicWhat
            } else {
                try #require(
                    seen.steps.count == type2.count,
                    "the real reader ran \(seen.steps.count) of \(type2.count) commands: \(seen.run.output)")
                // GET_VERSION's product type (after the chip's status, the fixed header and the vendor): 04 for an NTAG.
                let version = seen.steps.first { $0.command == [0x42, 0x60] }?.answer ?? []
                let isNTAG = version.count > 3 && version[3] == 0x04
                // The tag's own bytes differ; how many come back does not (InListPassiveTarget aside: the UID's length).
                for (real, emulated) in zip(seen.steps, claim.steps)
                where real.command.first != 0x4A && (isNTAG || real.command.first != 0x42) {
                    #expect(
                        real.answer?.count == emulated.answer?.count,
                        "\(real.command.hexString()): \(real.outcome) on the real reader, \(emulated.outcome) on the emulator"
                    )
                }
            }
            print("[hil] transcript \(reader.connectionString): \(seen.steps)")
            if let file = HardwareBench.environment["NFC_TEST_TRANSCRIPT"], !file.isEmpty {
                let name = try scannedReaderName(reader.connectionString) ?? reader.connectionString
                try Self.transcript(seen, reader: name, what: what).write(
                    to: URL(fileURLWithPath: file), atomically: true, encoding: .utf8)
                print("[hil] transcript written to \(file)")
            }
        }

        static func type2Script(autoPoll: Bool) -> [String] {
            ["02", "4A 01 00"] + (autoPoll ? ["60 01 01 20 10", "54 01"] : [])
                + ["00 00 4E 46 43 54 61 67 4B 69 74", "42 60", "42 3A 04 07", "42 3C 00", "42 39 02"]
        }

        static func type2What(autoPoll: Bool) -> [String] {
            ["GetFirmwareVersion", "InListPassiveTarget, one type A target"]
                + (autoPoll
                    ? ["InAutoPoll, one poll of one period: ISO 14443-4A then MIFARE", "InSelect of target 1"] : [])
                + [
                    "Diagnose 00 (communication line test): the data comes back",
                    "GET_VERSION through InCommunicateThru",
                    "FAST_READ of pages 04-07", "READ_SIG", "READ_CNT of counter 2 (the NFC counter)",
                ]
        }

        static let classicWhat = [
            "InListPassiveTarget", "authenticate block 04 with key A FFFFFFFFFFFF", "READ block 04",
            "InListPassiveTarget", "authenticate block 04 with key A FFFFFFFFFFFF",
            "WRITE block 04 with the bytes it held", "READ block 04 after the WRITE",
        ]

        /// A Classic's authenticated READ of block 4, then (writes allowed) the same bytes
        /// written back: two runs, since the second needs the UID and data of the first.
        static func classicRun(on reader: RealReader, activation: [UInt8]) throws -> TamaShellRun {
            guard activation.count >= 10 else {
                try Test.cancel("the Classic's activation answer is too short: \(activation.hexString())")
            }
            let uid = Array(activation[6..<10]).hexString()
            let authenticate = "40 01 60 04 FF FF FF FF FF FF " + uid
            let read = try reader.tamaShell(["4A 01 00", authenticate, "40 01 30 04"])
            guard let block = read.step(2)?.answer, block.count == 17, block[0] == 0x00 else {
                try Test.cancel("block 04 could not be read with the transport key: \(read.steps)")
            }
            guard HardwareBench.allowsWrite else {
                print(
                    "[hil] transcript: the Classic WRITE needs NFC_TEST_ALLOW_WRITE=1 (it writes block 04's own bytes back)"
                )
                return read
            }
            let data = Array(block.dropFirst()).hexString()
            let write = try reader.tamaShell(["4A 01 00", authenticate, "40 01 A0 04 " + data, "40 01 30 04"])
            #expect(write.step(3)?.answer == block, "block 04 changed: \(write.steps)")
            var both = read
            both.steps += write.steps
            return both
        }

        /// The steps as a transcript file (`Tests/Transcripts/README.md`): one segment of
        /// `pn53x-data` exchanges, its source left for the person who recorded it.
        static func transcript(_ run: TamaShellRun, reader: String, what: [String]) throws -> String {
            let exchanges: [[String: String]] = run.steps.enumerated().map { index, step in
                [
                    "id": "step-\(index + 1)", "layer": "pn53x-data", "what": index < what.count ? what[index] : "",
                    "command": step.command.hexString(separator: " "),
                    "answer": step.answer?.hexString(separator: " ") ?? "(libnfc: \(step.error ?? "no answer"))",
                ]
            }
            let document: [String: Any] = [
                "id": "hardwaretests-recording",
                "source": "fill in: where this recording is published",
                "recorded_on": [
                    "reader": reader, "tag": "fill in",
                    "host_software": "NFCTagKit HardwareTests through libnfc's pn53x-tamashell",
                ],
                "notes":
                    "Recorded by the HardwareTests transcript scenario; answers are the data after D5 xx as pn53x_transceive returns them.",
                "segments": [["title": "recorded exchanges", "exchanges": exchanges]],
            ]
            let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
            return String(decoding: data, as: UTF8.self) + "\n"
        }
    }
}

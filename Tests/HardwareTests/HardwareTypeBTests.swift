import Foundation
import NFCEmulator
import NFCTagKit
import Testing
import TestSupport

extension HardwareInTheLoop {
    /// The type B assumptions of the DocC article "What the emulator assumes" (`TB-…`): one
    /// `pn53x-tamashell` script on the emulated `iso14443b-type4` card, then, when
    /// `NFC_TEST_DEVICE` names a reader and `NFC_TEST_TYPEB=1` says an ISO 14443-4B card lies
    /// on it, on the real card; the shapes of the answers are compared.
    @Suite("Type B assumptions, settled on a real card", .serialized, .timeLimit(.minutes(5)), .blockingCalls)
    struct TypeBAssumptions {
        /// The script: list the card, an APDU (SELECT of the master file), a REQB while the
        /// card is ACTIVE, InDeselect and a REQB to the halted card, a field reset and a REQB.
        static let script = [
            "4A 01 03 00", "40 01 00 A4 00 00 02 3F 00", "4A 01 03 00", "44 00", "4A 01 03 00",
            "32 01 00", "32 01 01", "4A 01 03 00",
        ]

        /// TB-1 (ATQB layout), TB-2 (the chip's ATTRIB gives CID 1; APDUs pass), TB-3 (an ACTIVE
        /// or halted card ignores REQB; a field reset brings it back).
        @Test(
            "TB-1 TB-2 TB-3 a B card lists with a 12-byte ATQB and CID 1, takes an APDU, ignores REQB until the field resets"
        )
        func activation() throws {
            let twin = try EmulatedTwin(of: HardwareBench.kindUnderTest, tags: [EmulatedTagFactory.typeBType4Name])
            let claim = Self.shape(try twin.tamaShell(Self.script))
            #expect(
                claim == [
                    "listed 1, ATQB 50 (12 bytes), ATTRIB_RES CID 1", "APDU answered with a status word", "listed 0",
                    "deselect 00", "listed 0", "field", "field", "listed 1, ATQB 50 (12 bytes), ATTRIB_RES CID 1",
                ], "the emulator: \(claim)")
            let reader = try RealReader.required(for: "TB-1")
            guard HardwareBench.personSetUp("NFC_TEST_TYPEB") else {
                try Test.cancel("TB-1 needs an ISO 14443-4B card on the real reader: set NFC_TEST_TYPEB=1")
            }
            let run = try reader.tamaShell(Self.script)
            let seen = Self.shape(run)
            print("[hil] TB-1..3 real: \(run.steps)  shape: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "TB-1, TB-2 or TB-3 disproved")
        }

        /// What each step says, without the card's own bytes.
        static func shape(_ run: TamaShellRun) -> [String] {
            run.steps.map { step in
                guard let answer = step.answer else { return "error" }
                switch step.command.first {
                case 0x4A:
                    guard answer.first == 1, answer.count >= 15 else { return "listed \(answer.first ?? 0)" }
                    let atqb = answer[2..<14]
                    let cid = answer[14] > 0 && answer.count > 15 ? answer[15] & 0x0F : 0
                    return
                        "listed 1, ATQB \(String(format: "%02X", atqb.first ?? 0)) (\(atqb.count) bytes), ATTRIB_RES CID \(cid)"
                case 0x40:
                    return answer.first == 0 && answer.count == 3
                        ? "APDU answered with a status word" : "APDU \(answer.hexString())"
                case 0x44: return "deselect \(answer.hexString())"
                default: return "field"
                }
            }
        }
    }
}

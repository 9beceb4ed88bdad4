import Foundation
import NFCEmulator
import NFCTagKit
import Testing
import TestSupport

extension HardwareInTheLoop {
    /// The Type 1 assumptions of the DocC article "What the emulator assumes" (`T1-…`): one
    /// `pn53x-tamashell` script on the emulated Topaz, then, when `NFC_TEST_DEVICE` names a
    /// reader and `NFC_TEST_TOPAZ=1` says a Topaz lies on it, on the real tag; the shapes of
    /// the answers are compared (a time-out shows as libnfc's error). Nothing is written.
    @Suite("Type 1 assumptions, settled on a real tag", .serialized, .timeLimit(.minutes(5)), .blockingCalls)
    struct Type1Assumptions {
        /// List the tag; RID short and long; READ of the CC's first byte; RALL; READ8 and RSEG
        /// of segment 1 (the firmware's gaps); a write to the UID block (refused).
        static let script = [
            "4A 01 04", "40 01 78", "40 01 78 00 00 00 00 00 00", "40 01 01 08", "40 01 00", "40 01 02 01",
            "40 01 10 10", "40 01 53 00 FF",
        ]

        /// T1-1 (the listing, the short form and its answers), T1-2 (the UID block refuses a
        /// write), T1-3 (READ8 and RSEG past segment 0 time out).
        @Test(
            "T1-1 T1-2 T1-3 a Topaz lists as a Jewel, answers the short form with its data, and the firmware's gaps time out"
        )
        func shortForm() throws {
            let twin = try EmulatedTwin(of: HardwareBench.kindUnderTest, tags: ["topaz"])
            let claim = Self.shape(try twin.tamaShell(Self.script))
            #expect(
                claim == [
                    "listed 1, SENS_RES 0c00", "RID 6 bytes", "RID 6 bytes", "READ 1 byte", "RALL 122 bytes",
                    "error", "error", "error",
                ], "the emulator: \(claim)")
            let reader = try RealReader.required(for: "T1-1")
            guard HardwareBench.personSetUp("NFC_TEST_TOPAZ") else {
                try Test.cancel("T1-1 needs a Topaz (Type 1 tag) on the real reader: set NFC_TEST_TOPAZ=1")
            }
            let run = try reader.tamaShell(Self.script)
            let seen = Self.shape(run)
            print("[hil] T1-1..3 real: \(run.steps)  shape: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "T1-1, T1-2 or T1-3 disproved")
        }

        /// What each step says, without the tag's own bytes.
        static func shape(_ run: TamaShellRun) -> [String] {
            run.steps.map { step in
                guard let answer = step.answer else { return "error" }
                if step.command.first == 0x4A {
                    guard answer.first == 1, answer.count >= 4 else { return "listed \(answer.first ?? 0)" }
                    return "listed 1, SENS_RES \(answer[2..<4].hexString())"
                }
                guard answer.first == 0 else { return "status \([answer.first ?? 0].hexString())" }
                let data = answer.dropFirst()
                switch step.command.dropFirst(2).first {
                case 0x78: return "RID \(data.count) bytes"
                case 0x00: return "RALL \(data.count) bytes"
                default: return "READ \(data.count) byte\(data.count == 1 ? "" : "s")"
                }
            }
        }
    }
}

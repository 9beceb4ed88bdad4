import Foundation
import NFCEmulator
import Testing
import TestSupport

extension HardwareInTheLoop {
    /// The FeliCa assumptions of the DocC article "What the emulator assumes" (`FL-…`): each
    /// runs on the emulated Lite-S, then, when `NFC_TEST_DEVICE` names a reader and
    /// `NFC_TEST_FELICA=1` says a FeliCa Lite-S lies on it, on the real card, and compares.
    @Suite("FeliCa assumptions, settled on a real card", .serialized, .timeLimit(.minutes(5)), .blockingCalls)
    struct FeliCaAssumptions {
        /// FL-1 and FL-4: `nfc-list` shows the card at 212 and 424 kbit/s, with the system code
        /// a Polling for FFFF with RC 01 gets (88B4 on a Lite-S).
        @Test("FL-1 nfc-list shows a Lite-S at both bit rates with system code 88B4")
        func feliCaSystemCode() async throws {
            let emulator = try PN532Emulator(tagNames: [EmulatedTagFactory.feliCaLiteSName])
            try emulator.start()
            let emulated = try LibNFCToolRun("nfc-list", [], device: emulator.connectionString, logLevel: 0)
            emulator.stop()
            guard emulated.launched else { try Test.cancel("libnfc-bin is not installed") }
            let claim = Self.listing(emulated.output)
            #expect(claim == ["212 kbps: SC 88  b4", "424 kbps: SC 88  b4"], "the emulator: \(emulated.output)")
            let reader = try RealReader.required(for: "FL-1")
            guard HardwareBench.personSetUp("NFC_TEST_FELICA") else {
                try Test.cancel("FL-1 needs a FeliCa Lite-S on the real reader: set NFC_TEST_FELICA=1")
            }
            let real = try LibNFCToolRun("nfc-list", [], device: reader.connectionString, logLevel: 0)
            let seen = Self.listing(real.output)
            print("[hil] FL-1 real: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "FL-1 disproved: \(real.output)")
        }

        /// `212 kbps: SC 88  b4` for each FeliCa target `nfc-list` prints.
        static func listing(_ output: String) -> [String] {
            var rate: String?
            var lines: [String] = []
            for line in output.split(separator: "\n").map(String.init) {
                if line.hasPrefix("FeliCa ("), let end = line.firstIndex(of: ")") {
                    rate = String(line[line.index(line.startIndex, offsetBy: 8)..<end])
                } else if let rate, let range = line.range(of: "System Code (SC): ") {
                    lines.append("\(rate): SC \(line[range.upperBound...].trimmingCharacters(in: .whitespaces))")
                }
            }
            return lines
        }
    }
}

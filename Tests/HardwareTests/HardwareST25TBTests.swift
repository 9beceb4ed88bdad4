import Foundation
import NFCChips
import NFCEmulator
import NFCTagKit
import Testing
import TestSupport

extension HardwareInTheLoop {
    /// The ST25TB assumptions of the DocC article "What the emulator assumes" (`ST-…`): each
    /// scenario runs through the library on the emulated `st25tb` card, then, when
    /// `NFC_TEST_DEVICE` names a reader and `NFC_TEST_ST25TB=1` says an ST25TB or SRx card
    /// lies on it, on the real card; what each saw is compared.
    @Suite("ST25TB assumptions, settled on a real card", .serialized, .timeLimit(.minutes(5)), .blockingCalls)
    struct ST25TBAssumptions {
        /// `step` on the emulated card and on the real one, compared; `expected` is what the
        /// emulated twin must see.
        static func compare(
            _ id: String, write: Bool = false, expected: [String],
            _ step: @Sendable (NFCDevice) async throws -> [String]
        ) async throws {
            let claim = try await HardwareInTheLoop.Assumptions.withEmulatedDevice(
                tags: [EmulatedTagFactory.st25tbName], step)
            #expect(claim == expected, "the emulator: \(claim)")
            _ = try RealReader.required(for: id)
            guard HardwareBench.personSetUp("NFC_TEST_ST25TB") else {
                try Test.cancel("\(id) needs an ST25TB or SRx card on the real reader: set NFC_TEST_ST25TB=1")
            }
            if write, !HardwareBench.allowsWrite {
                try Test.cancel("\(id) writes a block back as it was: set NFC_TEST_ALLOW_WRITE=1")
            }
            let seen = try await HardwareReader().withDevice(step)
            print("[hil] \(id) real: \(seen)  emulator: \(claim)")
            #expect(seen == claim, "\(id) disproved")
        }

        /// ST-1: libnfc 1.8.0's ST select finds the card after the type B poll the library
        /// sends first (a real PN532 may need the poll's analog settings).
        @Test("ST-1 after a type B poll libnfc's ST select finds the card: an 8-byte UID ending 02 D0")
        func select() async throws {
            try await Self.compare("ST-1", expected: ["found, 8 bytes, ends 02d0"]) { device in
                guard let card = try await device.selectST25TB() else { return ["not found"] }
                let uid = card.uid
                return ["found, \(uid.count) bytes, ends \(uid.suffix(2).hexString())"]
            }
        }

        /// ST-2: the memory as the table has it: 4-byte blocks and the system block; a block
        /// written back as it was reads back; a counter asked to count up keeps its value;
        /// after Completion the card is silent until the field resets.
        @Test("ST-2 4-byte blocks and system block FF; a write lands, a counter will not count up; Completion silences")
        func blocks() async throws {
            let expected = [
                "block 0: 4 bytes", "system block: 4 bytes", "written back", "counter kept", "silent after Completion",
            ]
            try await Self.compare("ST-2", write: true, expected: expected) { device in
                let session = try await TagSession.connect(on: device, timeout: .seconds(10))
                guard case .st25tb = session.target else { try Test.cancel("the card is not an ST25TB or SRx") }
                var seen: [String] = []
                seen.append("block 0: \(try await session.send([0x08, 0x00]).bytes.count) bytes")
                seen.append("system block: \(try await session.send([0x08, 0xFF]).bytes.count) bytes")
                let block = 10  // EEPROM on an ST25TB512 and the SRx 512s
                let before = try await session.send([0x08, UInt8(block)]).bytes
                _ = try? await session.send([0x09, UInt8(block)] + before)
                seen.append(try await session.send([0x08, UInt8(block)]).bytes == before ? "written back" : "changed")
                let counter = UInt8(ChipTables.st25tb.counterBlocks[0])
                let value = try await session.send([0x08, counter]).bytes
                if value != [0xFF, 0xFF, 0xFF, 0xFF] {
                    var higher = value
                    higher[0] &+= 1
                    _ = try? await session.send([0x09, counter] + higher)
                }
                seen.append(
                    try await session.send([0x08, counter]).bytes == value ? "counter kept" : "counter changed")
                _ = try? await session.send([0x0F])
                do {
                    _ = try await session.send([0x08, 0x00])
                    seen.append("answers after Completion")
                } catch {
                    seen.append("silent after Completion")
                }
                return seen
            }
        }
    }
}

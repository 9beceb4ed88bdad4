import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// `kill -9` of an `nfctag` that holds a PN532 on a UART leaves the chip at the fast speed
/// it was switched to: libnfc's tools cannot reach it at 115 200, the next `nfctag` finds it
/// and switches it back when it closes, and `nfctag reset` does that on purpose.
@Suite(
    "A killed nfctag: the PN532 left at 460 800 is found again, nothing to replug", .timeLimit(.minutes(2)),
    .blockingCalls)
struct KilledToolTests {
    /// An emulated PN532 held by `nfctag monitor`, which is then killed with SIGKILL: the
    /// chip stays at 460 800 and libnfc's claim on the port is gone.
    private static func readerLeftBehindByKill() async throws -> EmulatedReader {
        let emulator = try EmulatedReader(kind: .pn532, tags: [try Type2Tag(chip: .ntag215, uid: uid)])
        let monitor = try RunningTool(["monitor", "--json", "--device", emulator.connectionString])
        let connected = await monitor.waitForLine { $0.contains(#""event":"connected""#) }
        #expect(connected != nil, "\(monitor.standardError)")
        #expect(emulator.statistics.uartBaud == 460_800)
        #expect(await monitor.send(SIGKILL) == SIGKILL)
        #expect(emulator.statistics.uartBaud == 460_800, "SIGKILL leaves no time to switch back")
        try await waitUntilUnclaimed(emulator.uart!.devicePath)
        return emulator
    }

    private static let uid: [UInt8] = [0x04, 0x6B, 0x2F, 0x11, 0x90, 0x33, 0x80]

    /// Waits until libnfc's claim flag on the port is clear (the emulator clears the claim of
    /// a client that died once no process has the port open and the line has been idle for a second).
    private static func waitUntilUnclaimed(_ path: String) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while portClaimed(path), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!portClaimed(path), "the claim of the killed process stayed on \(path)")
    }

    private static func portClaimed(_ path: String) -> Bool {
        let descriptor = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { return false }
        return settings.c_iflag & 0x8000_0000 != 0
    }

    private static var hasNFCList: Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/nfc-list") }
    }

    @Test("kill -9: nfc-list straight after gets no answer; nfctag read works with no replug; nfc-list works after it")
    func readAfterKill() async throws {
        let emulator = try await Self.readerLeftBehindByKill()
        defer { emulator.stop() }
        if Self.hasNFCList {
            let noise = emulator.statistics.bytesAtWrongSpeed
            let before = try EmulateCommandTests.libnfcTool("nfc-list", [], device: emulator.connectionString)
            #expect(!before.contains("ISO/IEC 14443A"), "nfc-list reached a chip at 460 800: \(before)")
            #expect(emulator.statistics.bytesAtWrongSpeed > noise, "nfc-list failed for another reason: \(before)")
        }
        let read = try ToolRunner.run(["read", "--json", "--device", emulator.connectionString, "--timeout", "5"])
        #expect(read.stdout.contains("046b2f11903380"), "\(read.stdout)\(read.stderr)")
        #expect(try await emulator.chipReaches(baud: 115_200), "nfctag read left the chip at the fast speed")
        if Self.hasNFCList {
            let after = try EmulateCommandTests.libnfcTool("nfc-list", [], device: emulator.connectionString)
            #expect(after.contains("ISO/IEC 14443A"), "\(after)")
        }
    }

    @Test("kill -9, then nfctag reset: the chip is back at 115 200 and libnfc's tools reach it")
    func resetAfterKill() async throws {
        let emulator = try await Self.readerLeftBehindByKill()
        defer { emulator.stop() }
        let reset = try ToolRunner.run(["reset", "--json", "--device", emulator.connectionString])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stdout.contains(#""reset":true"#), "\(reset.stdout)")
        #expect(try await emulator.chipReaches(baud: 115_200))
        if Self.hasNFCList {
            let after = try EmulateCommandTests.libnfcTool("nfc-list", [], device: emulator.connectionString)
            #expect(after.contains("ISO/IEC 14443A"), "\(after)")
        }
    }
}

import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// `--timeout` is how long a command waits for a reader (the contract), not only for a tag:
/// a PN532 on a UART that is away for a moment — unplugged, or still claimed by a process
/// killed an instant ago — is waited for, with one line on stderr saying so.
@Suite("nfctag waits up to --timeout for a reader that is away", .timeLimit(.minutes(1)), .blockingCalls)
struct ReaderWaitTests {
    private static let uid: [UInt8] = [0x04, 0x52, 0x17, 0x6A, 0x90, 0x33, 0x80]

    /// A UART PN532 behind a stable link, as a real adapter's `/dev/serial/by-id` name: an
    /// unplugged pseudo-terminal's own path may go to another test's reader meanwhile.
    private static func linkedReader(_ name: String) throws -> EmulatedReader {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("nfctag-wait-\(name)-\(getpid())").path
        return try EmulatedReader(kind: .pn532, tags: [try Type2Tag(chip: .ntag215, uid: uid)], link: link)
    }

    @Test("read started while the reader is unplugged waits, and reads once it is plugged in")
    func readWaitsForUnpluggedReader() async throws {
        let emulator = try Self.linkedReader("read")
        defer { emulator.stop() }
        emulator.unplug()
        let read = try RunningTool(["read", "--json", "--device", emulator.connectionString, "--timeout", "30"])
        #expect(await read.waitForError(containing: "waiting up to 30 s for the reader"), "\(read.standardError)")
        try emulator.plug()
        #expect(await read.exitStatus(timeout: .seconds(30)) == 0, "\(read.standardError)")
        #expect(read.output.joined().contains("0452176a903380"), "\(read.output)")
    }

    @Test("read straight after kill -9 of the holder, the port still claimed, waits and reads")
    func readWaitsForClaimOfKilledProcess() async throws {
        let emulator = try EmulatedReader(kind: .pn532, tags: [try Type2Tag(chip: .ntag215, uid: Self.uid)])
        defer { emulator.stop() }
        let monitor = try RunningTool(["monitor", "--json", "--device", emulator.connectionString])
        #expect(await monitor.waitForLine { $0.contains(#""event":"connected""#) } != nil, "\(monitor.standardError)")
        #expect(await monitor.send(SIGKILL) == SIGKILL)
        let read = try ToolRunner.run(["read", "--json", "--device", emulator.connectionString, "--timeout", "30"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("0452176a903380"), "\(read.stdout)")
    }

    @Test("a reader another nfctag holds: exit 3 after --timeout, naming the holder")
    func heldReaderNamesHolder() async throws {
        let emulator = try EmulatedReader(kind: .pn532, tags: [])
        defer { emulator.stop() }
        let monitor = try RunningTool(["monitor", "--json", "--device", emulator.connectionString])
        #expect(await monitor.waitForLine { $0.contains(#""event":"connected""#) } != nil, "\(monitor.standardError)")
        let read = try ToolRunner.run(["read", "--device", emulator.connectionString, "--timeout", "1"])
        #expect(read.status == 3, "\(read.stderr)")
        #expect(read.stderr.contains("waiting up to 1 s for the reader"), "\(read.stderr)")
        #expect(read.stderr.contains("is in use"), "\(read.stderr)")
        #expect(read.stderr.contains("end nfctag (pid "), "the holder is not named: \(read.stderr)")
        // Listing does not probe the port either (libnfc's wake-up would break the holder's link).
        let readers = try ToolRunner.run(["readers", "--json", "--device", emulator.connectionString])
        #expect(readers.stdout.contains("end nfctag (pid "), "\(readers.stdout) \(readers.stderr)")
        // The holder never noticed: its next tag is seen as ever.
        _ = emulator.insert(try Type2Tag(chip: .ntag215, uid: Self.uid))
        #expect(await monitor.waitForLine { $0.contains("tagDetected") } != nil, "\(monitor.output)")
        #expect(!monitor.output.contains { $0.contains("reconnect") }, "\(monitor.output)")
        #expect(await monitor.interrupt() == 130)
    }

    @Test("Ctrl-C while waiting for the reader: exit 130, nothing touched")
    func interruptWhileWaiting() async throws {
        let emulator = try Self.linkedReader("interrupt")
        defer { emulator.stop() }
        emulator.unplug()
        let write = try RunningTool(
            ["write", "--uri", "https://example.com/", "--device", emulator.connectionString, "--timeout", "30"])
        #expect(await write.waitForError(containing: "waiting up to 30 s"), "\(write.standardError)")
        #expect(await write.interrupt() == 130, "\(write.standardError)")
        #expect(write.standardError.contains("stopped while waiting for the reader"), "\(write.standardError)")
    }
}

import Foundation
import Locking
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// SIGINT, SIGTERM and SIGHUP at several points of a write, a protect and a provisioning
/// run: the command stops at a consistent point, exits 128 + the signal, says what it did,
/// and leaves the tag in a state that matches what it said and the reader reachable (on a
/// UART, back at 115 200). The points are fractions of the frames an uninterrupted run
/// sends, counted by the emulated reader, so they fall on waiting, writing and verifying.
@Suite("nfctag stopped by a signal in the middle of a command", .tags(.reader), .timeLimit(.minutes(3)), .blockingCalls)
struct SignalMatrixTests {
    static let uid: [UInt8] = [0x04, 0x5A, 0x11, 0x22, 0x33, 0x44, 0x55]
    static let old = "https://example.com/old"
    static let new = "https://example.com/" + String(repeating: "n", count: 400)
    static let password = "0badc0de"

    enum Command: String, CaseIterable, Sendable {
        case write, protect, provision
    }

    /// Each signal at two points of each command: (point as a fraction of the frames, signal).
    static let points: [(Double, Int32)] = [
        (0.05, SIGINT), (0.2, SIGTERM), (0.35, SIGHUP), (0.5, SIGINT), (0.65, SIGTERM), (0.8, SIGHUP),
    ]

    static let cases: [(Command, Double, Int32)] = Command.allCases.flatMap { command in
        points.map { (command, $0.0, $0.1) }
    }

    /// A reader with an NTAG215 that holds ``old``.
    func prepared() throws -> EmulatedReader {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: Self.uid)])
        let write = try runTool(["write", "--uri", Self.old], on: emulator)
        #expect(write.status == 0, "\(write.stderr)")
        return emulator
    }

    func arguments(_ command: Command, log: String) -> [String] {
        switch command {
        case .write: ["write", "--uri", Self.new]
        case .protect: ["protect", "--password", Self.password]
        case .provision: ["provision", "--uri", Self.new, "--count", "1", "--log", log]
        }
    }

    /// The frames the reader receives for an uninterrupted run of `command`.
    func frames(of command: Command, log: String) async throws -> Int {
        let emulator = try prepared()
        defer { emulator.stop() }
        let before = emulator.statistics.commands
        let run = try runTool(arguments(command, log: log + ".reference"), on: emulator)
        #expect(run.status == 0, "\(run.stderr)")
        return emulator.statistics.commands - before
    }

    @Test("the tag holds what the tool says, the tool exits 128 + the signal, the reader opens again", arguments: cases)
    func stoppedBySignal(command: Command, point: Double, signal: Int32) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfctag-signal-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("station.log").path
        let total = try await frames(of: command, log: log)
        let emulator = try prepared()
        defer { emulator.stop() }
        let start = emulator.statistics.commands
        let threshold = start + max(1, Int(Double(total) * point))
        let tool = try RunningTool(
            arguments(command, log: log) + ["--device", emulator.connectionString, "--timeout", "5"])
        // The frames the reader had received just after the signal was sent: under load the
        // watcher can be late, and a signal that comes after the last frame may meet the tool
        // on its way out.
        let framesAtSignal = Locked(0)
        let status = await tool.send(
            signal, once: { emulator.statistics.commands >= threshold },
            afterwards: { framesAtSignal.withLock { $0 = emulator.statistics.commands - start } })
        let said = tool.output.joined(separator: "\n") + "\n" + tool.standardError
        let context = Comment(
            rawValue: "\(command) stopped by \(signal) after \(point * 100)% "
                + "(\(framesAtSignal.withLock { $0 }) of \(total) frames): \(said)")

        // 128 + the signal, unless the command had finished before the signal came.
        let finishedFirst = !tool.signalArrivedInTime || framesAtSignal.withLock { $0 } >= total
        #expect(status == 128 + signal || (status == 0 && finishedFirst), context)
        // The reader is closed, not abandoned: at 115 200 on a UART, and it opens again.
        if emulator.kind == .pn532 { #expect(try await emulator.chipReaches(baud: 115_200), context) }
        let auth0 = try #require(ChipTables.spec(for: .ntag215).memory?.configuration?.field(.auth0))
        let protected = Int(try #require(auth0.value(in: try type2Tag(emulator).page(auth0.page)))) < 0xFF
        let read = try runTool(["read", "--json"] + (protected ? ["--password", Self.password] : []), on: emulator)
        #expect(read.status == 0, "\(read.stderr)")
        let records = try jsonObject(read)["records"] as? [[String: Any]]
        let uri = records?.first?["uri"] as? String

        switch command {
        case .write:
            // The write is never cut: the tag holds one of the two messages, and the tool
            // says which.
            #expect(uri == Self.old || uri == Self.new, context)
            if uri == Self.new {
                #expect(said.contains("Wrote "), context)
            } else {
                #expect(said.contains("nothing was written"), context)
            }
        case .protect:
            #expect(uri == Self.old, context)
            if protected {
                #expect(said.contains("Protected"), context)
            } else {
                #expect(said.contains("nothing was written"), context)
            }
        case .provision:
            // The station finishes the tag in hand, logs it only once it is verified, and
            // prints its summary.
            #expect(uri == Self.old || uri == Self.new, context)
            let lines = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n") ?? []
            #expect(lines.count == (uri == Self.new ? 1 : 0), context)
            if let line = lines.first { #expect(line.contains("\"result\":\"ok\""), context) }
            #expect(said.contains("Provisioned "), context)
        }
    }
}

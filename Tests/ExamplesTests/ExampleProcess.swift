import Foundation
import Locking
import TestSupport

/// A built example program run as a process: its output lines are collected as they
/// come, and every run has an outer time limit — a process still running then is killed
/// (SIGKILL) and the result says so.
final class ExampleProcess: Sendable {
    private final class Collector: Sendable {
        let lines = Locked<[String]>([])
        let pending = Locked<[UInt8]>([])
        let killedByLimit = Locked(false)
        /// The pipe reader read end of file.
        let drained = Locked(false)
    }

    private let process: Process
    private let collector = Collector()
    private let ended = Locked(false)
    private let pipe = Pipe()
    let name: String

    /// The example's binary beside the test bundle in the build directory.
    static func executable(_ name: String) -> URL {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // Swift Testing may run from inside an .xctest bundle directory.
        while directory.pathComponents.count > 1,
            !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(name).path)
        {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent(name)
    }

    /// Starts example `name` with `arguments` (and `environment` on top of this process's);
    /// it is killed after `limit`.
    init(
        _ name: String, _ arguments: [String], environment extra: [String: String] = [:], limit: Duration = .seconds(60)
    ) throws {
        self.name = name
        process = Process()
        process.executableURL = Self.executable(name)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LIBNFC_AUTO_SCAN"] = "false"
        environment["LIBNFC_LOG_LEVEL"] = "0"
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = pipe
        let ended = ended
        process.terminationHandler = { _ in ended.withLock { $0 = true } }
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        let collector = collector
        try process.run()
        // Our copy of the write end goes, so that the reader sees end of file when it exits.
        try? out.fileHandleForWriting.close()
        PipeReader.start(out.fileHandleForReading, ended: { collector.drained.withLock { $0 = true } }) { data in
            collector.pending.withLock { buffer in
                buffer += data
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    collector.lines.withLock { $0.append(line) }
                }
            }
        }
        // The timer captures the process id and the collector, never the process and its pipe.
        let pid = process.processIdentifier
        let (seconds, attoseconds) = limit.components
        DispatchQueue.global().asyncAfter(
            deadline: .now() + .milliseconds(Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
        ) {
            ended.withLock { ended in
                guard !ended else { return }
                collector.killedByLimit.withLock { $0 = true }
                kill(pid, SIGKILL)
            }
        }
    }

    deinit {
        // The pipe reader ends when the process does.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Every output line (stdout and stderr) so far.
    var output: [String] { collector.lines.withLock { $0 } }

    /// The whole output as text, with a note when the time limit killed the program.
    var transcript: String {
        output.joined(separator: "\n")
            + (collector.killedByLimit.withLock { $0 } ? "\n[test] \(name) killed: it did not finish in time" : "")
    }

    /// Waits for a line that contains `text`; false when the program ended (or `timeout` passed) first.
    func waitForLine(containing text: String, timeout: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if output.contains(where: { $0.contains(text) }) { return true }
            if !process.isRunning {
                await drained(before: deadline)  // the last lines may still be on their way
                return output.contains { $0.contains(text) }
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Waits for the program to end; nil when it did not within `timeout` (it is then killed).
    func exitStatus(timeout: Duration = .seconds(60)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        await drained(before: deadline + .seconds(5))  // the pipe's last lines
        return process.terminationStatus
    }

    /// Waits until the pipe reader has read end of file (the program ended), or `deadline`.
    private func drained(before deadline: ContinuousClock.Instant) async {
        while !collector.drained.withLock({ $0 }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Runs example `name` to its end and returns its exit status and output.
    static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:],
        limit: Duration = .seconds(60)
    ) async throws -> (status: Int32?, output: String) {
        let example = try ExampleProcess(name, arguments, environment: environment, limit: limit)
        let status = await example.exitStatus(timeout: limit + .seconds(1))
        return (status, example.transcript)
    }
}

import Foundation
import Locking
import TestSupport

/// A streaming `nfctag` (monitor, readers --watch, emulate) running as a process: its
/// stdout lines are collected as they come, and the test waits for the one it expects.
final class RunningTool: Sendable {
    private final class Collector: Sendable {
        let lines = Locked<[String]>([])
        let pending = Locked<[UInt8]>([])
        let errorText = Locked<String>("")
        /// How many of the two pipe readers read end of file.
        let drained = Locked(0)
    }

    private let process: Process
    private let collector = Collector()

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = ToolRunner.executable
        process.arguments = arguments
        var env = ToolRunner.testEnvironment
        env["LIBNFC_AUTO_SCAN"] = "false"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let collector = collector
        try process.run()
        // Our copies of the write ends go, so that the readers see end of file when it exits.
        try? out.fileHandleForWriting.close()
        try? err.fileHandleForWriting.close()
        let ended: @Sendable () -> Void = { collector.drained.withLock { $0 += 1 } }
        PipeReader.start(out.fileHandleForReading, ended: ended) { data in
            collector.pending.withLock { buffer in
                buffer += data
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    collector.lines.withLock { $0.append(line) }
                }
            }
        }
        PipeReader.start(err.fileHandleForReading, ended: ended) { data in
            collector.errorText.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
    }

    deinit {
        // The pipe readers end when the process does.
        if process.isRunning { process.terminate() }
    }

    /// Whether both pipes were read to their end (the process ended and all it wrote is in).
    private var isDrained: Bool { collector.drained.withLock { $0 } == 2 }

    /// Every stdout line so far.
    var output: [String] { collector.lines.withLock { $0 } }

    /// Everything on stderr so far.
    var standardError: String { collector.errorText.withLock { $0 } }

    /// Waits until a stdout line satisfies `predicate`; nil after `timeout`.
    func waitForLine(timeout: Duration = .seconds(10), where predicate: (String) -> Bool) async -> String? {
        let deadline = ContinuousClock.now + timeout
        var seen = 0
        while ContinuousClock.now < deadline {
            let current = output
            if let match = current[seen...].first(where: predicate) { return match }
            seen = current.count
            if !process.isRunning, isDrained, output.count == seen { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Waits until stderr contains `text`; false after `timeout` or when the process ended without it.
    func waitForError(containing text: String, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if standardError.contains(text) { return true }
            if !process.isRunning, isDrained { return standardError.contains(text) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Sends SIGINT (Ctrl-C) and waits for the exit status; nil when it does not end in time.
    func interrupt(timeout: Duration = .seconds(10)) async -> Int32? {
        await send(SIGINT, timeout: timeout)
    }

    /// Whether the process is still running.
    var isRunning: Bool { process.isRunning }

    /// Whether the last ``send(_:timeout:)`` reached the process while it ran.
    var signalArrivedInTime: Bool { delivered.withLock { $0 } }
    private let delivered = Locked(false)

    /// Sends `signal` and waits for the exit status; nil when it does not end in time.
    func send(_ signal: Int32, timeout: Duration = .seconds(10)) async -> Int32? {
        let running = process.isRunning
        delivered.withLock { $0 = running && kill(process.processIdentifier, signal) == 0 }
        return await exitStatus(timeout: timeout)
    }

    /// Sends `signal` from a thread of its own as soon as `condition` holds (checked every
    /// 0.2 ms, off the test's own executor, which blocking tool runs can starve), then waits
    /// for the exit status; nil when the process does not end in time.
    /// `afterwards` runs right after the signal was sent.
    func send(
        _ signal: Int32, once condition: @escaping @Sendable () -> Bool,
        afterwards: @escaping @Sendable () -> Void = {}, timeout: Duration = .seconds(20)
    ) async -> Int32? {
        let process = process
        let delivered = delivered
        let watcher = Thread {
            while process.isRunning {
                if condition() {
                    delivered.withLock { $0 = kill(process.processIdentifier, signal) == 0 }
                    afterwards()
                    return
                }
                usleep(200)
            }
        }
        watcher.start()
        return await exitStatus(timeout: timeout)
    }

    /// Waits for the process to end by itself.
    func exitStatus(timeout: Duration = .seconds(10)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            process.terminate()
            return nil
        }
        // What it wrote last is read before its status is reported.
        let drainDeadline = ContinuousClock.now + .seconds(5)
        while !isDrained, ContinuousClock.now < drainDeadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return process.terminationStatus
    }
}

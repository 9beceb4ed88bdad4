import Foundation
import Locking

/// Runs the built `nfctag` as a process, the way a script would.
struct ToolRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `nfctag` binary beside the test bundle in the build directory.
    static let executable: URL = {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // Swift Testing may run from inside an .xctest bundle directory.
        while directory.pathComponents.count > 1,
            !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("nfctag").path)
        {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("nfctag")
    }()

    /// The tool's environment in tests: the last-reader memory goes to a directory of the
    /// test process, never to the developer's own configuration.
    static let testEnvironment: [String: String] = {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("nfctag-cli-tests-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // libnfc's own log off, said here rather than inherited: other suites of this process
        // set it with setenv() while the tests run side by side, and a snapshot taken during
        // a setenv() can miss it.
        return ProcessInfo.processInfo.environment.merging(["XDG_CONFIG_HOME": directory, "LIBNFC_LOG_LEVEL": "0"]) {
            $1
        }
    }()

    /// Runs `nfctag` to its end. A tool still running after `limit` is killed (a test must
    /// end even when libnfc blocks), and the result says so in `stderr`.
    static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
        workingDirectory: URL? = nil, limit: Duration = .seconds(60)
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        process.arguments = arguments
        process.environment = testEnvironment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // The timer holds its work item until the limit, cancelled or not: it captures the
        // process id and a flag, never the process and its pipes (60 s of open descriptors
        // per run piled up past FD_SETSIZE, which libnfc's select() does not survive).
        let pid = process.processIdentifier
        let ended = Locked(false)
        let killer = DispatchWorkItem { ended.withLock { if !$0 { kill(pid, SIGKILL) } } }
        let (seconds, attoseconds) = limit.components
        DispatchQueue.global().asyncAfter(
            deadline: .now() + .milliseconds(Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)),
            execute: killer)
        defer { killer.cancel() }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read stderr beside stdout, so that neither pipe can fill up and stall the tool.
        let errorData = ErrorCollector(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        ended.withLock { $0 = true }
        var stderr = String(decoding: errorData.wait(), as: UTF8.self)
        try? out.fileHandleForReading.close()
        try? err.fileHandleForReading.close()
        if process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL {
            stderr += "\n[test] nfctag killed after \(limit): it did not finish\n"
        }
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: stderr)
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class ErrorCollector: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything read, once the pipe closed.
    func wait() -> Data {
        done.wait()
        return data
    }
}

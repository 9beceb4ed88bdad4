import Foundation
import Locking

/// Runs one of libnfc's command-line tools against an emulated reader, with an outer
/// timeout (libnfc can wait forever), and returns its exit status and output.
public enum LibNFCTool {
    public struct Result {
        public var status: Int32
        /// Standard output, and standard error too unless `separateErrors` was asked for.
        public var output: String
        public var timedOut: Bool
        /// Standard error, when `separateErrors` was asked for.
        public var errors = ""
    }

    /// Whether `tool` is on the PATH (an outside tool may not be installed; `scripts/setup` installs them).
    public static func isInstalled(_ tool: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }

    /// Runs `tool` (an absolute path, or a name on the PATH) with `LIBNFC_DEVICE` set to `device`.
    public static func run(
        _ tool: String, _ arguments: [String], device: String, input: String = "", timeout: Double = 20,
        environment extra: [String: String] = [:], separateErrors: Bool = false
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LIBNFC_DEVICE"] = device
        environment["LIBNFC_AUTO_SCAN"] = "false"
        environment["LIBNFC_LOG_LEVEL"] = "0"
        process.environment = environment.merging(extra) { $1 }
        let pipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = pipe
        process.standardError = separateErrors ? errorPipe : pipe
        let stdin = Pipe()
        process.standardInput = stdin
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        // The tool's prompts (nfc-mfultralight w asks before OTP, lock and UID pages) read these answers.
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // Drain the pipe while waiting, so a chatty tool never blocks on a full pipe.
        let output = Locked(Data())
        let errors = Locked(Data())
        let drained = DispatchSemaphore(value: 0)
        let handle = pipe.fileHandleForReading
        let errorHandle = errorPipe.fileHandleForReading
        Thread.detachNewThread {
            let data = handle.readDataToEndOfFile()
            output.withLock { $0 = data }
            drained.signal()
        }
        if separateErrors {
            Thread.detachNewThread {
                let data = errorHandle.readDataToEndOfFile()
                errors.withLock { $0 = data }
                drained.signal()
            }
        } else {
            try errorPipe.fileHandleForWriting.close()
        }
        var timedOut = false
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            process.terminate()
            finished.wait()
        }
        drained.wait()
        if separateErrors { drained.wait() }
        let text = output.withLock { String(decoding: $0, as: UTF8.self) }
        let errorText = errors.withLock { String(decoding: $0, as: UTF8.self) }
        return Result(status: process.terminationStatus, output: text, timedOut: timedOut, errors: errorText)
    }
}

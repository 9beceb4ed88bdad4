import Foundation
import Synchronization

/// Runs one of libnfc's command-line tools against an emulated reader, with an outer
/// timeout (libnfc can wait forever), and returns its exit status and output.
enum LibNFCTool {
    struct Result {
        var status: Int32
        var output: String
        var timedOut: Bool
    }

    static func run(_ tool: String, _ arguments: [String], device: String, input: String = "", timeout: Double = 20) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LIBNFC_DEVICE"] = device
        environment["LIBNFC_AUTO_SCAN"] = "false"
        environment["LIBNFC_LOG_LEVEL"] = "0"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let stdin = Pipe()
        process.standardInput = stdin
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        // The tool's prompts (nfc-mfultralight w asks before OTP, lock and UID pages) read these answers.
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // Drain the pipe while waiting, so a chatty tool never blocks on a full pipe.
        let output = Mutex(Data())
        let drained = DispatchSemaphore(value: 0)
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread {
            let data = handle.readDataToEndOfFile()
            output.withLock { $0 = data }
            drained.signal()
        }
        var timedOut = false
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            process.terminate()
            finished.wait()
        }
        drained.wait()
        let text = output.withLock { String(decoding: $0, as: UTF8.self) }
        return Result(status: process.terminationStatus, output: text, timedOut: timedOut)
    }
}

import Foundation

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
              !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("nfctag").path) {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("nfctag")
    }()

    static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

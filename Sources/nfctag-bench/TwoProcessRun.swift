import Foundation
import Glibc
import NFCEmulator
import NFCTagKit

/// Issue 15's end-to-end target: `nfctag write --uri URI` and then `nfctag read`, two
/// processes, each opening the reader (and, above 115 200 baud, switching it up at connect
/// and back at close), on an emulated PN532 with a factory NTAG216 — counted as
/// `nfctag emulate --stats` counts: everything the emulator carried from the first byte of
/// the first process to the last byte of the second.
///
/// ```swift
/// let result = try await TwoProcessRun(tool: "/path/to/nfctag", baud: 460_800).run()
/// ```
struct TwoProcessRun {
    /// The `nfctag` executable.
    var tool: String
    /// The speed the reader ends up at: 115 200 is written in the connection string (no
    /// switch), 230 400 is a chip that refuses 460 800 (`max-baud`), 460 800 the default.
    var baud: Int

    func run() async throws -> BenchResult {
        BenchReader.prepareEnvironment()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nfctag-bench-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var faults = FaultPlan()
        let standard = ChipTables.pn532.timing.uartBaud
        if baud != standard { faults.maximumSerialSpeed = baud }
        let emulator = try PN532Emulator(tags: [try BenchSuite.ntag216()], link: directory + "/reader", faults: faults)
        try emulator.start()
        defer { emulator.stop() }
        let device = "pn532_uart:" + directory + "/reader" + (baud == standard ? ":\(baud)" : "")
        let uri = BenchMessages.twoProcessURI
        let cpuBefore = Self.childrenCPUTime()
        _ = try runTool(["write", "--device", device, "--uri", uri], home: directory)
        let read = try runTool(["read", "--device", device, "--json"], home: directory)
        guard read.contains(uri) else { throw BenchFailure("nfctag read did not show the URI written: \(read)") }
        // The reader is back at 115 200 once the second process has closed it.
        for _ in 0..<200 where emulator.statistics.uartBaud != standard { try await Task.sleep(for: .milliseconds(5)) }
        let statistics = emulator.statistics
        // The CPU column is the two nfctag processes' (the emulator's thread is in this one).
        let sample = BenchSample(
            before: EmulatorStatistics(), after: statistics,
            processCPU: Self.childrenCPUTime() - cpuBefore + statistics.emulatorCPUTime)
        let message = NDEFMessage(records: [NDEFURIRecord(uri: uri).record])
        let size = try message.encoded().count
        return try BenchSuite(baud: baud).result("nfctag_write_then_read_103_uri", sample, target: .milliseconds(250)) {
            // The floor of the tag work alone: a fresh write of the message and its read.
            let floors = try BenchSuite.ntag216Floors($0)
            let tlv = OperationFloors.tlvBytes(messageBytes: size)
            let pages = (tlv + floors.memory.pageSize - 1) / floors.memory.pageSize
            return floors.writeNDEF(oldTLVBytes: 3, changedPages: pages) + floors.readNDEF(messageBytes: size)
        }
    }

    /// User and system CPU time of the child processes that have ended.
    static func childrenCPUTime() -> Duration {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return .seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + .microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }

    private func runTool(_ arguments: [String], home: String) throws -> String {
        try Self.runTool(tool, arguments, home: home)
    }

    /// Runs `tool` (`nfctag`) with `arguments` (libnfc quiet, its last-reader file under
    /// `home`, `extraEnvironment` on top: a USB reader's stand-in) and returns its standard
    /// output; a non-zero exit is an error with its standard error.
    static func runTool(
        _ tool: String, _ arguments: [String], home: String,
        extraEnvironment: [String: String] = [:]
    ) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = home
        environment["LIBNFC_AUTO_SCAN"] = "false"
        environment["LIBNFC_INTRUSIVE_SCAN"] = "false"
        environment["LIBNFC_LOG_LEVEL"] = "0"
        environment.removeValue(forKey: "LIBNFC_DEVICE")
        environment.merge(extraEnvironment) { $1 }
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchFailure("nfctag \(arguments.first ?? "") exited \(process.terminationStatus): \(errorText)")
        }
        return text
    }
}

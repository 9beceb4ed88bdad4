import Foundation
import Locking
import NFCTagKit

/// One run of a libnfc or libfreefare tool against a reader, with an outer limit.
///
/// `environment` is added to this process's own: the USB stand-in's `LD_PRELOAD` for an
/// emulated USB reader (``EmulatedTwin``), nothing for a real one. Standard error goes
/// through a file, so a `LIBNFC_LOG_LEVEL=3` log of any length cannot stall the tool.
struct LibNFCToolRun {
    var output = ""
    var standardError = ""
    var launched = false
    /// True when the outer limit stopped the tool.
    var timedOut = false
    /// From start to exit.
    var elapsed: Duration = .zero

    /// `device` goes to libnfc as `LIBNFC_DEVICE` with its scan off; nil lets libnfc scan.
    init(
        _ tool: String, _ arguments: [String], device: String?, logLevel: Int,
        environment extra: [String: String] = [:], seconds: Double = 60
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LIBNFC_DEVICE"] = device
        environment["LIBNFC_AUTO_SCAN"] = device == nil ? "true" : "false"
        environment["LIBNFC_LOG_LEVEL"] = String(logLevel)
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("hil-stderr-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: errorFile.path])
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        let clock = ContinuousClock()
        let start = clock.now
        try process.run()
        try? errorHandle.close()
        // The timer captures the process id and a flag, never the process and its pipe.
        let pid = process.processIdentifier
        let ended = Locked(false)
        let killer = DispatchWorkItem { ended.withLock { if !$0 { kill(pid, SIGTERM) } } }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: killer)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        ended.withLock { $0 = true }
        try? out.fileHandleForReading.close()
        elapsed = clock.now - start
        killer.cancel()
        timedOut = process.terminationReason == .uncaughtSignal
        output = String(decoding: outData, as: UTF8.self)
        standardError = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        // /usr/bin/env exits 127 when the tool is not installed.
        launched = process.terminationStatus != 127 || timedOut
    }
}

/// One command of a `pn53x-tamashell` run and what came back.
struct TamaStep: Sendable, Equatable, CustomStringConvertible {
    /// The PN53x command as sent (command code and data, without `D4`).
    var command: [UInt8]
    /// The answer data after `D5 xx` (a PN533 ReadRegister answer starts with its status
    /// byte; an InCommunicateThru answer with the chip's status), nil when libnfc reported
    /// an error instead.
    var answer: [UInt8]?
    /// libnfc's error text (`nfc_perror`), when there was no answer.
    var error: String?

    /// `answer`'s hex, or `error: text`.
    var outcome: String { answer.map { $0.hexString() } ?? "error: \(error ?? "none reported")" }

    var description: String { "\(command.hexString()) → \(outcome)" }
}

/// A script of raw PN53x commands run through libnfc's own `pn53x-tamashell` (Debian
/// `libnfc-pn53x-examples`): libnfc opens the reader and runs its initiator set-up, then
/// each line goes to the chip as it is (`pn53x_transceive`) — the one public way to send a
/// PN53x command libnfc's API has no call for, such as ReadRegister.
///
/// The tool reads one line of at most 254 characters at a time: a command of up to about
/// 120 bytes written without spaces.
struct TamaShellRun {
    var steps: [TamaStep] = []
    /// libnfc's device name (`NFC reader: NAME opened`), empty when the reader did not open.
    var readerName = ""
    var run: LibNFCToolRun

    init(
        _ commands: [String], device: String, environment: [String: String] = [:], logLevel: Int = 0,
        seconds: Double = 30
    ) throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("hil-tama-\(UUID().uuidString).cmd")
        try (commands.joined(separator: "\n") + "\n").write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        run = try LibNFCToolRun(
            "pn53x-tamashell", [script.path], device: device, logLevel: logLevel,
            environment: environment, seconds: seconds)
        // stdout keeps Tx then Rx in order; an error goes to stderr ("Rx: message"), in the
        // order the failing commands ran.
        var errors = run.standardError.split(separator: "\n").filter { $0.hasPrefix("Rx: ") }
            .map { String($0.dropFirst(4)) }[...]
        let lines = run.output.split(separator: "\n").map(String.init)
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("NFC reader: "), line.hasSuffix(" opened") {
                readerName = String(line.dropFirst("NFC reader: ".count).dropLast(" opened".count))
            }
            guard line.hasPrefix("Tx: ") else { continue }
            let command = Self.hexBytes(line.dropFirst(4))
            if index + 1 < lines.count, lines[index + 1].hasPrefix("Rx: ") {
                steps.append(
                    TamaStep(command: command, answer: Self.hexBytes(lines[index + 1].dropFirst(4)), error: nil))
            } else {
                steps.append(TamaStep(command: command, answer: nil, error: errors.popFirst()))
            }
        }
    }

    /// The step that sent `index`-th command of the script (nil when the tool stopped before).
    func step(_ index: Int) -> TamaStep? { index < steps.count ? steps[index] : nil }

    private static func hexBytes(_ text: Substring) -> [UInt8] {
        text.split(separator: " ").compactMap { UInt8($0, radix: 16) }
    }
}

/// libnfc's name for the reader at `connectionString`, as its scan lists it
/// (`nfc-scan-device`): the USB reader's own strings, such as "ACS / ACR122U PICC Interface".
/// A connection string without an address (`acr122_usb`) matches the first of its driver.
func scannedReaderName(_ connectionString: String, environment: [String: String] = [:]) throws -> String? {
    let run = try LibNFCToolRun("nfc-scan-device", [], device: nil, logLevel: 0, environment: environment)
    let lines = run.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    for (index, line) in lines.enumerated() where index > 0 && lines[index - 1].hasPrefix("- ") {
        let matches = connectionString.contains(":") ? line == connectionString : line.hasPrefix(connectionString + ":")
        if matches { return String(lines[index - 1].dropFirst(2).dropLast()) }
    }
    return nil
}

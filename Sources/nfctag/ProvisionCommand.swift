#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NFCTagKit
import Locking

/// `nfctag provision RECORD… [--lock] [--protect --password HEX8 …] [--count N] [--log FILE]
/// [--again]`: a batch station. For each tag presented: identify, write (tear-safe),
/// verify, optionally protect and lock, log one JSON line, ask for the next tag and wait
/// for this one to be removed. A summary ends the run (after `--count` tags, or on
/// Ctrl-C); the exit code is 0 when no tag failed, 1 otherwise, 3 when the reader went
/// away for good.
enum ProvisionCommand {
    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        let options = try ProvisionOptions.parse(&parser)
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(HelpText.provision)
            return
        }
        let globals = parser.globals
        var provisioned: Set<String> = []
        var log: ProvisionLog?
        if let path = options.logPath {
            let (uids, unreadable) = try ProvisionLog.provisionedUIDs(in: path)
            provisioned = uids
            if unreadable > 0 {
                output.note(
                    "Warning: \(unreadable) line\(unreadable == 1 ? "" : "s") of \(path) could not be read and \(unreadable == 1 ? "was" : "were") ignored."
                )
            }
            log = try ProvisionLog(path: path)
        }

        // A station outlives a replugged reader: keep reconnecting for a long while.
        var configuration = ConnectionConfiguration()
        configuration.reconnection.timeout = .seconds(1800)
        configuration.reconnection.maximumAttempts = 100_000
        let (device, info) = try await ReaderSelection.connect(globals, configuration: configuration)

        let plan = options.plan
        let steps = plan.steps.map(\.rawValue).joined(separator: ", ")
        let already =
            provisioned.isEmpty
            ? ""
            : " \(provisioned.count) tag\(provisioned.count == 1 ? "" : "s") in the log will be skipped\(options.again ? " — no: --again" : "")."
        output.note(
            "Provisioning station on \(info.name): \(steps) for each tag\(options.count.map { ", \($0) tag\($0 == 1 ? "" : "s")" } ?? "").\(already) Ctrl-C ends."
        )

        let timeout = Duration.seconds(globals.timeout)
        let station = ProvisioningStation(
            device: device, plan: plan, label: options.station,
            alreadyProvisioned: Set(provisioned.compactMap(Hex.decode)), skipsProvisioned: !options.again,
            tagTimeout: timeout, pollInterval: pollInterval)
        let signals = Locked(0)
        let trap = SignalTrap { _ in
            // The first signal stops the station between tags; a second one ends the tool at once.
            if signals.withLock({ count in
                count += 1
                return count
            }) > 1 {
                exit(SignalTrap.exitCode ?? 130)
            }
            station.stop()
        }
        var progress = ProvisionProgress(station: options.station)
        let ending: ProvisioningStation.Ending
        do throws(ToolError) {
            ending = try await station.run(count: options.count) { event throws(ToolError) in
                try show(event, progress: &progress, options: options, timeout: timeout, log: log, output: output)
            }
        } catch {
            trap.release()
            progress.clearLine()
            await device.close()
            throw error
        }
        trap.release()
        progress.clearLine()
        await device.close()
        try finish(progress, ending: ending, output: output)
    }

    /// The pause between two looks at the field: a person's pace. The test suites set
    /// `NFCTAG_TEST_STATION_POLL_MS` to run hundreds of tags through a station in seconds.
    private static let pollInterval: Duration = {
        guard let text = ProcessInfo.processInfo.environment["NFCTAG_TEST_STATION_POLL_MS"],
            let milliseconds = Int(text), (1...1000).contains(milliseconds)
        else { return .milliseconds(150) }
        return .milliseconds(milliseconds)
    }()

    /// What the person at the reader sees of `event`; a handled tag is logged (and flushed)
    /// before anything else, and a log that cannot be written stops the station.
    private static func show(
        _ event: ProvisioningStation.Event, progress: inout ProvisionProgress, options: ProvisionOptions,
        timeout: Duration, log: ProvisionLog?, output: Output
    ) throws(ToolError) {
        switch event {
        case .waitingForTag:
            progress.show("Present a tag (Ctrl-C ends)")
        case .severalTags(let count):
            progress.show("\(count) tags in the field — remove all but one (nothing is written)")
        case .provisioning(let uid):
            // Derived passwords are never printed: the tool learns them to leave them out.
            if let derivation = options.passwordDerivation {
                _ = DerivedPasswords.credentials(derivation, uid: uid)
            }
            progress.show("Hold the tag still — provisioning \(uid.hexString())")
        case .handled(let handled):
            let record = handled.worded(timeout: timeout)
            try log?.append(record.json)
            progress.clearLine()
            if output.json {
                output.document(record.json)
            } else {
                output.line(record.line)
            }
            progress.count(record)
            if record.failure?.readerLost == true {
                progress.show("The reader was lost — reconnecting; the tag is tried again once it is back")
            }
        case .presentAgain:
            progress.show("The tag left the field — present it again to finish it")
        case .removeTag(let failed):
            progress.show(
                failed ? "Take the failed tag away, present the next one" : "Remove the tag, present the next one")
        case .readerLost:
            progress.show("The reader was lost — waiting for it to come back (reconnecting)")
        case .readerBack:
            progress.show("The reader is back")
        }
    }

    /// Prints the summary; throws the exit code when something failed.
    private static func finish(_ progress: ProvisionProgress, ending: ProvisioningStation.Ending, output: Output)
        throws(ToolError)
    {
        if output.json {
            output.document(progress.summaryJSON(interrupted: ending == .stopped))
        } else {
            output.line((ending == .stopped ? "Stopped. " : "") + progress.summaryText)
            if progress.failed > 0 {
                output.line("Failed: " + progress.failedUIDs.sorted().joined(separator: ", "))
            }
        }
        if ending == .readerGone {
            throw ToolError(
                exitCode: .noReader, summary: "nfctag provision: the reader went away and did not come back",
                detail: ReaderSelection.noReader().detail)
        }
        if progress.failed > 0 {
            throw ToolError(
                exitCode: .failure,
                summary: "nfctag provision: \(progress.failed) tag\(progress.failed == 1 ? "" : "s") failed",
                detail: [
                    "Present \(progress.failed == 1 ? "it" : "them") again to retry (the log says what each holds)."
                ])
        }
    }
}

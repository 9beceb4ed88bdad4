#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NFCTagKit

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

        let steps = options.plannedActions.joined(separator: ", ")
        let already =
            provisioned.isEmpty
            ? ""
            : " \(provisioned.count) tag\(provisioned.count == 1 ? "" : "s") in the log will be skipped\(options.again ? " — no: --again" : "")."
        output.note(
            "Provisioning station on \(info.name): \(steps) for each tag\(options.count.map { ", \($0) tag\($0 == 1 ? "" : "s")" } ?? "").\(already) Ctrl-C ends."
        )

        let stop = StopRequest()
        let trap = SignalTrap { _ in
            if stop.request() > 1 { exit(SignalTrap.exitCode ?? 130) }
        }
        var station = ProvisionStation(
            device: device, options: options, output: output, log: log, stop: stop,
            timeout: .seconds(globals.timeout), provisioned: provisioned,
            progress: ProvisionProgress(station: options.station))
        let ending: ProvisionStation.Ending
        do throws(ToolError) {
            ending = try await station.run()
        } catch {
            trap.release()
            station.progress.clearLine()
            await device.close()
            throw error
        }
        trap.release()
        station.progress.clearLine()
        await device.close()
        try finish(station.progress, ending: ending, output: output)
    }

    /// Prints the summary; throws the exit code when something failed.
    private static func finish(_ progress: ProvisionProgress, ending: ProvisionStation.Ending, output: Output)
        throws(ToolError)
    {
        if output.json {
            output.document(progress.summaryJSON(interrupted: ending == .interrupted))
        } else {
            output.line((ending == .interrupted ? "Stopped. " : "") + progress.summaryText)
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

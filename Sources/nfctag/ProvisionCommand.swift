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
    static let spec = CommandSpec(
        "provision", "a batch station: provision tag after tag", operands: "RECORD…",
        options: RecordArguments.specs + [
            OptionSpec("--hex", value: "HEX", help: "the encoded message, in place of records"),
            OptionSpec("--lock", help: "lock every tag permanently (THIS CANNOT BE UNDONE)"),
            OptionSpec("--protect", help: "set the password given with --password HEX8 (or --password-env VAR)"),
            OptionSpec("--pack", value: "HEX4", help: "with --protect the PACK to set; without, the PACK to check"),
            OptionSpec("--from-page", value: "N", help: "with --protect: AUTH0, as in 'nfctag protect'"),
            OptionSpec("--read-protect", help: "with --protect: reads need the password too"),
            OptionSpec("--auth-limit", value: "N", help: "with --protect: AUTHLIM (irreversible)"),
            OptionSpec("--lock-config", help: "with --protect: CFGLCK (irreversible)"),
            OptionSpec("--yes-irreversible", help: "accept --auth-limit and --lock-config"),
            OptionSpec("--count", value: "N", help: "stop after N tags were provisioned (without it, until Ctrl-C)"),
            OptionSpec("--log", value: "FILE", help: "append one JSON line per tag (created if missing)"),
            OptionSpec("--again", help: "provision tags the log lists as done"),
            OptionSpec("--mirror", help: "the --uri is a mirror template ({uid}, {counter}, {uid}x{counter})"),
            OptionSpec(
                "--ntag424-sun", value: "TEMPLATE",
                help: "NTAG 424 DNA: this SUN URL and its SDM settings instead of a message"),
            OptionSpec("--ntag424-meta-key-env", value: "VAR", help: "with --ntag424-sun: the SDM meta read key"),
            OptionSpec(
                "--ntag424-master-key-env", value: "VAR",
                help: "with --ntag424-sun: the master key each tag's MAC key is diversified from"),
            OptionSpec("--station", value: "NAME", help: "this station's name, in every log line and the summary"),
        ],
        discussion: """
            For each tag presented alone: identify it, write the message (tear-safe; every page
            written is read back and compared byte for byte), check that those bytes decode to
            the message asked for (with --mirror: read the message again), then with --protect
            set the password, with --lock lock it for good. One JSON line per tag goes to the
            log ("time", "uid", "chip", "result": ok | failed | skipped, "actions", "ms"; a
            failure adds "step", "error", "state"). Then the station asks for the next tag and
            waits until this one is taken away, so no tag is provisioned twice in a row by
            accident. A tag the log lists as ok is skipped unless --again. A failed tag is
            reported with the step and what it holds, and the station goes on; present it
            again to retry. Two tags in the field: nothing is written until one is taken away.
            An unplugged reader is reconnected; the tag in hand is reported and tried again
            once the reader is back. Failed and skipped tags do not count towards --count.
            Without --protect, --password HEX8 is the password the tags already have (PWD_AUTH
            before writing). --ntag424-sun takes {picc}+{cmac}, or {uid}+{counter}+{cmac}, as
            'ntag424 sun-setup' does; its keys default to the factory keys. 'nfctag report'
            merges the logs of many stations.
            Progress (done, failed, skipped, per minute) goes to stderr: one line redrawn on a
            terminal, a line per tag otherwise. --json prints each tag's JSON line on stdout
            and a summary object {"summary": true, "done", "failed", "skipped", …} at the end.
            Ctrl-C (SIGTERM, SIGHUP) finishes the tag in hand, prints the summary and exits
            130 (143, 129); a second one exits at once. Ended by --count, it exits 0 when no
            tag failed, 1 otherwise (3: the reader went away for good).

            Examples:
              nfctag provision --uri https://example.com/box17 --count 50 --log box17.jsonl
              nfctag provision --uri https://example.com --lock --log done.jsonl
              nfctag provision --text "Asset" --protect --password-env TAG_PWD --pack abcd --lock
              nfctag provision --uri https://example.com --device emulator:ntag213 --count 1
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        let options = try ProvisionOptions.parse(&parser)
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
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

import Foundation
import NFCTagKit

/// `nfctag report LOG… [--json]`: merges the provisioning logs of many stations (the JSON
/// lines `provision --log` writes) and shows the whole shift: counts per station and per
/// outcome, tags done twice or at two stations, the tags whose last attempt failed (with
/// their step), and each station's throughput. Lines without a station count under `""`;
/// lines that do not parse are counted and reported on stderr.
enum ReportCommand {
    static let spec = CommandSpec(
        "report", "merge the provisioning logs of many stations", operands: "LOG…",
        options: [],
        discussion: """
            Reads the JSON lines that 'provision --log' writes (any number of files, from any
            number of stations) and prints the shift at a glance: per station the tags done,
            the tags whose last attempt failed, the skipped ones and the tags per minute (from
            the station's first and last line); the lines per outcome; the tags written more
            than once (at two stations, or twice); and the failed tags with their last step. A
            tag that failed and later succeeded is not failed. Lines without a station count
            under "". With --json: {"stations": {NAME: {"ok", "failed", "skipped", "per_minute"}},
            "outcomes": {RESULT: N}, "duplicates": [{"uid", "stations", "count"}],
            "failed": [{"uid", "station", "step"}]}.

            Examples:
              nfctag report line-1.jsonl line-2.jsonl
              nfctag report shift/*.jsonl --json | jq '.duplicates'
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) throws(ToolError) {
        var paths: [String] = []
        while let argument = try parser.next(of: spec) {
            let token = argument.token
            guard argument.option == nil else { throw spec.unknown(token) }
            paths.append(token)
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        guard !paths.isEmpty else {
            throw .usage("nfctag report: give one or more provisioning logs", "Run 'nfctag report --help'.")
        }
        var report = ProvisionReport()
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .usage("nfctag report: cannot read \(path)")
            }
            report.add(String(decoding: data, as: UTF8.self))
        }
        if report.unreadableLines > 0 {
            output.note(
                "Warning: \(report.unreadableLines) line\(report.unreadableLines == 1 ? "" : "s") could not be read and \(report.unreadableLines == 1 ? "was" : "were") ignored."
            )
        }
        if output.json {
            output.document(report.json)
        } else {
            for line in report.lines { output.line(line) }
        }
    }
}

/// Provisioning log lines merged across stations, and what they add up to.
struct ProvisionReport {
    /// One log line: when, where, which tag, what happened.
    struct Entry {
        var time: Date
        var station: String
        var uid: String
        var result: String
        var step: String?
    }

    private(set) var entries: [Entry] = []
    private(set) var unreadableLines = 0

    /// Adds the lines of one log (JSON lines; other lines are counted as unreadable).
    mutating func add(_ text: String) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for line in text.split(whereSeparator: \.isNewline) where !line.allSatisfy(\.isWhitespace) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let uid = object["uid"] as? String, let result = object["result"] as? String,
                let time = (object["time"] as? String).flatMap(formatter.date(from:))
            else {
                unreadableLines += 1
                continue
            }
            entries.append(
                Entry(
                    time: time, station: object["station"] as? String ?? "", uid: uid.lowercased(),
                    result: result, step: object["step"] as? String))
        }
        entries.sort { $0.time < $1.time }
    }

    /// Station names, in order of their first line.
    var stations: [String] {
        var seen: [String] = []
        for entry in entries where !seen.contains(entry.station) { seen.append(entry.station) }
        return seen
    }

    /// Lines per result (`ok`, `failed`, `skipped`).
    var outcomes: [(String, Int)] {
        var counts: [String: Int] = [:]
        for entry in entries { counts[entry.result, default: 0] += 1 }
        return counts.sorted { $0.key < $1.key }
    }

    /// Tags written more than once (`ok` at two stations, or twice at one): the stations in
    /// order and how many times.
    var duplicates: [(uid: String, stations: [String], count: Int)] {
        var byUID: [String: [Entry]] = [:]
        for entry in entries where entry.result == "ok" { byUID[entry.uid, default: []].append(entry) }
        return byUID.filter { $0.value.count > 1 }
            .map { uid, done in
                var stations: [String] = []
                for entry in done where !stations.contains(entry.station) { stations.append(entry.station) }
                return (uid, stations, done.count)
            }
            .sorted { $0.uid < $1.uid }
    }

    /// Tags whose last attempt failed — a tag that failed and later succeeded is not here —
    /// with the station and the step of that attempt.
    var failed: [Entry] {
        var last: [String: Entry] = [:]
        for entry in entries where entry.result != "skipped" { last[entry.uid] = entry }
        return last.values.filter { $0.result == "failed" }.sorted { $0.time < $1.time }
    }

    /// `ok`, failed tags, `skipped` and tags per minute (from the station's first and last
    /// line; 0 for a single line) of `station`.
    func tally(_ station: String) -> (ok: Int, failed: Int, skipped: Int, perMinute: Double) {
        let lines = entries.filter { $0.station == station }
        let ok = lines.filter { $0.result == "ok" }.count
        let minutes = (lines.last.map { $0.time.timeIntervalSince(lines[0].time) } ?? 0) / 60
        return (
            ok, failed.filter { $0.station == station }.count, lines.filter { $0.result == "skipped" }.count,
            minutes > 0 ? Double(ok) / minutes : 0
        )
    }

    /// The report as cli.md's `report --json` object.
    var json: JSONValue {
        .object([
            (
                "stations",
                .object(
                    stations.map { name in
                        let tally = tally(name)
                        return (
                            name,
                            .object([
                                ("ok", .int(tally.ok)), ("failed", .int(tally.failed)),
                                ("skipped", .int(tally.skipped)), ("per_minute", .decimal(tally.perMinute)),
                            ])
                        )
                    })
            ),
            ("outcomes", .object(outcomes.map { ($0.0, .int($0.1)) })),
            (
                "duplicates",
                .array(
                    duplicates.map { duplicate in
                        .object([
                            ("uid", .string(duplicate.uid)),
                            ("stations", .array(duplicate.stations.map(JSONValue.string))),
                            ("count", .int(duplicate.count)),
                        ])
                    })
            ),
            (
                "failed",
                .array(
                    failed.map { entry in
                        .object([
                            ("uid", .string(entry.uid)), ("station", .string(entry.station)),
                            ("step", .string(entry.step ?? "")),
                        ])
                    })
            ),
        ])
    }

    /// The report as text, a few lines a person reads at a glance.
    var lines: [String] {
        func name(_ station: String) -> String { station.isEmpty ? "(no station)" : station }
        var text = [
            "\(entries.count) line\(entries.count == 1 ? "" : "s") from \(stations.count) station\(stations.count == 1 ? "" : "s")"
        ]
        for station in stations {
            let tally = tally(station)
            text.append(
                "  \(name(station)): ok \(tally.ok) · failed \(tally.failed) · skipped \(tally.skipped) · "
                    + String(format: "%.1f", tally.perMinute) + "/min")
        }
        text.append("Outcomes: " + outcomes.map { "\($0.0) \($0.1)" }.joined(separator: " · "))
        let duplicates = duplicates
        text.append("Written more than once: \(duplicates.count)")
        for duplicate in duplicates {
            text.append(
                "  \(duplicate.uid) \(duplicate.count)× at \(duplicate.stations.map(name).joined(separator: ", "))")
        }
        let failed = failed
        text.append("Failed (last attempt): \(failed.count)")
        for entry in failed { text.append("  \(entry.uid) at \(name(entry.station)): \(entry.step ?? "?")") }
        return text
    }
}

import Foundation

/// The benchmark's output: a table for people, one JSON object for machines.
///
/// ```swift
/// print(BenchReport(results: results).table)
/// ```
struct BenchReport {
    var results: [BenchResult]
    /// The process's resident memory after the run, when measured.
    var memory: ProcessMemory?

    /// One JSON object: `operations`, each with `name`, `frames`, `bytes_to_reader`,
    /// `bytes_from_reader`, `modeled_ms`, `floor_ms`, `ratio` and `cpu_us_per_exchange`
    /// (plus the command counts and the target, when there is one).
    var json: String {
        let operations: [[String: Any]] = results.map { result in
            var entry: [String: Any] = [
                "name": result.name,
                "frames": result.sample.frames,
                "bytes_to_reader": result.sample.bytesToReader,
                "bytes_from_reader": result.sample.bytesFromReader,
                "modeled_ms": Self.rounded(result.sample.modelledMilliseconds),
                "floor_ms": Self.rounded(result.floor.milliseconds),
                "ratio": Self.rounded(result.ratio),
                "cpu_us_per_exchange": Self.rounded(result.sample.cpuMicrosecondsPerExchange),
                "rss_kib_delta": result.sample.residentKiBDelta,
                "commands": result.sample.commands,
                "floor_commands": result.floor.commands,
                "pn532_commands": Self.hexKeyed(result.sample.commandsByCode),
                "tag_commands": Self.hexKeyed(result.sample.tagFramesByCode),
                "pn532_modeled_ms": Self.hexKeyedMilliseconds(result.sample.modelledTimeByCode),
                "tag_modeled_ms": Self.hexKeyedMilliseconds(result.sample.modelledTimeByTagCode),
            ]
            if let target = result.target {
                entry["target_ratio"] = target
                entry["meets_target"] = result.meetsTarget ?? false
            }
            if let changed = result.changedPages { entry["changed_pages"] = changed }
            return entry
        }
        var object: [String: Any] = ["operations": operations, "uart_baud": 115_200]
        if let memory { object["rss_kib_at_end"] = memory.residentKiB; object["peak_rss_kib"] = memory.peakKiB }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]),
              let text = String(data: data, encoding: .utf8) else { return "{}" }
        return text
    }

    /// A Markdown table, one row per operation.
    var table: String {
        var lines = [
            "| operation | PN532 cmds (floor) | frames | bytes → reader | bytes ← reader | modelled ms | floor ms | ratio | target | CPU µs / exchange |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|",
        ]
        for result in results {
            let target = result.target.map { String(format: "≤ %.1f× %@", $0, result.meetsTarget == true ? "met" : "MISSED") } ?? "—"
            lines.append("| \(result.name) | \(result.sample.commands) (\(result.floor.commands)) | \(result.sample.frames) | "
                + "\(result.sample.bytesToReader) | \(result.sample.bytesFromReader) | "
                + String(format: "%.1f | %.1f | %.2f | ", result.sample.modelledMilliseconds, result.floor.milliseconds, result.ratio)
                + "\(target) | " + String(format: "%.0f |", result.sample.cpuMicrosecondsPerExchange))
        }
        return lines.joined(separator: "\n")
    }

    /// Per operation, the PN532 commands and tag commands by code (where the frames went).
    var breakdown: String {
        results.map { result in
            "\(result.name): PN532 " + Self.describe(result.sample.commandsByCode, time: result.sample.modelledTimeByCode)
                + "; tag " + Self.describe(result.sample.tagFramesByCode, time: result.sample.modelledTimeByTagCode)
        }.joined(separator: "\n")
    }

    private static func describe(_ counts: [UInt8: Int], time: [UInt8: Duration] = [:]) -> String {
        counts.sorted { $0.key < $1.key }.map { code, count in
            String(format: "%02X×%d", code, count) + (time[code].map { String(format: " (%.1f ms)", milliseconds($0)) } ?? "")
        }.joined(separator: " ")
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    private static func hexKeyedMilliseconds(_ times: [UInt8: Duration]) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: times.map { (String(format: "%02X", $0.key), rounded(milliseconds($0.value))) })
    }

    private static func hexKeyed(_ counts: [UInt8: Int]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: counts.map { (String(format: "%02X", $0.key), $0.value) })
    }

    private static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }
}

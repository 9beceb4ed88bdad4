import Foundation
import NFCTagKit

/// The benchmark's output: a table for people, one JSON object for machines.
///
/// ```swift
/// print(BenchReport(results: results).table)
/// ```
struct BenchReport {
    var results: [BenchResult]
    /// The process's resident memory after the run, when measured.
    var memory: ProcessMemory?
    /// The UART speed of the run.
    var baud = 115_200

    /// One JSON object: `operations`, each with `name`, `frames`, `bytes_to_reader`,
    /// `bytes_from_reader`, `modeled_ms`, `floor_ms`, `ratio` and `cpu_us_per_exchange`
    /// (plus the command counts, the target when there is one, `safe_floor_ms` and
    /// `safe_ratio` for writes, and `floors_by_link`: the floor on every host link).
    var json: String {
        let operations: [[String: Any]] = results.map { result in
            var entry: [String: Any] = [
                "name": result.name,
                "reader": result.reader,
                "frames": result.sample.frames,
                "bytes_to_reader": result.sample.bytesToReader,
                "bytes_from_reader": result.sample.bytesFromReader,
                "modeled_ms": Self.rounded(result.sample.modelledMilliseconds),
                "tag_commands_modeled_ms": Self.rounded(Self.milliseconds(result.sample.tagWorkTime)),
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
            switch result.target {
            case .floorRatio(let ratio): entry["target_ratio"] = ratio
            case .safeFloorRatio(let ratio): entry["target_safe_ratio"] = ratio
            case .milliseconds(let ms): entry["target_ms"] = ms
            case .none: break
            }
            if result.target != nil { entry["meets_target"] = result.meetsTarget ?? false }
            if let safe = result.safeFloor {
                entry["safe_floor_ms"] = Self.rounded(safe.milliseconds)
                entry["safe_ratio"] = Self.rounded(result.safeRatio ?? 0)
            }
            if let bound = result.safetyBound {
                entry["safety_bound_ms"] = Self.rounded(bound.milliseconds)
                entry["safety_bound_ratio"] = Self.rounded(result.safetyBoundRatio ?? 0)
            }
            if let changed = result.changedPages { entry["changed_pages"] = changed }
            entry["floors_by_link"] = result.floorsByLink.map { link in
                var floor: [String: Any] = [
                    "link": link.link.description, "floor_ms": Self.rounded(link.floor.milliseconds),
                ]
                if let safe = link.safeFloor { floor["safe_floor_ms"] = Self.rounded(safe.milliseconds) }
                if let bound = link.safetyBound { floor["safety_bound_ms"] = Self.rounded(bound.milliseconds) }
                return floor
            }
            return entry
        }
        var object: [String: Any] = ["operations": operations, "uart_baud": baud]
        if let memory {
            object["rss_kib_at_end"] = memory.residentKiB
            object["peak_rss_kib"] = memory.peakKiB
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]),
            let text = String(data: data, encoding: .utf8)
        else { return "{}" }
        return text
    }

    /// The rows on the emulated PN532's UART (in this process).
    var uartResults: [BenchResult] { results.filter { $0.reader == ReaderModelName.pn532UART.rawValue } }
    /// The rows on an emulated USB reader (child `nfctag` processes).
    var usbResults: [BenchResult] { results.filter { $0.reader != ReaderModelName.pn532UART.rawValue } }

    /// A Markdown table, one row per operation on the PN532's UART.
    var table: String {
        var lines = [
            "| operation | PN532 cmds (floor) | frames | bytes → reader | bytes ← reader | modelled ms | floor ms | ratio | safe floor ms (ratio) | target | CPU µs / exchange |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|",
        ]
        for result in uartResults {
            let target = result.target.map { "\($0) " + (result.meetsTarget == true ? "met" : "MISSED") } ?? "—"
            let safe =
                result.safeFloor.map { String(format: "%.1f (%.2f×)", $0.milliseconds, result.safeRatio ?? 0) } ?? "—"
            lines.append(
                "| \(result.name) | \(result.sample.commands) (\(result.floor.commands)) | \(result.sample.frames) | "
                    + "\(result.sample.bytesToReader) | \(result.sample.bytesFromReader) | "
                    + String(
                        format: "%.1f | %.1f | %.2f | ", result.sample.modelledMilliseconds, result.floor.milliseconds,
                        result.ratio)
                    + "\(safe) | \(target) | " + String(format: "%.0f |", result.sample.cpuMicrosecondsPerExchange))
        }
        return lines.joined(separator: "\n")
    }

    /// Per USB reader kind, each `nfctag` process's modelled time beside the floor of its
    /// tag work on that kind's USB link; the process also opens, configures and closes the
    /// reader, so the tag commands' own time (``BenchSample/tagWorkTime``) is shown too.
    var readerKindTable: String {
        var lines = [
            "| reader | operation (nfctag process) | PN53x cmds (floor) | bytes → reader | bytes ← reader | modelled ms | tag commands ms | USB floor ms | ratio (tag commands / floor) |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for result in usbResults {
            let tagWork = Self.milliseconds(result.sample.tagWorkTime)
            lines.append(
                "| \(result.reader) | \(result.name) | \(result.sample.commands) (\(result.floor.commands)) | "
                    + "\(result.sample.bytesToReader) | \(result.sample.bytesFromReader) | "
                    + String(
                        format: "%.1f | %.1f | %.1f | %.2f (%.2f) |", result.sample.modelledMilliseconds, tagWork,
                        result.floor.milliseconds, result.ratio, tagWork / result.floor.milliseconds))
        }
        return lines.joined(separator: "\n")
    }

    /// Every operation's floor on every host link (``BenchSuite/floorLinks``), a write's
    /// tear-safe floor after a slash and, where there is one, the safety bound after another.
    var floorTable: String {
        guard let links = uartResults.first?.floorsByLink.map(\.link) else { return "" }
        var lines = [
            "| operation | " + links.map(\.description).joined(separator: " | ") + " |",
            "|---|" + links.map { _ in "---:|" }.joined(),
        ]
        for result in uartResults {
            let cells = result.floorsByLink.map { entry in
                String(format: "%.1f", entry.floor.milliseconds)
                    + (entry.safeFloor.map { String(format: " / %.1f", $0.milliseconds) } ?? "")
                    + (entry.safetyBound.map { String(format: " / %.1f", $0.milliseconds) } ?? "")
            }
            lines.append("| \(result.name) | " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// Per operation, the PN532 commands and tag commands by code (where the frames went).
    var breakdown: String {
        results.map { result in
            (result.reader == ReaderModelName.pn532UART.rawValue ? "" : result.reader + " ") + "\(result.name): PN532 "
                + Self.describe(result.sample.commandsByCode, time: result.sample.modelledTimeByCode)
                + "; tag " + Self.describe(result.sample.tagFramesByCode, time: result.sample.modelledTimeByTagCode)
        }.joined(separator: "\n")
    }

    private static func describe(_ counts: [UInt8: Int], time: [UInt8: Duration] = [:]) -> String {
        counts.sorted { $0.key < $1.key }.map { code, count in
            String(format: "%02X×%d", code, count)
                + (time[code].map { String(format: " (%.1f ms)", milliseconds($0)) } ?? "")
        }.joined(separator: " ")
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    private static func hexKeyedMilliseconds(_ times: [UInt8: Duration]) -> [String: Double] {
        Dictionary(
            uniqueKeysWithValues: times.map { (String(format: "%02X", $0.key), rounded(milliseconds($0.value))) })
    }

    private static func hexKeyed(_ counts: [UInt8: Int]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: counts.map { (String(format: "%02X", $0.key), $0.value) })
    }

    private static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }
}

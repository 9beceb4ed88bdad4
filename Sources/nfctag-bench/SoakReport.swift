import Foundation

/// The soak run's result: tags per final state, per station outcome, faults fired, and
/// whether the run is clean (no corrupt tag, no tag the station called written that does
/// not hold the new message).
struct SoakReport {
    var seed: UInt64
    var states: [SoakTagState: Int] = [:]
    var outcomes: [String: Int] = [:]
    var faultsFired: [String: Int] = [:]
    var inconsistent = 0
    /// Resident memory after the baseline tag (``SoakRun/memoryBaselineTag``, or the first
    /// tag of a shorter run) and after the last, and the peak.
    var memoryBaseline: (tag: Int, memory: ProcessMemory)?
    var memoryAtEnd: ProcessMemory?
    /// Reconnections, and the longest reconnection and library call, in wall time.
    var timings = SoakTimings.Summary()

    init(seed: UInt64) { self.seed = seed }

    /// Resident memory gained per tag after the baseline tag (KiB), when measured.
    var residentGrowthPerTagKiB: Double? {
        guard let baseline = memoryBaseline, let end = memoryAtEnd, tags > baseline.tag else { return nil }
        return Double(end.residentKiB - baseline.memory.residentKiB) / Double(tags - baseline.tag)
    }

    var tags: Int { states.values.reduce(0, +) }

    /// Zero tags corrupt or contradicting the station, and no reconnection given up (the
    /// emulated reader always comes back, 30 ms after an unplug).
    var isClean: Bool { (states[.corrupt] ?? 0) == 0 && inconsistent == 0 && timings.reconnectionsGivenUp == 0 }

    mutating func record(state: SoakTagState, consistent: Bool, fault: SoakFault, outcome: SoakStation.Outcome) {
        states[state, default: 0] += 1
        outcomes[outcome.kind, default: 0] += 1
        if !consistent { inconsistent += 1 }
        switch fault {
        case .none: break
        case .tear: faultsFired["tear", default: 0] += 1
        case .unplug: faultsFired["unplug", default: 0] += 1
        }
    }

    var text: String {
        var lines = ["soak run: \(tags) tags, seed \(seed)", "", "final state of each tag (from its memory):"]
        for state in SoakTagState.allCases { lines.append("  \(state.rawValue): \(states[state] ?? 0)") }
        lines.append("station outcomes:")
        for (kind, count) in outcomes.sorted(by: { $0.key < $1.key }) { lines.append("  \(kind): \(count)") }
        lines.append("faults fired: tears \(faultsFired["tear"] ?? 0), reader unplugs \(faultsFired["unplug"] ?? 0)")
        lines.append("written but not holding the new message: \(inconsistent)")
        lines.append(
            "automatic reconnections: \(timings.reconnections), given up \(timings.reconnectionsGivenUp)"
                + (timings.longestReconnection.map { ", longest \(Self.milliseconds($0.duration)) ms (tag \($0.tag))" }
                    ?? ""))
        lines.append(timings.unplugs.text)
        if let longest = timings.longestOperation {
            lines.append(
                "longest operation: \(longest.what) \(Self.milliseconds(longest.duration)) ms (tag \(longest.tag))")
        }
        if let baseline = memoryBaseline, let end = memoryAtEnd, let growth = residentGrowthPerTagKiB {
            let after = baseline.tag == 1 ? "the first tag" : "tag \(baseline.tag)"
            lines.append(
                String(
                    format:
                        "resident memory: %d KiB after %@, %d KiB at the end (%.2f KiB per tag after it), peak %d KiB",
                    baseline.memory.residentKiB, after, end.residentKiB, growth, end.peakKiB))
        }
        lines.append(
            isClean ? "CLEAN: no tag in an unknown or corrupt state" : "FAILED: tags in an unknown or corrupt state")
        return lines.joined(separator: "\n")
    }

    var json: String {
        var object: [String: Any] = [
            "seed": seed,
            "tags": tags,
            "states": Dictionary(uniqueKeysWithValues: SoakTagState.allCases.map { ($0.rawValue, states[$0] ?? 0) }),
            "outcomes": outcomes,
            "faults_fired": faultsFired,
            "inconsistent": inconsistent,
            "clean": isClean,
        ]
        object["reconnections"] = timings.reconnections
        object["reconnections_given_up"] = timings.reconnectionsGivenUp
        object["unplugs"] = timings.unplugs.json
        if let longest = timings.longestReconnection {
            object["longest_reconnection_ms"] = Self.milliseconds(longest.duration)
        }
        if let longest = timings.longestOperation {
            object["longest_operation_ms"] = Self.milliseconds(longest.duration)
            object["longest_operation"] = longest.what
        }
        if let baseline = memoryBaseline, let end = memoryAtEnd, let growth = residentGrowthPerTagKiB {
            object["rss_baseline_tag"] = baseline.tag
            object["rss_kib_at_baseline"] = baseline.memory.residentKiB
            object["rss_kib_at_end"] = end.residentKiB
            object["rss_kib_growth_per_tag"] = (growth * 100).rounded() / 100
            object["peak_rss_kib"] = end.peakKiB
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]),
            let text = String(data: data, encoding: .utf8)
        else { return "{}" }
        return text
    }

    /// Milliseconds with one decimal.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return ((Double(seconds) * 1000 + Double(attoseconds) / 1e15) * 10).rounded() / 10
    }
}

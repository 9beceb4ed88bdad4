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
    /// Resident memory after the first tag and after the last, and the peak.
    var memoryAfterFirstTag: ProcessMemory?
    var memoryAtEnd: ProcessMemory?

    init(seed: UInt64) { self.seed = seed }

    /// Resident memory gained per tag after the first one (KiB), when measured.
    var residentGrowthPerTagKiB: Double? {
        guard let first = memoryAfterFirstTag, let end = memoryAtEnd, tags > 1 else { return nil }
        return Double(end.residentKiB - first.residentKiB) / Double(tags - 1)
    }

    var tags: Int { states.values.reduce(0, +) }

    /// Zero tags corrupt or contradicting the station.
    var isClean: Bool { (states[.corrupt] ?? 0) == 0 && inconsistent == 0 }

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
        if let first = memoryAfterFirstTag, let end = memoryAtEnd, let growth = residentGrowthPerTagKiB {
            lines.append(String(format: "resident memory: %d KiB after the first tag, %d KiB at the end (%.2f KiB per tag), peak %d KiB",
                                first.residentKiB, end.residentKiB, growth, end.peakKiB))
        }
        lines.append(isClean ? "CLEAN: no tag in an unknown or corrupt state" : "FAILED: tags in an unknown or corrupt state")
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
        if let first = memoryAfterFirstTag, let end = memoryAtEnd, let growth = residentGrowthPerTagKiB {
            object["rss_kib_after_first_tag"] = first.residentKiB
            object["rss_kib_at_end"] = end.residentKiB
            object["rss_kib_growth_per_tag"] = (growth * 100).rounded() / 100
            object["peak_rss_kib"] = end.peakKiB
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]),
              let text = String(data: data, encoding: .utf8) else { return "{}" }
        return text
    }
}

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

    init(seed: UInt64) { self.seed = seed }

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
        lines.append(isClean ? "CLEAN: no tag in an unknown or corrupt state" : "FAILED: tags in an unknown or corrupt state")
        return lines.joined(separator: "\n")
    }

    var json: String {
        let object: [String: Any] = [
            "seed": seed,
            "tags": tags,
            "states": Dictionary(uniqueKeysWithValues: SoakTagState.allCases.map { ($0.rawValue, states[$0] ?? 0) }),
            "outcomes": outcomes,
            "faults_fired": faultsFired,
            "inconsistent": inconsistent,
            "clean": isClean,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]),
              let text = String(data: data, encoding: .utf8) else { return "{}" }
        return text
    }
}

import Foundation
import NFCTagKit

// How `nfctag provision` words and prints what the station did with a tag: the log line,
// the `--json` line and the human line.

extension ProvisioningRecord {
    /// The record with its failure worded as the rest of the tool words errors: the
    /// session error's summary (no `nfctag:` prefix), and the password a cut-short
    /// protection left, in the tool's terms.
    func worded(timeout: Duration) -> ProvisioningRecord {
        guard var failure, let error = failure.error else { return self }
        let summary: String
        switch error {
        case let error as NDEFSessionError:
            summary = TagSelection.failure(error, operation: failure.step.rawValue, chip: chip).summary
        case let error as TagSessionError:
            summary =
                ChipSession.failure(error, command: failure.step.rawValue, timeout: Double(timeout.components.seconds))
                .summary
            if failure.step == .protect, case .interrupted(_, let passwordState, _) = error {
                failure.state = "the new message is written and verified; " + passwordState.sentence
            }
        default:
            summary = failure.message
        }
        failure.message = summary.hasPrefix("nfctag: ") ? String(summary.dropFirst("nfctag: ".count)) : summary
        var record = self
        record.failure = failure
        return record
    }

    /// The JSON object of the log and of `--json`, in the order a person reads it: `time`,
    /// `station` (when given), `uid`, `chip`, `result`, `actions`, `ms`, and for a failure
    /// `step`, `error` and `state`.
    var json: JSONValue {
        var members: [(String, JSONValue)] = [("time", .string(Self.timestamp(time)))]
        if let station { members.append(("station", .string(station))) }
        members += [
            ("uid", .string(uid.hexString())), ("chip", .string(chipName)),
            ("result", .string(result.rawValue)), ("actions", .array(actions.map { .string($0.rawValue) })),
            ("ms", .int(milliseconds)),
        ]
        if let password { members.append(("password", .string(password))) }
        if let failure {
            members += [
                ("step", .string(failure.step.rawValue)), ("error", .string(failure.message)),
                ("state", .string(failure.state)),
            ]
            if failure.readerLost { members.append(("reader_lost", .bool(true))) }
        }
        return .object(members)
    }

    /// `ok      04a1b2c3d4e5f6 ntag215  write, verify, lock  (412 ms)`.
    var line: String {
        let head = result.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + uid.hexString() + " " + chipName
        let steps = actions.map(\.rawValue).joined(separator: ", ")
        switch result {
        case .ok:
            return head + "  " + steps + "  (\(milliseconds) ms)"
        case .skipped:
            return head + "  already provisioned — not touched (--again provisions it again)"
        case .failed:
            guard let failure else { return head }
            let done = actions.isEmpty ? "" : " after " + steps
            return head + "  \(failure.step.rawValue) failed\(done): \(failure.message) — \(failure.state)"
        }
    }

    private var chipName: String { chip?.rawValue ?? "unknown" }
}

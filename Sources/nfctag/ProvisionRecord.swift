import Foundation
import NFCTagKit

/// What the station did with one tag: the log line, the `--json` line and the human line.
struct ProvisionRecord {
    enum Result: String {
        /// Written, verified, and protected / locked as asked.
        case ok
        /// A step failed; `failure` says which and what the tag holds.
        case failed
        /// Already provisioned (in the log, or earlier in this run); not touched.
        case skipped
    }

    /// Why a step failed, in words, and what the tag holds now.
    struct Failure {
        /// `identify`, `write`, `verify`, `protect`, `lock`.
        var step: String
        /// The first line a person reads (no `nfctag:` prefix).
        var message: String
        /// What the tag holds now, as a sentence.
        var state: String
        /// The reader went away: the tag is retried once it is back, without being removed.
        var readerLost = false
        /// The tag left the field mid-step: it is retried as soon as it is presented again.
        var tagLeft = false
    }

    var uid: [UInt8]
    var chip: String
    var result: Result
    /// The steps completed, in order (`write`, `verify`, `protect`, `lock`).
    var actions: [String]
    var milliseconds: Int
    var failure: Failure?
    var time = Date()
    /// `--station NAME`, when given.
    var station: String?
    /// How the tag's password came about (`derived-v1`), never the password itself.
    var password: String?

    /// The JSON object of the log and of `--json`: `time`, `station` (when given), `uid`,
    /// `chip`, `result`, `actions`, `ms`, and for a failure `step`, `error` and `state`.
    var json: JSONValue {
        var members: [(String, JSONValue)] = [("time", .string(Self.timestamp(time)))]
        if let station { members.append(("station", .string(station))) }
        members += [
            ("uid", .string(uid.hexString())), ("chip", .string(chip)),
            ("result", .string(result.rawValue)), ("actions", .array(actions.map(JSONValue.string))),
            ("ms", .int(milliseconds)),
        ]
        if let password { members.append(("password", .string(password))) }
        if let failure {
            members += [
                ("step", .string(failure.step)), ("error", .string(failure.message)), ("state", .string(failure.state)),
            ]
            if failure.readerLost { members.append(("reader_lost", .bool(true))) }
        }
        return .object(members)
    }

    /// `ok      04a1b2c3d4e5f6 ntag215  write, verify, lock  (412 ms)`.
    var line: String {
        let head = result.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + uid.hexString() + " " + chip
        switch result {
        case .ok:
            return head + "  " + actions.joined(separator: ", ") + "  (\(milliseconds) ms)"
        case .skipped:
            return head + "  already provisioned — not touched (--again provisions it again)"
        case .failed:
            guard let failure else { return head }
            let done = actions.isEmpty ? "" : " after " + actions.joined(separator: ", ")
            return head + "  \(failure.step) failed\(done): \(failure.message) — \(failure.state)"
        }
    }

    /// ISO 8601 in UTC with milliseconds: `2025-03-01T12:00:00.123Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

import Foundation
import NFCTagKit
#if canImport(Glibc)
import Glibc
#endif

/// The station's tally and what it tells the person at the reader, on stderr: on a
/// terminal one line redrawn in place (`done 12 · failed 1 · skipped 0 · 9.5/min — Remove
/// the tag, present the next one`), otherwise a plain line per tag and per prompt.
///
/// A tag that failed and then succeeded when presented again counts as done: `failed`
/// is the number of tags whose last attempt failed.
struct ProvisionProgress {
    private(set) var done = 0
    private(set) var skipped = 0
    /// UIDs (hex) whose last attempt failed.
    private(set) var failedUIDs: Set<String> = []
    /// `--station NAME`, named in the summary.
    let station: String?
    private let started = ContinuousClock.now
    private let isTerminal: Bool
    private var prompt = ""

    var failed: Int { failedUIDs.count }

    init(station: String? = nil) {
        self.station = station
        isTerminal = isatty(STDERR_FILENO) == 1
    }

    /// Counts `record`.
    mutating func count(_ record: ProvisioningRecord) {
        let uid = record.uid.hexString()
        switch record.result {
        case .ok:
            done += 1
            failedUIDs.remove(uid)
        case .failed:
            failedUIDs.insert(uid)
        case .skipped:
            skipped += 1
        }
        if !isTerminal { write(tally + "\n") }
    }

    /// Tags provisioned per minute since the station started.
    var perMinute: Double {
        let seconds = elapsedSeconds
        return seconds > 0 ? Double(done) * 60 / seconds : 0
    }

    var elapsedSeconds: Double {
        let (seconds, attoseconds) = (ContinuousClock.now - started).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `done 3 · failed 1 · skipped 0 · 12.4/min`.
    var tally: String {
        "done \(done) · failed \(failed) · skipped \(skipped) · \(String(format: "%.1f", perMinute))/min"
    }

    /// Shows `text` to the person at the reader (once; the same prompt is not repeated).
    mutating func show(_ text: String) {
        guard text != prompt else { return }
        prompt = text
        if isTerminal {
            write("\r\u{1B}[K" + tally + " — " + text)
        } else {
            write(text + "\n")
        }
    }

    /// Erases the terminal line before other output.
    mutating func clearLine() {
        guard isTerminal else { return }
        write("\r\u{1B}[K")
        prompt = ""
    }

    /// The summary as text (several lines).
    var summaryText: String {
        let time = String(format: "%.1f", elapsedSeconds)
        return (station.map { "Station \($0): " } ?? "")
            + "Provisioned \(done) tag\(done == 1 ? "" : "s") in \(time) s (\(String(format: "%.1f", perMinute)) per minute); "
            + "\(failed) failed, \(skipped) skipped."
    }

    /// The summary as one JSON object.
    func summaryJSON(interrupted: Bool) -> JSONValue {
        .object(
            [("summary", .bool(true))] + (station.map { [("station", JSONValue.string($0))] } ?? []) + [
                ("done", .int(done)), ("failed", .int(failed)), ("skipped", .int(skipped)),
                ("failed_uids", .array(failedUIDs.sorted().map(JSONValue.string))),
                ("per_minute", .int(Int(perMinute.rounded()))), ("seconds", .int(Int(elapsedSeconds.rounded()))),
                ("interrupted", .bool(interrupted)),
            ])
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

import Foundation
import NFCTagKit
import Locking

/// The station's loop: wait for one tag, provision it, report it, ask for the next and
/// wait until it is taken away — so the same tag is never provisioned twice in a row by
/// accident.
///
/// More than one tag in the field: a prompt to remove all but one, and nothing is written.
/// The reader lost (unplugged, a USB hiccup): the device reconnects by itself; a tag whose
/// steps the loss cut short is reported with its state and tried again once the reader is
/// back. Ctrl-C ends the loop between tags (the tag in hand is finished first).
struct ProvisionStation {
    /// How the loop ended.
    enum Ending {
        /// `--count` tags were provisioned.
        case finished
        /// Ctrl-C / SIGTERM.
        case interrupted
        /// The reader went away and did not come back.
        case readerGone
    }

    let device: NFCDevice
    let options: ProvisionOptions
    let output: Output
    let log: ProvisionLog?
    let stop: StopRequest
    /// How long one tag may take to answer.
    let timeout: Duration
    /// UIDs (hex) provisioned before (the log) or during this run.
    var provisioned: Set<String>
    var progress: ProvisionProgress
    /// The tag that left the field mid-step, and how many times in a row: it is retried
    /// without waiting for its removal, twice at most (a tag that only seems to leave is
    /// then waited out like any other).
    var leftInARow: (uid: [UInt8], count: Int)? = nil

    /// The pause between two looks at the field: a person's pace. The test suites set
    /// `NFCTAG_TEST_STATION_POLL_MS` to run hundreds of tags through a station in seconds.
    private static let pollInterval: Duration = {
        guard let text = ProcessInfo.processInfo.environment["NFCTAG_TEST_STATION_POLL_MS"],
            let milliseconds = Int(text), (1...1000).contains(milliseconds)
        else { return .milliseconds(150) }
        return .milliseconds(milliseconds)
    }()

    mutating func run() async throws(ToolError) -> Ending {
        while true {
            if stop.isRequested { return .interrupted }
            if let count = options.count, progress.done >= count { return .finished }
            // One look that counts the tags (one InAutoPoll on a PN532 UART): a lone tag is
            // left selected, and that look is its alone check until its selection changes.
            let occupancy: FieldOccupancy
            do {
                occupancy = try await device.pollField()
            } catch .connectionLost, .notConnected {
                guard await waitForReader() else { return stop.isRequested ? .interrupted : .readerGone }
                continue
            } catch {
                // An RF hiccup (a tag half in the field, a collision): look again.
                await pause()
                continue
            }
            switch occupancy {
            case .absent:
                progress.show("Present a tag (Ctrl-C ends)")
                await pause()
            case .alone(let target):
                if let ending = try await handle(target) { return ending }
            case .several(let count):
                progress.show("\(count) tags in the field — remove all but one (nothing is written)")
                await pause()
            }
        }
    }

    /// Provisions the one tag in the field and waits for it to go. Returns an ending when
    /// the loop must stop.
    private mutating func handle(_ target: ISO14443ATarget) async throws(ToolError) -> Ending? {
        progress.show("Hold the tag still — provisioning \(target.uid.hexString())")
        let job = ProvisionJob(
            device: device, options: options.resolved(forUID: target.uid), timeout: timeout, target: target)
        let done = options.again ? [] : provisioned
        let outcome = await job.run { done.contains($0) }
        switch outcome {
        case .vanished:
            return nil
        case .severalTags(let count):
            progress.show("\(count) tags in the field — remove all but one (nothing is written)")
            await pause()
            return nil
        case .handled(let record):
            try report(record)
            if record.result == .ok { provisioned.insert(record.uid.hexString()) }
            if let count = options.count, progress.done >= count { return .finished }
            if record.failure?.readerLost == true {
                progress.show("The reader was lost — reconnecting; the tag is tried again once it is back")
                guard await waitForReader() else { return stop.isRequested ? .interrupted : .readerGone }
                return nil
            }
            if record.failure?.tagLeft == true {
                let count = (leftInARow.map { $0.uid == record.uid ? $0.count : 0 } ?? 0) + 1
                leftInARow = (record.uid, count)
                if count <= 2 {
                    progress.show("The tag left the field — present it again to finish it")
                    return nil
                }
            } else {
                leftInARow = nil
            }
            progress.show(
                record.result == .failed
                    ? "Take the failed tag away, present the next one"
                    : "Remove the tag, present the next one")
            return await waitForRemoval(of: record.uid)
        }
    }

    /// Logs `record`, prints it (stdout) and counts it.
    private mutating func report(_ record: ProvisionRecord) throws(ToolError) {
        var record = record
        record.station = progress.station
        if options.passwordDerivation != nil, options.protection != nil || options.authentication != nil {
            record.password = TagPasswordDerivation.v1Name
        }
        try log?.append(record.json)
        progress.clearLine()
        if output.json {
            output.document(record.json)
        } else {
            output.line(record.line)
        }
        progress.count(record)
    }

    /// Polls until `uid` has left the field (two looks in a row without it, so an RF
    /// hiccup is not taken for a removal).
    private mutating func waitForRemoval(of uid: [UInt8]) async -> Ending? {
        var absent = 0
        while absent < 2 {
            if stop.isRequested { return .interrupted }
            do {
                let targets = try await device.listTargets(maximum: 2)
                absent = targets.contains { $0.uid == uid } ? 0 : absent + 1
            } catch .connectionLost, .notConnected {
                guard await waitForReader() else { return stop.isRequested ? .interrupted : .readerGone }
                continue
            } catch {
                absent = 0
            }
            if absent < 2 { await pause() }
        }
        return nil
    }

    /// Waits for the device's automatic reconnection: true once the reader is back, false
    /// when it gave up (or Ctrl-C).
    private mutating func waitForReader() async -> Bool {
        progress.show("The reader was lost — waiting for it to come back (reconnecting)")
        while !stop.isRequested {
            switch await device.status {
            case .connected:
                progress.show("The reader is back")
                return true
            case .notConnected:
                return false
            case .connecting, .discovering:
                await pause()
            }
        }
        return false
    }

    private func pause() async {
        try? await Task.sleep(for: Self.pollInterval)
    }
}

/// Ctrl-C for the station: the first one asks it to stop between tags; a second one ends
/// the tool at once.
final class StopRequest: Sendable {
    private let signals = Locked(0)

    /// Counts a signal; returns how many arrived so far.
    @discardableResult
    func request() -> Int {
        signals.withLock { count in
            count += 1
            return count
        }
    }

    /// A signal came, to the station or (while the reader was opening, before the station's
    /// trap was set) to the tool, whose trap cancels the command's task.
    var isRequested: Bool { Task.isCancelled || signals.withLock { $0 > 0 } }
}

import Locking
import NFCTagKit

/// Wall-clock times the soak run watches, for a station that must stay steady when its
/// machine is busy: every automatic reconnection of the device (`reconnectStarted` until
/// `reconnectSucceeded`, from the device's own events) and every run of the
/// station, with the tag it served. A wait for a tag to enter the field is not an
/// operation: it ends at its own timeout when the tag is gone. Every unplug of the reader
/// is kept too, to be sorted against the reconnections (``SoakUnplugAccount``).
///
/// ```swift
/// let timings = SoakTimings()
/// // configuration.eventHandler = { timings.record($0) }
/// timings.record(operation: "provision", took: .milliseconds(12))
/// print(timings.summary.longestOperation?.duration ?? .zero)
/// ```
final class SoakTimings: Sendable {
    /// The longest of something, and when it happened.
    struct Longest: Equatable, Sendable {
        var duration: Duration
        /// The station run (`provision`), or `reconnection`.
        var what: String
        /// The soak's tag number.
        var tag: Int
    }

    /// What the run saw.
    struct Summary: Equatable, Sendable {
        var reconnections = 0
        /// Automatic reconnections that ended with `reconnectFailed`.
        var reconnectionsGivenUp = 0
        var longestReconnection: Longest?
        var longestOperation: Longest?
        /// Every unplug the soak carried out, sorted against the reconnections.
        var unplugs = SoakUnplugAccount()
    }

    private struct State {
        var tag = 0
        var tagStarted = ContinuousClock.now
        var reconnectStarted: ContinuousClock.Instant?
        var summary = Summary()
        /// When the soak pulled the reader out, each time.
        var unplugs: [ContinuousClock.Instant] = []
        /// Every reconnection: its start, and its end once it ended.
        var reconnectionSpans: [(start: ContinuousClock.Instant, end: ContinuousClock.Instant?)] = []
        var reconnectionReasons: [String] = []
        /// The device's events since the current tag started (for a failure's message).
        var recentEvents: [String] = []
    }

    private let state = Locked(State())

    /// From now on, what happens belongs to tag `serial`.
    func startTag(_ serial: Int) {
        state.withLock {
            $0.tag = serial
            $0.tagStarted = .now
            $0.recentEvents.removeAll(keepingCapacity: true)
        }
    }

    /// Follows the device's events (its `eventHandler`, on the device thread).
    func record(_ event: ReaderEvent) {
        state.withLock { state in
            if state.recentEvents.count < 64 {
                let (seconds, attoseconds) = state.tagStarted.duration(to: .now).components
                let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
                state.recentEvents.append("\(event.description) at +\(milliseconds) ms")
            }
        }
        switch event {
        case .reconnectStarted(let reason, _): reconnectionStarted(reason: reason.name)
        case .reconnectSucceeded: reconnectionEnded(succeeded: true)
        case .reconnectFailed: reconnectionEnded(succeeded: false)
        default: break
        }
    }

    /// The device lost its reader and started reconnecting, at `now`.
    func reconnectionStarted(reason: String = "", at now: ContinuousClock.Instant = .now) {
        state.withLock {
            $0.reconnectStarted = now
            $0.reconnectionSpans.append((start: now, end: nil))
            $0.reconnectionReasons.append(reason)
        }
    }

    /// The soak is pulling the reader out, at `now` (before the emulator's port closes, so
    /// before the device can notice).
    func readerUnplugged(at now: ContinuousClock.Instant = .now) {
        state.withLock { $0.unplugs.append(now) }
    }

    /// The reconnection ended at `now`: the reader back, or the device gave up.
    func reconnectionEnded(succeeded: Bool, at now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            state.summary.reconnections += 1
            if !succeeded { state.summary.reconnectionsGivenUp += 1 }
            if let started = state.reconnectStarted {
                Self.keepLonger(
                    &state.summary.longestReconnection,
                    Longest(duration: started.duration(to: now), what: "reconnection", tag: state.tag))
            }
            if let last = state.reconnectionSpans.indices.last, state.reconnectionSpans[last].end == nil {
                state.reconnectionSpans[last].end = now
            }
            state.reconnectStarted = nil
        }
    }

    /// Keeps `duration` of `what` if it is the longest operation so far.
    func record(operation what: String, took duration: Duration) {
        state.withLock {
            Self.keepLonger(&$0.summary.longestOperation, Longest(duration: duration, what: what, tag: $0.tag))
        }
    }

    var summary: Summary {
        state.withLock { state in
            var summary = state.summary
            summary.unplugs = SoakUnplugAccount(
                unplugs: state.unplugs, reconnections: state.reconnectionSpans, reasons: state.reconnectionReasons)
            return summary
        }
    }

    /// The device's events since the current tag started, oldest first, each with its time
    /// since then (`reconnectFailed at +20214 ms`).
    var recentEvents: [String] { state.withLock { $0.recentEvents } }

    private static func keepLonger(_ longest: inout Longest?, _ candidate: Longest) {
        if let current = longest, current.duration >= candidate.duration { return }
        longest = candidate
    }
}

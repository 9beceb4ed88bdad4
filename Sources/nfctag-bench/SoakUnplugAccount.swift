/// Where every reader unplug of a soak run went, from the instants the soak pulled the
/// reader out and the device's own reconnections (`reconnectStarted` to its end).
///
/// The soak unplugs the reader from the emulator's tag-change observer on a thread of its
/// own, so an unplug can land after the station called the tag done, and even after the
/// next tag's planned unplug. A device notices a lost reader at its next command and then
/// reconnects once, however many times the reader went away before it noticed; a loss
/// while it is already reconnecting is part of that reconnection (the state machine ignores
/// it by design: the attempts under way bring the reader back). So a run can count more
/// unplugs than reconnections, and this says why, unplug by unplug:
///
/// `unplugs = noticed + whileReconnecting + beforeNoticed + notNoticed`, and
/// `reconnections started = noticed + otherReconnections`.
///
/// ```swift
/// let account = SoakUnplugAccount(unplugs: [t0, t1], reconnections: [(start: t0 + .milliseconds(2), end: t1 + .milliseconds(90))])
/// account.noticed            // 1
/// account.whileReconnecting  // 1: t1 fell inside the reconnection that t0 started
/// ```
struct SoakUnplugAccount: Equatable, Sendable {
    /// Unplugs carried out (the instants the reader was pulled out).
    var unplugs = 0
    /// Unplugs that started a reconnection of their own (the device noticed them).
    var noticed = 0
    /// Unplugs while the device was already reconnecting after an earlier one: that
    /// reconnection brought the reader back for both.
    var whileReconnecting = 0
    /// Unplugs that came before the device had noticed the previous one (no command reached
    /// the reader in between): one reconnection for both.
    var beforeNoticed = 0
    /// Unplugs the device had not noticed when the run ended.
    var notNoticed = 0
    /// Reconnections the device started.
    var reconnectionsStarted = 0
    /// Reconnections that no unplug before them explains.
    var otherReconnections = 0
    /// Why the device started each of those (`not-responding`: a reader starved of time
    /// on a loaded machine answers too late), when the run knew.
    var otherReasons: [String] = []

    init(
        unplugs: Int = 0, noticed: Int = 0, whileReconnecting: Int = 0, beforeNoticed: Int = 0, notNoticed: Int = 0,
        reconnectionsStarted: Int = 0, otherReconnections: Int = 0
    ) {
        self.unplugs = unplugs
        self.noticed = noticed
        self.whileReconnecting = whileReconnecting
        self.beforeNoticed = beforeNoticed
        self.notNoticed = notNoticed
        self.reconnectionsStarted = reconnectionsStarted
        self.otherReconnections = otherReconnections
    }

    /// Sorts `unplugs` (the instant each unplug began) against `reconnections` (start, and
    /// end when it ended): an unplug inside a reconnection is absorbed by it; the others
    /// wait for the next reconnection to start, the last of them counting as noticed by it.
    init(
        unplugs: [ContinuousClock.Instant],
        reconnections: [(start: ContinuousClock.Instant, end: ContinuousClock.Instant?)], reasons: [String] = []
    ) {
        let order = reconnections.indices.sorted { reconnections[$0].start < reconnections[$1].start }
        let spans = order.map { reconnections[$0] }
        let reasons = order.map { reasons.indices.contains($0) ? reasons[$0] : nil }
        self.unplugs = unplugs.count
        reconnectionsStarted = spans.count
        var waiting = 0
        var next = 0
        for unplug in unplugs.sorted() {
            while next < spans.count, spans[next].start < unplug {
                settle(waiting: &waiting, reason: reasons[next])
                next += 1
            }
            let inside = spans[..<next].contains { span in span.end.map { unplug <= $0 } ?? true }
            if inside { whileReconnecting += 1 } else { waiting += 1 }
        }
        while next < spans.count {
            settle(waiting: &waiting, reason: reasons[next])
            next += 1
        }
        notNoticed = waiting
    }

    /// A reconnection starts: the last unplug waiting is the one it noticed.
    private mutating func settle(waiting: inout Int, reason: String?) {
        if waiting > 0 {
            noticed += 1
            beforeNoticed += waiting - 1
        } else {
            otherReconnections += 1
            if let reason { otherReasons.append(reason) }
        }
        waiting = 0
    }

    /// Whether every unplug and every reconnection is accounted for (always, by construction;
    /// the test of the arithmetic).
    var addsUp: Bool {
        unplugs == noticed + whileReconnecting + beforeNoticed + notNoticed
            && reconnectionsStarted == noticed + otherReconnections
    }

    /// `reader unplugs: 33 — 31 noticed (a reconnection each), 2 while already reconnecting, …`.
    var text: String {
        "reader unplugs: \(unplugs) — \(noticed) noticed (a reconnection each), \(whileReconnecting) while already reconnecting, "
            + "\(beforeNoticed) before the previous one was noticed, \(notNoticed) not noticed by the end; "
            + "reconnections without an unplug: \(otherReconnections)"
            + (otherReasons.isEmpty ? "" : " (\(otherReasons.joined(separator: ", ")))")
    }

    /// The JSON object `unplugs` of the soak report.
    var json: [String: Int] {
        [
            "total": unplugs, "noticed": noticed, "while_reconnecting": whileReconnecting,
            "before_previous_noticed": beforeNoticed,
            "not_noticed": notNoticed, "reconnections_started": reconnectionsStarted,
            "reconnections_without_unplug": otherReconnections,
        ]
    }
}

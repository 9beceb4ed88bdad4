internal import Locking

/// A provisioning station: each tag presented to the reader is identified, written,
/// verified, and protected and locked as the ``ProvisioningPlan`` asks, then the station
/// waits for it to be taken away, so that no tag is provisioned twice in a row by accident.
///
/// More than one tag in the field: nothing is written, and the station asks for all but one
/// to be removed. A tag the log of an earlier run lists as done is skipped. The reader lost
/// (unplugged, a USB hiccup): the device reconnects by itself and the tag whose steps the
/// loss cut short is tried again once it is back. ``stop()`` (or cancelling the task)
/// ends the run between tags; the tag in hand is finished first.
///
/// ```swift
/// try await NFCDevice.withReader { device in
///     var plan = ProvisioningPlan(message: NDEFMessage(records: [.uri("https://example.com/p/1")]))
///     plan.lock = true
///     let station = ProvisioningStation(device: device, plan: plan, label: "line 2")
///     _ = await station.run(count: 100) { event in
///         if case .handled(let record) = event { print(record.uid.hexString(), record.result) }
///     }
/// }
/// ```
public actor ProvisioningStation {
    /// What the station tells the person at the reader, and what it did.
    @nonexhaustive
    public enum Event: Sendable {
        /// The field is empty: present a tag.
        case waitingForTag
        /// Several tags in the field: remove all but one. Nothing is written.
        case severalTags(Int)
        /// One tag in the field: hold it still.
        case provisioning(uid: [UInt8])
        /// A tag was provisioned, failed (the record says at which step), or skipped.
        case handled(ProvisioningRecord)
        /// Take the tag away and present the next one (`failed`: it failed).
        case removeTag(failed: Bool)
        /// The tag left the field mid-step: present it again to finish it.
        case presentAgain(uid: [UInt8])
        /// The reader was lost; the device is reconnecting.
        case readerLost
        /// The reader is back.
        case readerBack
    }

    /// How a run ended.
    @nonexhaustive
    public enum Ending: Sendable, Equatable {
        /// The number of tags asked for were provisioned.
        case finished
        /// ``ProvisioningStation/stop()`` or the task was cancelled.
        case stopped
        /// The reader went away and the device gave up reconnecting.
        case readerGone
    }

    private let device: NFCDevice
    private let plan: ProvisioningPlan
    private let label: String?
    private let tagTimeout: Duration
    private let pollInterval: Duration
    private let skipsProvisioned: Bool
    private let stopRequest = Locked(false)
    private let isRunning = Locked(false)
    private let broadcast = Broadcast<Event>(initial: nil)
    /// UIDs provisioned before (given) or during a run.
    private var provisioned: Set<[UInt8]>
    /// Tags provisioned in this station's runs.
    public private(set) var provisionedCount = 0
    /// The tag that left the field mid-step, and how many times in a row: it is tried again
    /// without waiting for its removal, twice at most.
    private var leftInARow: (uid: [UInt8], count: Int)?

    /// A station on `device`.
    ///
    /// - Parameters:
    ///   - device: the connected reader the tags are presented to.
    ///   - plan: what each tag gets: the message, protection, lock, or a SUN setup.
    ///   - label: written into every record (a line, a box, a person).
    ///   - alreadyProvisioned: UIDs done before (from an earlier run's log); they are
    ///     skipped, as are the tags this station provisions, unless `skipsProvisioned` is false.
    ///   - skipsProvisioned: whether a tag provisioned before is skipped (false: written again).
    ///   - tagTimeout: how long one tag may take to answer.
    ///   - pollInterval: the pause between two looks at the field.
    public init(
        device: NFCDevice, plan: ProvisioningPlan, label: String? = nil, alreadyProvisioned: Set<[UInt8]> = [],
        skipsProvisioned: Bool = true, tagTimeout: Duration = NFCDevice.defaultTimeout,
        pollInterval: Duration = .milliseconds(150)
    ) {
        self.device = device
        self.plan = plan
        self.label = label
        self.provisioned = alreadyProvisioned
        self.skipsProvisioned = skipsProvisioned
        self.tagTimeout = tagTimeout
        self.pollInterval = pollInterval
    }

    deinit {
        broadcast.finish()
    }

    /// Every event of the station's runs, for observers (a second screen, a counter).
    public nonisolated var events: AsyncStream<Event> { broadcast.stream() }

    /// Ends the run between tags: the tag in hand is finished first. Asked before a run
    /// begins, it ends that run at once.
    public nonisolated func stop() {
        stopRequest.withLock { $0 = true }
    }

    private nonisolated var isStopRequested: Bool { Task.isCancelled || stopRequest.withLock { $0 } }

    /// Provisions tags until `count` were provisioned (failed and skipped tags do not count),
    /// ``stop()``, or the reader is gone for good.
    public nonisolated(nonsending) func run(count: Int? = nil) async -> Ending {
        await run(count: count) { (_: Event) throws(Never) in }
    }

    /// Provisions tags as ``run(count:)``, handing each event to `onEvent` before going on:
    /// a record is in the app's log before the next tag is touched. An error `onEvent`
    /// throws ends the run. `onEvent` runs in the caller's isolation, so it may use the
    /// caller's state.
    public nonisolated(nonsending) func run<Failure: Error>(
        count: Int? = nil, onEvent: (Event) async throws(Failure) -> Void
    ) async throws(Failure) -> Ending {
        let alreadyRunning = isRunning.withLock { running in
            defer { running = true }
            return running
        }
        precondition(!alreadyRunning, "a ProvisioningStation runs one run at a time")
        // A stop asked for before the run began ends it at once; after the run, none is pending.
        defer {
            stopRequest.withLock { $0 = false }
            isRunning.withLock { $0 = false }
        }
        let start = await provisionedCount
        let target = count.map { start + $0 }
        nonisolated(nonsending) func emit(_ event: Event) async throws(Failure) {
            broadcast.send(event)
            try await onEvent(event)
        }
        var lastPrompt: Event?
        while true {
            if isStopRequested { return .stopped }
            if let target, await provisionedCount >= target { return .finished }
            // One look that counts the tags: a lone tag is left selected, and that look is its
            // alone check until its selection changes.
            let occupancy: FieldOccupancy
            do {
                occupancy = try await device.pollField()
            } catch .connectionLost, .notConnected {
                guard try await waitForReader(emit) else { return isStopRequested ? .stopped : .readerGone }
                continue
            } catch {
                // An RF hiccup (a tag half in the field, a collision): look again.
                await pause()
                continue
            }
            switch occupancy {
            case .absent, .several, .aloneCard:
                let prompt: Event = if case .several(let n) = occupancy { .severalTags(n) } else { .waitingForTag }
                if !Self.same(prompt, lastPrompt) { try await emit(prompt) }
                lastPrompt = prompt
                await pause()
            case .alone(let tag):
                lastPrompt = nil
                if let ending = try await handle(tag, target: target, emit) { return ending }
            }
        }
    }

    private static func same(_ a: Event, _ b: Event?) -> Bool {
        switch (a, b) {
        case (.waitingForTag, .waitingForTag?): true
        case (.severalTags(let x), .severalTags(let y)?): x == y
        default: false
        }
    }

    /// Provisions the one tag in the field and waits for it to go; an ending when the run
    /// must stop.
    private nonisolated(nonsending) func handle<Failure: Error>(
        _ tag: ISO14443ATarget, target: Int?, _ emit: (Event) async throws(Failure) -> Void
    ) async throws(Failure) -> Ending? {
        try await emit(.provisioning(uid: tag.uid))
        let job = ProvisioningJob(
            device: device, plan: plan.resolved(forUID: tag.uid), timeout: tagTimeout, target: tag)
        let done = await skipsProvisioned ? provisioned : []
        switch await job.run(isProvisioned: { done.contains($0) }) {
        case .vanished:
            return nil
        case .severalTags(let count):
            try await emit(.severalTags(count))
            await pause()
            return nil
        case .handled(let handled):
            let (record, presentAgain) = await count(handled)
            try await emit(.handled(record))
            if let target, await provisionedCount >= target { return .finished }
            if record.failure?.readerLost == true {
                guard try await waitForReader(emit) else { return isStopRequested ? .stopped : .readerGone }
                return nil
            }
            if presentAgain {
                try await emit(.presentAgain(uid: record.uid))
                return nil
            }
            try await emit(.removeTag(failed: record.result == .failed))
            return try await waitForRemoval(of: record.uid, emit)
        }
    }

    /// Labels and counts a handled tag; whether a tag that left mid-step is to be presented
    /// again (twice in a row at most: a tag that only seems to leave is then waited out).
    private func count(_ handled: ProvisioningRecord) -> (ProvisioningRecord, presentAgain: Bool) {
        var record = handled
        record.station = label
        if plan.passwordDerivation != nil, plan.protection != nil || plan.authentication != nil {
            record.password = TagPasswordDerivation.v1Name
        }
        if record.result == .ok {
            provisioned.insert(record.uid)
            provisionedCount += 1
        }
        guard record.failure?.readerLost != true else { return (record, false) }
        guard record.failure?.tagLeft == true else {
            leftInARow = nil
            return (record, false)
        }
        let count = (leftInARow.map { $0.uid == record.uid ? $0.count : 0 } ?? 0) + 1
        leftInARow = (record.uid, count)
        return (record, count <= 2)
    }

    /// Polls until `uid` has left the field (two looks in a row without it, so that an RF
    /// hiccup is not taken for a removal).
    private nonisolated(nonsending) func waitForRemoval<Failure: Error>(
        of uid: [UInt8], _ emit: (Event) async throws(Failure) -> Void
    )
        async throws(Failure) -> Ending?
    {
        var absent = 0
        while absent < 2 {
            if isStopRequested { return .stopped }
            do {
                let targets = try await device.listTargets(maximum: 2)
                absent = targets.contains { $0.uid == uid } ? 0 : absent + 1
            } catch .connectionLost, .notConnected {
                guard try await waitForReader(emit) else { return isStopRequested ? .stopped : .readerGone }
                continue
            } catch {
                absent = 0
            }
            if absent < 2 { await pause() }
        }
        return nil
    }

    /// Waits for the device's automatic reconnection: true once the reader is back, false
    /// when the device gave up (or the run was stopped).
    private nonisolated(nonsending) func waitForReader<Failure: Error>(_ emit: (Event) async throws(Failure) -> Void)
        async throws(Failure)
        -> Bool
    {
        try await emit(.readerLost)
        while !isStopRequested {
            switch await device.status {
            case .connected:
                try await emit(.readerBack)
                return true
            case .notConnected:
                return false
            case .connecting, .discovering:
                await pause()
            }
        }
        return false
    }

    private nonisolated(nonsending) func pause() async {
        try? await Task.sleep(for: pollInterval)
    }
}

/// The phase of one write command in a tear-safe NDEF write.
enum NDEFWritePhase: Sendable, Equatable {
    /// Making the tag read as an empty NDEF (TLV length or NLEN 0).
    case clearLength
    /// Writing the message while the tag reads as empty.
    case body
    /// Writing the real length: the single write that makes the new message visible.
    case commit
}

/// The state machine of a tear-safe NDEF write, shared by every tag family: what to send
/// next and what the tag holds now. It sends nothing; the driver carries out its actions
/// and reports back.
///
/// Drivers run it with ``run(phases:previousReadsEmpty:progress:isolation:write:verify:)``:
///
/// ```swift
/// try await NDEFWriteMachine.run(phases: plan.writes.map(\.phase), previousReadsEmpty: plan.previousReadsEmpty,
///                                progress: progress) { index, machine throws(NDEFTagError) in
///     try await send(plan.writes[index])   // on failure: machine.stateAfterFailure(mayHaveReachedTag:)
/// } verify: { tagHolds throws(NDEFTagError) in
///     try await readBackAndCompare()       // errors carry `tagHolds`
/// }
/// ```
struct NDEFWriteMachine: Sendable {
    /// What the driver does next.
    enum Action: Sendable, Equatable {
        /// Send the write at this index of the plan.
        case write(Int)
        /// Read back and compare.
        case verify
        /// The write is verified.
        case finished
    }

    /// The phase of each planned write, in order.
    let phases: [NDEFWritePhase]
    /// Whether the tag read as an empty NDEF before the write.
    let previousReadsEmpty: Bool
    /// Writes the tag acknowledged.
    private(set) var acknowledged = 0
    /// Whether the read-back matched.
    private(set) var verified = false

    init(phases: [NDEFWritePhase], previousReadsEmpty: Bool) {
        self.phases = phases
        self.previousReadsEmpty = previousReadsEmpty
    }

    /// The next action.
    func nextAction() -> Action {
        if acknowledged < phases.count { return .write(acknowledged) }
        return verified ? .finished : .verify
    }

    /// The tag acknowledged the pending write.
    mutating func writeAcknowledged() {
        precondition(acknowledged < phases.count, "no write is pending")
        acknowledged += 1
    }

    /// The read-back matched.
    mutating func verificationSucceeded() {
        precondition(acknowledged == phases.count, "writes are pending")
        verified = true
    }

    /// Carries out a plan of writes with `phases`: reports progress (0 first, then after
    /// every acknowledged write), sends each write with `write` — given the machine, so that
    /// its error can say what the tag holds (``stateAfterFailure(mayHaveReachedTag:)``) —
    /// then reads back with `verify`, given what the tag holds by then. Runs on the
    /// caller's actor.
    static func run(
        phases: [NDEFWritePhase], previousReadsEmpty: Bool, progress: @Sendable (NDEFWriteProgress) -> Void,
        isolation: isolated (any Actor)? = #isolation,
        write: (Int, NDEFWriteMachine) async throws(NDEFTagError) -> Void,
        verify: (NDEFTagContentState) async throws(NDEFTagError) -> Void
    ) async throws(NDEFTagError) {
        var machine = NDEFWriteMachine(phases: phases, previousReadsEmpty: previousReadsEmpty)
        progress(NDEFWriteProgress(written: 0, total: phases.count))
        while true {
            switch machine.nextAction() {
            case .write(let index):
                try await write(index, machine)
                machine.writeAcknowledged()
                progress(NDEFWriteProgress(written: machine.acknowledged, total: phases.count))
            case .verify:
                try await verify(machine.tagHolds)
                machine.verificationSucceeded()
            case .finished:
                return
            }
        }
    }

    /// What the tag holds now, with no write in flight.
    var tagHolds: NDEFTagContentState { stateAfterFailure(mayHaveReachedTag: false) }

    /// What the tag holds when the pending action failed; `mayHaveReachedTag` is false only
    /// when the tag certainly refused it (a NAK or an error status word).
    func stateAfterFailure(mayHaveReachedTag mayHave: Bool) -> NDEFTagContentState {
        guard !phases.isEmpty else { return .previousMessageIntact }
        guard acknowledged < phases.count else { return .newMessageUnverified }
        switch phases[acknowledged] {
        case .clearLength:
            if previousReadsEmpty { return .emptyMessage }
            return mayHave ? .unknown : .previousMessageIntact
        case .body:
            // The clear phase is skipped only when the length already was 0.
            return .emptyMessage
        case .commit:
            return mayHave ? .unknown : .emptyMessage
        }
    }
}

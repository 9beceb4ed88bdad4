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
/// ```swift
/// var machine = NDEFWriteMachine(phases: plan.writes.map(\.phase), previousReadsEmpty: plan.previousReadsEmpty)
/// while case .write(let index) = machine.nextAction() {
///     try await send(plan.writes[index])   // on failure: machine.stateAfterFailure(mayHaveReachedTag:)
///     machine.writeAcknowledged()
/// }
/// // .verify: read back and compare
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

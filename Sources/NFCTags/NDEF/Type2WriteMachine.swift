/// The state machine of a Type 2 NDEF write: what to send next and what the tag holds
/// now. It sends nothing itself; the driver carries out its actions and reports back.
///
/// ```swift
/// var machine = Type2WriteMachine(plan: plan)
/// while case .write(let write) = machine.nextAction() {
///     try await send(write)            // on failure: machine.stateAfterFailure(mayHaveReachedTag:)
///     machine.writeAcknowledged()
/// }
/// // .verify(pages): read back and compare with plan.finalMemory
/// ```
struct Type2WriteMachine: Sendable {
    /// What the driver does next.
    enum Action: Sendable, Equatable {
        /// Send this page write.
        case write(Type2WritePlan.PageWrite)
        /// Read these pages back and compare.
        case verify(ClosedRange<Int>)
        /// The write is verified.
        case finished
    }

    let plan: Type2WritePlan
    /// Writes the tag acknowledged.
    private(set) var acknowledged = 0
    /// Whether the read-back matched.
    private(set) var verified = false

    init(plan: Type2WritePlan) {
        self.plan = plan
    }

    /// The next action.
    func nextAction() -> Action {
        if acknowledged < plan.writes.count { return .write(plan.writes[acknowledged]) }
        return verified ? .finished : .verify(plan.verifyPages)
    }

    /// The tag acknowledged the pending write.
    mutating func writeAcknowledged() {
        precondition(acknowledged < plan.writes.count, "no write is pending")
        acknowledged += 1
    }

    /// The read-back matched.
    mutating func verificationSucceeded() {
        precondition(acknowledged == plan.writes.count, "writes are pending")
        verified = true
    }

    /// What the tag holds now, assuming the pending write (if any) did not reach it.
    var tagHolds: NDEFTagContentState { state(afterFailureMayHaveReachedTag: false) }

    /// What the tag holds when the pending action failed; `mayHaveReachedTag` is false only
    /// when the tag certainly refused it (a NAK).
    func stateAfterFailure(mayHaveReachedTag: Bool) -> NDEFTagContentState {
        state(afterFailureMayHaveReachedTag: mayHaveReachedTag)
    }

    private func state(afterFailureMayHaveReachedTag mayHave: Bool) -> NDEFTagContentState {
        let writes = plan.writes
        guard !writes.isEmpty else { return .previousMessageIntact }
        guard acknowledged < writes.count else { return .newMessageUnverified }
        switch writes[acknowledged].phase {
        case .clearLength:
            if plan.previousReadsEmpty { return .emptyMessage }
            return mayHave ? .unknown : .previousMessageIntact
        case .body:
            // The clear phase is skipped only when the length already was 0.
            return .emptyMessage
        case .commit:
            return mayHave ? .unknown : .emptyMessage
        }
    }
}

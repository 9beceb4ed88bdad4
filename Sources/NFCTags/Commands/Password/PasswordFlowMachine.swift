import NFCChips

/// The pure state machine that runs a ``PasswordFlowPlan``: it says what to send next and
/// keeps track of what the tag requires, pessimistically. When a write is sent and its
/// ACK never comes (the tag left the field), both the old and the new value stay possible
/// — and, on a page the chip does not protect against tearing, a mix of their bits (the
/// field may have dropped inside the EEPROM cycle): a secret written there becomes one
/// nobody knows. A NAK means the write did not happen.
///
/// The driver loop is short:
///
/// ```swift
/// var machine = PasswordFlowMachine(plan: plan)
/// while case .perform(let step) = machine.next() {
///     machine.record(await carryOut(step))
/// }
/// ```
package struct PasswordFlowMachine: Sendable {
    /// What the driver does next.
    package enum Next: Sendable {
        /// Carry out this step and ``record(_:)`` its outcome.
        case perform(PasswordFlowStep)
        /// The flow finished; the tag requires what the state says.
        case finished(TagPasswordState)
        /// The flow stopped: ``TagCommandError/interrupted(tagNowRequires:cause:)`` once a
        /// write was sent; before that the step's own error (nothing was written).
        case stopped(TagCommandError)
    }

    /// How a step went.
    package enum Outcome: Sendable, Hashable {
        /// Done (ACK, reselected, authenticated without a PACK to check).
        case done
        /// PWD_AUTH answered this PACK.
        case pack([UInt8])
        /// The configuration as read back.
        case configuration(Type2Configuration)
        /// The step failed.
        case failed(TagCommandError)
    }

    /// The steps.
    package let steps: [PasswordFlowStep]
    /// What the tag may require right now.
    package private(set) var state: TagPasswordState
    /// The index of the next step.
    package private(set) var position = 0
    private var failure: TagCommandError?
    /// Pages whose write the chip protects against tearing (from its table).
    private let tearingProtectedPages: [UInt8]

    /// A machine at the start of `plan`.
    package init(plan: PasswordFlowPlan) {
        steps = plan.steps
        state = plan.initialState
        tearingProtectedPages = ChipTables.spec(for: plan.chip).memory?.tearingProtectedPages ?? []
    }

    /// The next thing to do.
    package func next() -> Next {
        if let failure { return .stopped(failure) }
        guard position < steps.count else { return .finished(state) }
        return .perform(steps[position])
    }

    /// Records the outcome of the step ``next()`` returned.
    package mutating func record(_ outcome: Outcome) {
        guard failure == nil, position < steps.count else { return }
        let step = steps[position]
        switch outcome {
        case .failed(let error):
            if case .write(let page, _) = step.action, !Self.certainlyNotWritten(error) {
                applyPossibly(step.effect, torn: !tearingProtectedPages.contains { Int($0) == page })
            }
            stop(error)
        case .pack(let pack):
            if case .authenticate(_, let expected?) = step.action, expected != pack {
                stop(.packMismatch(expected: expected, received: pack))
            } else {
                advance(applying: step.effect)
            }
        case .configuration(let read):
            if case .verifyConfiguration(let expected) = step.action, read.values != expected.values {
                let differences = expected.changes(from: read).map(\.description).joined(separator: ", ")
                stop(.verificationFailed("configuration read back differs (read → expected): \(differences)"))
            } else {
                advance(applying: step.effect)
            }
        case .done:
            if case .authenticate(_, _?) = step.action {
                stop(
                    .invalidAnswer(
                        command: CommandName.passwordAuthenticate.rawValue, bytes: [], offset: 0, expected: "a PACK"))
            } else {
                advance(applying: step.effect)
            }
        }
    }

    /// A NAK is the tag's answer that the write did not happen; anything else may hide a
    /// write that reached the EEPROM.
    static func certainlyNotWritten(_ error: TagCommandError) -> Bool {
        if case .nak = error { return true }
        if case .invalidArgument = error { return true }
        return false
    }

    private mutating func advance(applying effect: PasswordFlowStep.Effect) {
        switch effect {
        case .none: break
        case .setsSecret(let secret): state.possibleSecrets = [secret]
        case .setsProtection(let protected): state.possibleProtection = [protected]
        }
        position += 1
    }

    private mutating func applyPossibly(_ effect: PasswordFlowStep.Effect, torn: Bool) {
        switch effect {
        case .none: break
        case .setsSecret(let secret): state = state.possiblySettingSecret(secret, torn: torn)
        case .setsProtection(let protected): state = state.possiblySettingProtection(protected)
        }
    }

    /// Stops on `cause`. Before the first write nothing changed: a wrong password or key
    /// is that, not an interrupted flow.
    private mutating func stop(_ cause: TagCommandError) {
        let wroteSomething = steps[...position].contains { if case .write = $0.action { true } else { false } }
        failure = wroteSomething ? .interrupted(tagNowRequires: state, cause: cause) : cause
    }
}

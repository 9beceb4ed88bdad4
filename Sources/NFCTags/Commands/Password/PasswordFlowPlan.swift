import NFCChips

/// A password flow worked out in advance (the dry run): the steps in order, what changes,
/// what cannot be undone, and what the tag requires before and after.
///
/// ```swift
/// let plan = try await tag.planProtection(password: pwd, pack: pack, from: 4, readProtected: true, authLimit: 3)
/// for step in plan.steps { print(step) }
/// print(plan.irreversibleChanges)   // [AUTHLIM 3: …]
/// ```
public struct PasswordFlowPlan: Sendable {
    /// The chip.
    package var chip: Chip
    /// The configuration before.
    package var current: Type2Configuration?
    /// The configuration after.
    package var target: Type2Configuration?
    /// The configuration fields that change.
    public var changes: [ConfigurationChange]
    /// Whether the secret (PWD / PACK, or the Ultralight C key) is written.
    package var changesSecret: Bool
    /// The changes that cannot be undone; they need consent.
    public var irreversibleChanges: [IrreversibleChange]
    /// The steps, in the order they run.
    public var steps: [PasswordFlowStep]
    /// What the tag requires before the flow.
    public var initialState: TagPasswordState
    /// What the tag requires once the flow has finished.
    public var finalState: TagPasswordState

    /// Whether the flow changes nothing.
    package var isEmpty: Bool { steps.allSatisfy { if case .write = $0.action { false } else { true } } }
}

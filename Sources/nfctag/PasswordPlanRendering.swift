import NFCTagKit

/// Prints a password flow's dry run: the steps, the changes, what cannot be undone, and
/// what the tag requires before and after. Nothing is written to the tag.
enum PasswordPlanRendering {
    static func print(_ plan: PasswordFlowPlan, session: TagSession, output: Output) {
        let steps = plan.steps.map(describe)
        if output.json {
            output.document(
                .object([
                    ("dry_run", .bool(true)), ("uid", .string(session.uid.hexString())),
                    ("chip", .string(plan.chip.rawValue)),
                    ("steps", .array(steps.map(JSONValue.string))),
                    ("changes", .array(plan.changes.map { .string($0.description) })),
                    ("irreversible", .array(plan.irreversibleChanges.map { .string($0.description) })),
                    ("requires_before", .string(plan.initialState.requirementWords)),
                    ("requires_after", .string(plan.finalState.requirementWords)),
                ]))
            return
        }
        output.line("Plan for \(plan.chip.rawValue) \(session.uid.hexString()) (dry run: nothing written):")
        for (index, step) in steps.enumerated() { output.line("  \(index + 1). \(step)") }
        output.line(
            "Changes: " + (plan.changes.isEmpty ? "none" : plan.changes.map(\.description).joined(separator: ", ")))
        if plan.irreversibleChanges.isEmpty {
            output.line("Irreversible: none")
        } else {
            output.line(
                "Irreversible (needs --yes-irreversible): "
                    + plan.irreversibleChanges.map(\.description).joined(separator: "; "))
        }
        output.line(
            "The tag requires \(plan.initialState.requirementWords) now, \(plan.finalState.requirementWords) afterwards."
        )
    }

    /// One step with its bytes as lowercase hex.
    static func describe(_ step: PasswordFlowStep) -> String {
        let action: String
        switch step.action {
        case .reselect: action = "select the tag again"
        case .authenticate(let password, let pack):
            action = "PWD_AUTH \(password.hexString())" + (pack.map { ", expect PACK \(($0).hexString())" } ?? "")
        case .authenticateUltralightC: action = "3DES authenticate"
        case .write(let page, let bytes): action = "WRITE page \(page): \(bytes.hexString())"
        case .verifyConfiguration: action = "read the configuration back"
        }
        return "\(action) — \(step.purpose)"
    }
}

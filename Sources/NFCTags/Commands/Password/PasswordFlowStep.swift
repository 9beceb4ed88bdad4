import NFCChips

/// One step of a password flow (protect, remove, key change), as the dry run lists it.
public struct PasswordFlowStep: Sendable, CustomStringConvertible {
    /// What to send.
    package enum Action: Sendable, Hashable {
        /// Select the tag again (leaves AUTHENTICATED).
        case reselect
        /// PWD_AUTH; the answer must equal `expectedPACK` when given.
        case authenticate(password: [UInt8], expectedPACK: [UInt8]?)
        /// Ultralight C 3DES mutual authentication with a 16-byte key (cipher order).
        case authenticateUltralightC(key: [UInt8])
        /// WRITE of one page.
        case write(page: Int, bytes: [UInt8])
        /// Read the configuration pages back and compare them with the expected values.
        case verifyConfiguration(Type2Configuration)
    }

    /// How the step changes what the tag requires.
    package enum Effect: Sendable, Hashable {
        /// Nothing that matters for access.
        case none
        /// The tag's secret (PWD, or the Ultralight C key) becomes this value.
        case setsSecret([UInt8])
        /// Protection becomes active (`true`) or inactive (`false`).
        case setsProtection(Bool)
    }

    /// What to send.
    package var action: Action
    /// How it changes the tag's requirement.
    package var effect: Effect
    /// Why the step is there, in words.
    public var purpose: String

    /// A step.
    package init(_ action: Action, effect: Effect = .none, purpose: String) {
        self.action = action
        self.effect = effect
        self.purpose = purpose
    }

    /// `WRITE page 133: 12 34 56 78 — …`: the command, then why it is in the plan.
    public var description: String {
        let hex = { (bytes: [UInt8]) in bytes.hexString(uppercase: true, separator: " ") }
        switch action {
        case .reselect: return "reselect — \(purpose)"
        case .authenticate(let password, _): return "PWD_AUTH \(hex(password)) — \(purpose)"
        case .authenticateUltralightC: return "3DES AUTHENTICATE — \(purpose)"
        case .write(let page, let bytes): return "WRITE page \(page): \(hex(bytes)) — \(purpose)"
        case .verifyConfiguration: return "read back configuration — \(purpose)"
        }
    }
}

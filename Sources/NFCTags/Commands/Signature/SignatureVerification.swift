/// The verdict on an originality signature.
public enum SignatureVerification: Sendable, Hashable, CustomStringConvertible {
    /// The signature verifies with the key (named when it comes from the tables).
    case valid(keyName: String?)
    /// The signature does not verify: the chip is not an original, or the UID was changed.
    case invalid
    /// The tables know no originality key for this chip, and none was given.
    case noKeyKnown

    /// Whether the signature verified.
    public var isValid: Bool { if case .valid = self { true } else { false } }

    /// `valid (ntag21x key)`, `invalid`, `no key known`.
    public var description: String {
        switch self {
        case .valid(let name?): "valid (\(name) key)"
        case .valid(nil): "valid (given key)"
        case .invalid: "invalid"
        case .noKeyKnown: "no key known"
        }
    }
}

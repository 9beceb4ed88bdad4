import NFCChips

/// What a tag needs before its protected pages open: nothing, or one secret.
public enum PasswordRequirement: Sendable, Hashable, CustomStringConvertible {
    /// No page is protected (AUTH0 lies past the last page).
    case noPassword
    /// This secret opens the tag: a 4-byte PWD, or a 16-byte Ultralight C key (cipher order).
    case password([UInt8])
    /// The tag is protected with a secret nobody knows: one the caller never gave, or one a
    /// secret write (PWD, an Ultralight C key page) left when it went unanswered while the
    /// protection was active — cut inside its EEPROM cycle, the page holds a mix of the old
    /// and the new secret's bits. Beyond repair.
    case unknownPassword

    /// `no password`, `password 12 34 56 78`, `the Ultralight C key 49 45 …`, `an unknown password`.
    public var description: String {
        switch self {
        case .noPassword: "no password"
        case .password(let bytes)
        where bytes.count == ChipTables.spec(for: .ultralightC).ultralightCAuthentication?.defaultKey.count:
            "the Ultralight C key \(bytes.hexString(uppercase: true, separator: " "))"
        case .password(let bytes): "password \(bytes.hexString(uppercase: true, separator: " "))"
        case .unknownPassword: "an unknown password"
        }
    }
}

/// What the reader knows about a tag's protection while a password flow runs: the
/// secrets the tag may hold and whether AUTH0 may be active. When a write was sent but
/// its ACK never came, both the old and the new value remain possible.
///
/// ```swift
/// catch .interrupted(let state, _) {
///     for requirement in state.requirements { … try each, in order … }
/// }
/// ```
public struct TagPasswordState: Sendable, Hashable, CustomStringConvertible {
    /// Secrets the tag may hold, most likely first; `nil` is a secret nobody knows — one the
    /// caller never gave, or a mix of old and new bits a torn write left (harmless while no
    /// page is protected).
    package var possibleSecrets: [[UInt8]?]
    /// Whether the protection may be active (`true`), inactive (`false`), or either.
    package var possibleProtection: [Bool]

    /// Creates a state.
    package init(possibleSecrets: [[UInt8]?], possibleProtection: [Bool]) {
        self.possibleSecrets = possibleSecrets
        self.possibleProtection = possibleProtection
    }

    /// A state known for certain.
    package init(secret: [UInt8]?, protected: Bool) {
        self.init(possibleSecrets: [secret], possibleProtection: [protected])
    }

    /// Every requirement the tag may have now, most likely first, without duplicates.
    public var requirements: [PasswordRequirement] {
        var result: [PasswordRequirement] = []
        func add(_ requirement: PasswordRequirement) { if !result.contains(requirement) { result.append(requirement) } }
        for protected in possibleProtection {
            if protected {
                for secret in possibleSecrets { add(secret.map(PasswordRequirement.password) ?? .unknownPassword) }
            } else {
                add(.noPassword)
            }
        }
        return result
    }

    /// `the tag now requires password 12 34 56 78 (or no password)`: the most likely
    /// requirement first.
    public var description: String {
        guard let first = requirements.first else { return "the tag's protection is unknown" }
        let rest = requirements.dropFirst().map(\.description)
        return "the tag now requires \(first)" + (rest.isEmpty ? "" : " (or \(rest.joined(separator: ", or ")))")
    }

    /// Whether every possible requirement is one the caller can satisfy.
    package var isKnownToCaller: Bool { !requirements.contains(.unknownPassword) }

    /// The state after a secret write that may or may not have reached the tag; `torn`: it
    /// may also have been cut inside its EEPROM cycle, leaving a secret nobody knows.
    func possiblySettingSecret(_ secret: [UInt8], torn: Bool) -> TagPasswordState {
        var state = self
        state.possibleSecrets = [secret] + possibleSecrets.filter { $0 != secret }
        if torn, !state.possibleSecrets.contains(where: { $0 == nil }) { state.possibleSecrets.append(nil) }
        return state
    }

    /// The state after a protection change that may or may not have reached the tag.
    func possiblySettingProtection(_ protected: Bool) -> TagPasswordState {
        var state = self
        state.possibleProtection = [protected] + possibleProtection.filter { $0 != protected }
        return state
    }
}

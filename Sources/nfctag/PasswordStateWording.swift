import NFCTagKit
import Locking

// How the command line words a tag's password state: the secrets as it prints every byte
// string (lower-case hex, no separators), so that a line can be pasted back as --password.

extension TagPasswordState {
    /// `the tag now requires password 12345678 (or no password)`.
    var sentence: String {
        requirements.isEmpty ? "the tag's protection is unknown" : "the tag now requires \(requirementWords)"
    }

    /// `password 12345678 (or no password)`: the most likely requirement first.
    var requirementWords: String {
        let requirements = self.requirements
        guard let first = requirements.first else { return "unknown" }
        let rest = requirements.dropFirst().map(\.words)
        return first.words + (rest.isEmpty ? "" : " (or \(rest.joined(separator: ", or ")))")
    }
}

extension PasswordRequirement {
    /// `password 12345678`, `no password`, `an unknown password`.
    var words: String {
        switch self {
        case .noPassword: "no password"
        case .password(let bytes) where DerivedPasswords.contains(bytes):
            "its derived password (\(TagPasswordDerivation.v1Name))"
        case .password(let bytes):
            bytes.count == ChipTables.spec(for: .ultralightC).ultralightCAuthentication?.defaultKey.count
                ? "the Ultralight C key \(bytes.hexString())" : "password \(bytes.hexString())"
        case .unknownPassword: "an unknown password"
        }
    }
}

/// The passwords this run derived (`--password-derive-env`): the tool never prints them,
/// it names them "its derived password" — one tag's password must not end up in a terminal
/// log any more than the secret.
enum DerivedPasswords {
    private static let passwords = Locked<Set<[UInt8]>>([])

    /// The credentials `derivation` gives the tag with `uid`, remembered as not to be printed.
    static func credentials(_ derivation: TagPasswordDerivation, uid: [UInt8]) -> (password: TagPassword, pack: PACK) {
        let credentials = derivation.credentials(forUID: uid)
        passwords.withLock { _ = $0.insert(credentials.password.bytes) }
        return credentials
    }

    static func contains(_ password: [UInt8]) -> Bool {
        passwords.withLock { $0.contains(password) }
    }
}

import NFCChips
import NFCTags

/// Why a ``TagSession`` call failed: the step (``TagSessionOperation``) and, when a
/// password flow was cut short, what the tag requires now.
///
/// ```swift
/// do {
///     try await ntag.protect(password: pwd, pack: pack, from: ntag.memory.firstUserPage, readProtected: false)
/// } catch .interrupted(let operation, let state, let cause) {
///     print("\(operation) stopped (\(cause)); the tag now requires \(state.requirements)")
/// } catch .severalTags(let uids) {
///     print("\(uids.count) tags in the field")
/// } catch .command(_, .authenticationFailed(let remaining)) {
///     print("wrong password, attempts left: \(remaining)")
/// } catch {
///     print(error)
/// }
/// ```
public enum TagSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No tag came into the field within the caller's time limit.
    case noTag
    /// More than one tag is in the field (their UIDs): the session does not talk to any.
    case severalTags(uids: [[UInt8]])
    /// The tag left the field during `operation`.
    case tagLost(operation: TagSessionOperation)
    /// The reader went away during `operation` (`reason` when the device knows it).
    case readerLost(operation: TagSessionOperation, reason: DisconnectReason?)
    /// The tag is still in the field but did not answer `operation` in time (through the
    /// reader's standard framing this is also how a NAK looks).
    case tagTimeout(operation: TagSessionOperation)
    /// The chip could not be identified; the report holds UID, ATQA, SAK and every raw answer.
    /// Only ``TagSession/send(_:framing:timeout:)`` works on such a tag.
    case unknownChip(TagIdentificationReport)
    /// The chip has no such command or feature (per its datasheet table).
    case notSupported(operation: TagSessionOperation, chip: Chip, detail: String)
    /// A password or key flow stopped part-way. `tagNowRequires` lists what may open the
    /// tag now (try in order); `cause` is what stopped the flow.
    indirect case interrupted(operation: TagSessionOperation, tagNowRequires: TagPasswordState, cause: TagSessionError)
    /// The tag refused or answered wrongly (NAK, wrong password, PACK mismatch, refused
    /// irreversible change, unusable trailer, invalid argument, failed read-back…).
    case command(operation: TagSessionOperation, TagCommandError)
    /// The calling task was cancelled.
    case cancelled
    /// The device failed in a way that is not about the tag (not connected, reader in use…).
    case device(NFCDeviceError)

    /// The NAK code when the tag answered with a NAK.
    public var nakCode: UInt8? {
        if case .command(_, .nak(let code, _)) = self { return code }
        return nil
    }

    /// A sentence a person understands: what failed, during which step, and the tag's state.
    public var description: String {
        switch self {
        case .noTag:
            return "No tag was presented in time."
        case .severalTags(let uids):
            return "\(uids.count) tags are in the field (\(uids.map { $0.hexString() }.joined(separator: ", "))) — remove all but one."
        case .tagLost(let operation):
            return "The tag left the field while \(operation)."
        case .readerLost(let operation, let reason):
            return "The reader was lost\(reason.map { " (\($0))" } ?? "") while \(operation)."
        case .tagTimeout(let operation):
            return "The tag did not answer while \(operation) (no answer, or a NAK the reader does not pass on)."
        case .unknownChip(let report):
            return "The chip is not one NFCTagKit knows: \(report)."
        case .notSupported(let operation, let chip, let detail):
            return "\(operation.description.capitalizedFirst) is not possible on \(chip.rawValue): \(detail)."
        case .interrupted(let operation, let state, let cause):
            return "Stopped while \(operation): \(cause.description.droppingFinalPeriod); \(state.sentence)."
        case .command(let operation, let error):
            return "Failed while \(operation): \(error.sentence)."
        case .cancelled:
            return "Cancelled."
        case .device(let error):
            return "\(error)"
        }
    }
}

extension TagPasswordState {
    /// `the tag now requires password 12345678 (or no password)`.
    public var sentence: String {
        requirements.isEmpty ? "the tag's protection is unknown" : "the tag now requires \(requirementWords)"
    }

    /// `password 12345678 (or no password)`: the most likely requirement first.
    public var requirementWords: String {
        let requirements = self.requirements
        guard let first = requirements.first else { return "unknown" }
        let rest = requirements.dropFirst().map(\.words)
        return first.words + (rest.isEmpty ? "" : " (or \(rest.joined(separator: ", or ")))")
    }
}

extension PasswordRequirement {
    /// `password 12345678`, `no password`, `an unknown password`.
    public var words: String {
        switch self {
        case .noPassword: "no password"
        case .password(let bytes):
            bytes.count == ChipTables.spec(for: .ultralightC).ultralightCAuthentication?.defaultKey.count ? "the Ultralight C key \(bytes.hexString())" : "password \(bytes.hexString())"
        case .unknownPassword: "an unknown password"
        }
    }
}

extension TagCommandError {
    /// The error in words, with NAK meanings and remaining attempts.
    public var sentence: String {
        switch self {
        case .nak(let code, let command):
            let meaning = NAKCode(rawValue: code).map { " (\($0.meaning))" } ?? ""
            return "the tag answered NAK \(code)\(meaning)\(command.map { " to \($0.rawValue)" } ?? "")"
        case .authenticationFailed(let remaining):
            return "the password or key was refused (attempts left: \(remaining))"
        case .packMismatch(let expected, let received):
            return "the tag answered PACK \(received.hexString()), expected \(expected.hexString()) — it may be a clone"
        case .notSupported(let command, let chip):
            return "\(chip.rawValue) has no \(command.rawValue) command"
        case .featureNotSupported(let feature, let chip):
            return "\(chip.rawValue) has no \(feature)"
        case .irreversibleNotConsented(let changes):
            return "irreversible changes need consent: \(changes.map(\.description).joined(separator: "; ")); nothing was written"
        case .unusableTrailer(let problems):
            return "the sector trailer would make the sector unusable: \(problems.map(\.description).joined(separator: "; ")); nothing was written"
        case .invalidAnswer(let command, let bytes, let offset, let expected):
            return "unexpected answer\(command.map { " to \($0.rawValue)" } ?? "") \(bytes.hexString()) at byte \(offset): expected \(expected)"
        case .invalidArgument(let reason):
            return reason
        case .configurationLocked:
            return "the configuration is locked for good (CFGLCK)"
        case .verificationFailed(let reason):
            return "read-back check failed: \(reason)"
        case .interrupted(let state, let cause):
            return "\(cause.sentence); \(state.sentence)"
        case .transport(let error):
            return "\(error)"
        }
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
    fileprivate var droppingFinalPeriod: String { hasSuffix(".") ? String(dropLast()) : self }
}

import NFCChips

/// Why a tag command or flow failed.
///
/// ```swift
/// do {
///     _ = try await commands.authenticate(password: pwd, expectedPACK: pack)
/// } catch .authenticationFailed(let remaining) {
///     print("wrong password; attempts left: \(remaining)")
/// } catch .nak(let code, let command) {
///     print("\(command ?? "?") refused: \(NAKCode(rawValue: code)?.meaning ?? "NAK \(code)")")
/// }
/// ```
@nonexhaustive
public enum TagCommandError: Error, Sendable, Hashable {
    /// The tag answered with a 4-bit NAK (`code` as sent) to `command`, named as its
    /// datasheet spells it (`READ`, `PWD_AUTH`, …; `nil` for a raw frame).
    case nak(code: UInt8, command: String?)
    /// PWD_AUTH (or the Ultralight C / Classic authentication) was refused. The tag has
    /// dropped back to IDLE; it has been selected again when possible.
    case authenticationFailed(remainingAttempts: RemainingAttempts)
    /// PWD_AUTH succeeded but the tag's PACK is not the expected one: it may be a clone.
    case packMismatch(expected: [UInt8], received: [UInt8])
    /// The chip has no such command (per its table), named as its datasheet spells it.
    case notSupported(command: String, chip: Chip)
    /// The chip has no such feature or configuration field (per its table).
    case featureNotSupported(feature: String, chip: Chip)
    /// The change includes irreversible steps the caller did not consent to.
    case irreversibleNotConsented([IrreversibleChange])
    /// The sector trailer would make the sector unusable (or its access bits are invalid).
    case unusableTrailer([SectorTrailerProblem])
    /// The tag's answer is not what the command expects: `offset` is the first byte that
    /// is wrong (or the answer length when it is too short), `expected` says what was due.
    case invalidAnswer(command: String?, bytes: [UInt8], offset: Int, expected: String)
    /// An argument given by the caller is out of range for this chip; `reason` says which.
    case invalidArgument(String)
    /// The command (`length` bytes) does not fit one frame of the reader, which carries at
    /// most `maximum`; nothing was sent.
    case commandTooLong(length: Int, maximum: Int)
    /// CFGLCK is set: the configuration pages can no longer be written.
    case configurationLocked
    /// A read-back after a change shows other values than written.
    case verificationFailed(String)
    /// A password flow (protect, remove, key change) stopped before it finished. The tag
    /// now requires one of `tagNowRequires` (tried in order, it opens the tag); `cause`
    /// is what stopped the flow.
    indirect case interrupted(tagNowRequires: TagPasswordState, cause: TagCommandError)
    /// The reader or the RF link failed.
    case transport(TagTransportError)
    /// An NTAG 424 DNA refused a command or its secure messaging failed.
    case ntag424(NTAG424Error)
    /// A FeliCa card refused `command` with status flags 1 and 2 (flag 1 `FF`: the
    /// command as a whole; otherwise the bit of the block list element at fault).
    case feliCaStatus(flag1: UInt8, flag2: UInt8, command: String)

    /// The NAK as a table entry, when this is a NAK the table knows.
    package var nakCode: NAKCode? {
        if case .nak(let code, _) = self { return NAKCode(rawValue: code) }
        return nil
    }
}

extension TagCommandError: CustomStringConvertible {
    /// The error in words, with NAK meanings and remaining attempts.
    public var description: String {
        switch self {
        case .nak(let code, let command):
            let meaning = NAKCode(rawValue: code).map { " (\($0.meaning))" } ?? ""
            return "the tag answered NAK \(code)\(meaning)\(command.map { " to \($0)" } ?? "")"
        case .authenticationFailed(let remaining):
            return "the password or key was refused (attempts left: \(remaining))"
        case .packMismatch(let expected, let received):
            return "the tag answered PACK \(received.hexString()), expected \(expected.hexString()) — it may be a clone"
        case .notSupported(let command, let chip):
            return "\(chip.rawValue) has no \(command) command"
        case .featureNotSupported(let feature, let chip):
            return "\(chip.rawValue) has no \(feature)"
        case .irreversibleNotConsented(let changes):
            return
                "irreversible changes need consent: \(changes.map(\.description).joined(separator: "; ")); nothing was written"
        case .unusableTrailer(let problems):
            return
                "the sector trailer would make the sector unusable: \(problems.map(\.description).joined(separator: "; ")); nothing was written"
        case .invalidAnswer(let command, let bytes, let offset, let expected):
            return
                "unexpected answer\(command.map { " to \($0)" } ?? "") \(bytes.hexString()) at byte \(offset): expected \(expected)"
        case .invalidArgument(let reason):
            return reason
        case .commandTooLong(let length, let maximum):
            return
                "the command has \(length) bytes; the reader carries at most \(maximum) in one frame (nothing was sent)"
        case .configurationLocked:
            return "the configuration is locked for good (CFGLCK)"
        case .verificationFailed(let reason):
            return "read-back check failed: \(reason)"
        case .interrupted(let state, let cause):
            return "\(cause); \(state)"
        case .transport(let error):
            return "\(error)"
        case .ntag424(let error):
            return "\(error)"
        case .feliCaStatus(let flag1, let flag2, let command):
            let meaning = ChipTables.felica.statusFlags.errors.first { $0.code == flag2 }.map { ": \($0.meaning)" }
            return "the card refused \(command) with status flags \([flag1, flag2].hexString())\(meaning ?? "")"
        }
    }
}

import NFCChips
import NFCTags

/// Why a ``TagSession`` call failed: the step (``TagSessionOperation``) and, when a
/// password flow was cut short, what the tag requires now.
///
/// ```swift
/// do {
///     try await ntag.protect(password: pwd, pack: pack, from: ntag.userPages.lowerBound, readProtected: false)
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
@nonexhaustive
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
    /// Another user of the reader (`heldBy` names it, and for how long) kept it past the
    /// wait limit; nothing was sent to the tag.
    case readerBusy(heldBy: String)
    /// The device failed in a way that is not about the tag (not connected, reader in use…).
    case device(NFCDeviceError)
    /// The handle came from an ``NDEFSession`` connection that has ended (the session
    /// polls again, connected to another tag, or was invalidated): connect again.
    case connectionEnded

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
            return
                "\(uids.count) tags are in the field (\(uids.map { $0.hexString() }.joined(separator: ", "))) — remove all but one."
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
            return "Stopped while \(operation): \(cause.description.droppingFinalPeriod); \(state)."
        case .command(let operation, let error):
            return "Failed while \(operation): \(error)."
        case .cancelled:
            return "Cancelled."
        case .readerBusy(let holder):
            return "The reader stayed busy (\(holder)); nothing was sent."
        case .device(let error):
            return "\(error)"
        case .connectionEnded:
            return "The tag's connection has ended; nothing was sent. Connect to the tag again."
        }
    }
}

extension TagSessionError {
    /// The error for a wait on the device's tag access that ended without it.
    init(_ failure: TagAccessGate.WaitFailure) {
        switch failure {
        case .cancelled: self = .cancelled
        case .timedOut(let holder): self = .readerBusy(heldBy: holder)
        }
    }
}

extension NDEFSessionError {
    /// The error for a wait on the reader that ended without it.
    init(_ failure: TagAccessGate.WaitFailure) {
        switch failure {
        case .cancelled: self = .cancelled
        case .timedOut(let holder): self = .readerBusy(heldBy: holder)
        }
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
    fileprivate var droppingFinalPeriod: String { hasSuffix(".") ? String(dropLast()) : self }
}

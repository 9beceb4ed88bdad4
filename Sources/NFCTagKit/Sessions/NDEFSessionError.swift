import NDEF
import NFCTags

/// Why an ``NDEFSession`` call failed, naming the step and, for writes, what the tag was
/// left holding.
///
/// ```swift
/// do {
///     try await tag.writeNDEF(message)
/// } catch .tagSizeTooSmall(let needed, let capacity) {
///     print("\(needed) bytes do not fit in \(capacity); the tag was not touched")
/// } catch .connectionLost(let step, let state, _) {
///     print("lost while \(step?.description ?? "connecting"); the tag holds: \(state)")
/// } catch .severalTags(let count) {
///     print("\(count) tags in the field — remove all but one")
/// } catch {
///     print(error)
/// }
/// ```
@nonexhaustive
public enum NDEFSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The tag is not read-write (CC, lock bits, access conditions or a password); nothing was written.
    case tagNotWritable
    /// The message needs `needed` bytes, the tag holds at most `capacity`; nothing was written.
    case tagSizeTooSmall(needed: Int, capacity: Int)
    /// A write, lock or format step failed; `state` is what the tag holds now.
    case tagUpdateFailure(step: NDEFTagStep, state: NDEFTagContentState, reason: NDEFUpdateFailureReason)
    /// The tag left the field, or the reader went away (`readerLoss` says why; `nil` when
    /// the reader is still there), during `step` (`nil`: before any step). `state` is what
    /// the tag holds; the session resumes polling (after the automatic reconnection).
    case connectionLost(step: NDEFTagStep?, state: NDEFTagContentState, readerLoss: DisconnectReason?)
    /// The tag answered `step` with a NAK.
    case nak(code: UInt8, step: NDEFTagStep)
    /// `step` needs a password or key (``NDEFSessionConfiguration/password``).
    case authenticationRequired(step: NDEFTagStep)
    /// PWD_AUTH was refused (wrong password).
    case authenticationFailed(remainingAttempts: RemainingAttempts)
    /// PWD_AUTH succeeded but the tag answered another PACK than expected.
    case packMismatch(expected: [UInt8], received: [UInt8])
    /// The NDEF message on the tag does not decode (torn or corrupt); `offset` is the
    /// byte address on the tag. Write a new message to repair it.
    case invalidNDEF(offset: Int, reason: NDEFDecodingError.Reason)
    /// The tag is not NDEF-formatted (its capability container says so): format it first.
    case notFormatted
    /// The tag's NDEF structures (TLVs, capability container, MAD, Type 4 files) are
    /// malformed or answered unexpectedly: where (a byte address on the tag, when one
    /// applies) and what is wrong.
    case invalidTagData(offset: Int?, reason: String)
    /// More than one tag is in the field: the session does not connect or write until one
    /// is taken away (it asks for that and restarts polling).
    case severalTags(count: Int)
    /// No NDEF driver handles this chip, or the chip is unknown.
    case unsupportedTag(reason: String)
    /// The tag did not answer in time during `step`; `nil`: no tag came within the
    /// caller's time limit.
    case timeout(step: NDEFTagStep?)
    /// The session has ended; no more calls are possible.
    case sessionInvalidated(NDEFSessionInvalidationReason)
    /// The session has not begun, or is not polling (call ``NDEFSession/begin()``).
    case sessionNotActive
    /// The tag handle belongs to a connection that ended (``NDEFSession/restartPolling()``,
    /// another connect, a lost tag): connect again.
    case tagNotConnected
    /// ``NFCNDEFTag/writeLock(force:)`` refused: the message on the tag was not read back
    /// and verified on this connection.
    case notVerified
    /// ``NFCTagHandle/format(force:)`` refused: the tag already holds NDEF.
    case alreadyFormatted
    /// The message cannot be encoded; nothing was written.
    case messageNotEncodable(NDEFEncodingError)
    /// The reader or a chip command failed outside the NDEF steps (`reason` says what).
    case readerFailure(step: NDEFTagStep?, reason: String)
    /// Another user of the reader (`heldBy` names it, and for how long) kept it past the
    /// wait limit; nothing was sent to the tag.
    case readerBusy(heldBy: String)
    /// The calling task was cancelled while it waited for the reader; nothing was sent.
    case cancelled

    /// A sentence a person understands.
    public var description: String {
        switch self {
        case .tagNotWritable: "The tag is not writable; nothing was written."
        case let .tagSizeTooSmall(needed, capacity):
            "The message needs \(needed) bytes but the tag holds at most \(capacity); nothing was written."
        case let .tagUpdateFailure(step, state, reason):
            "Failed while \(step) (\(reason)); \(state)."
        case let .connectionLost(step, state, readerLoss):
            "\(readerLoss.map { "The reader was lost (\($0))" } ?? "The tag left the field")"
                + "\(step.map { " while \($0)" } ?? ""); \(state)."
        case let .nak(code, step): "The tag answered NAK \(code) while \(step)."
        case let .authenticationRequired(step): "A password is needed for \(step)."
        case let .authenticationFailed(remaining): "The password was refused (attempts left: \(remaining))."
        case let .packMismatch(expected, received):
            "The tag answered PACK \(received.hexString()), expected \(expected.hexString())."
        case let .invalidNDEF(offset, reason): "The NDEF message on the tag is invalid at byte \(offset): \(reason)."
        case .notFormatted: "The tag is not NDEF-formatted; format it first."
        case let .invalidTagData(offset?, reason): "The tag's NDEF data is malformed at byte \(offset): \(reason)."
        case let .invalidTagData(nil, reason): "The tag's NDEF data is malformed: \(reason)."
        case let .severalTags(count): "\(count) tags are in the field — remove all but one."
        case let .unsupportedTag(reason): "Unsupported tag: \(reason)."
        case let .timeout(step?): "The tag did not answer in time while \(step)."
        case .timeout(nil): "No tag was presented in time."
        case let .sessionInvalidated(reason): "The NDEF session has ended (\(reason))."
        case .sessionNotActive: "The NDEF session is not polling."
        case .tagNotConnected: "The tag is no longer connected; connect to it again."
        case .notVerified: "Locking refused: read the message back first (or force it)."
        case .alreadyFormatted: "The tag already holds NDEF; formatting refused (force it to erase)."
        case let .messageNotEncodable(error): "The message cannot be encoded: \(error)."
        case let .readerFailure(step, reason): "Reader failure\(step.map { " while \($0)" } ?? ""): \(reason)."
        case let .readerBusy(holder): "The reader stayed busy (\(holder)); nothing was sent."
        case .cancelled: "Cancelled while waiting for the reader; nothing was sent."
        }
    }

    /// The session error for a driver error; `readerLoss` is set when the reader is gone.
    init(_ error: NDEFTagError, readerLoss: DisconnectReason?) {
        switch error {
        case .tagNotWritable: self = .tagNotWritable
        case let .tagSizeTooSmall(needed, capacity): self = .tagSizeTooSmall(needed: needed, capacity: capacity)
        case let .tagUpdateFailure(step, state, reason):
            self = .tagUpdateFailure(step: step, state: state, reason: reason)
        case let .connectionLost(step, state): self = .connectionLost(step: step, state: state, readerLoss: readerLoss)
        case let .nak(code, step): self = .nak(code: code, step: step)
        case let .authenticationRequired(step): self = .authenticationRequired(step: step)
        case let .invalidNDEF(offset, reason): self = .invalidNDEF(offset: offset, reason: reason)
        case .invalidCapabilityContainer(_, .notFormatted): self = .notFormatted
        case let .invalidCapabilityContainer(offset, problem):
            self = .invalidTagData(offset: offset, reason: "capability container: \(problem)")
        case let .invalidTLV(offset, problem): self = .invalidTagData(offset: offset, reason: "TLV: \(problem)")
        case let .invalidApplicationDirectory(offset, problem):
            self = .invalidTagData(offset: offset, reason: "MIFARE application directory: \(problem)")
        case let .statusWord(word, step):
            self = .invalidTagData(offset: nil, reason: "status word \(word.hexString()) while \(step)")
        case let .unexpectedResponse(step, description):
            self = .invalidTagData(offset: nil, reason: "\(description) while \(step)")
        case let .messageNotEncodable(error): self = .messageNotEncodable(error)
        case let .unsupportedTag(reason): self = .unsupportedTag(reason: reason)
        case let .timeout(step): self = .timeout(step: step)
        case let .readerFailure(step, reason): self = .readerFailure(step: step, reason: reason)
        case .notVerified: self = .notVerified
        case .alreadyFormatted: self = .alreadyFormatted
        }
    }

    /// The session error for a failed chip command (PWD_AUTH, identification, configuration).
    init(_ error: TagCommandError, readerLoss: DisconnectReason?) {
        switch error {
        case let .authenticationFailed(remaining): self = .authenticationFailed(remainingAttempts: remaining)
        case let .packMismatch(expected, received): self = .packMismatch(expected: expected, received: received)
        case let .nak(code, command):
            self = .readerFailure(step: nil, reason: "NAK \(code) to \(command ?? "a command")")
        case .transport(.tagLost), .transport(.connectionLost):
            self = .connectionLost(step: nil, state: .previousMessageIntact, readerLoss: readerLoss)
        case .transport(.timeout): self = .timeout(step: nil)
        case let .featureNotSupported(feature, chip):
            self = .unsupportedTag(reason: "\(chip.rawValue) has no \(feature)")
        case let .notSupported(command, chip):
            self = .unsupportedTag(reason: "\(chip.rawValue) has no \(command)")
        default: self = .readerFailure(step: nil, reason: "\(error)")
        }
    }

    /// The session error for a device failure outside an NDEF step.
    init(_ error: NFCDeviceError) {
        switch error {
        case .connectionLost(let reason):
            self = .connectionLost(step: nil, state: .previousMessageIntact, readerLoss: reason)
        case .notConnected: self = .connectionLost(step: nil, state: .previousMessageIntact, readerLoss: nil)
        case .timeout: self = .timeout(step: nil)
        default: self = .readerFailure(step: nil, reason: error.description)
        }
    }
}

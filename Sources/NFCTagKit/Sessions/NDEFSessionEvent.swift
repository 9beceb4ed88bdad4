import NDEF

/// What an ``NDEFSession`` reports, in order, on ``NDEFSession/events``.
///
/// ```swift
/// for await event in session.events {
///     switch event {
///     case .tagsDetected(let tags) where tags.count == 1: …connect…
///     case .prompt(let prompt): statusLabel.text = prompt.text
///     case .invalidated(let reason): print("session ended: \(reason)")
///     default: break
///     }
/// }
/// ```
@nonexhaustive
public enum NDEFSessionEvent: Sendable, CustomStringConvertible {
    /// Polling started (after ``NDEFSession/begin()``).
    case becameActive
    /// The tags in the field changed: every tag now in the field (one or two), identified.
    /// With more than one, the session asks for all but one to be removed and refuses to
    /// connect or write.
    case tagsDetected([NDEFDetectedTag])
    /// A tag left the field (or the reader went away with it).
    case tagRemoved(NDEFDetectedTag)
    /// A short message for the person holding the tag.
    case prompt(NDEFSessionPrompt)
    /// With ``NDEFSessionConfiguration/invalidateAfterFirstRead``: the message read from
    /// the tag; ``invalidated(_:)`` with ``NDEFSessionInvalidationReason/firstReadCompleted`` follows.
    case messageRead(NDEFDetectedTag, NDEFMessage)
    /// With ``NDEFSessionConfiguration/invalidateAfterFirstRead``: the read failed (the
    /// session keeps polling; the tag is read again once it is presented again).
    case readFailed(NDEFDetectedTag, NDEFSessionError)
    /// The session ended; the stream finishes after this event.
    case invalidated(NDEFSessionInvalidationReason)

    /// `tagsDetected 04a1… ntag215`.
    public var description: String {
        switch self {
        case .becameActive: "becameActive"
        case .tagsDetected(let tags): "tagsDetected " + tags.map(\.description).joined(separator: ", ")
        case .tagRemoved(let tag): "tagRemoved \(tag)"
        case .prompt(let prompt): "prompt \(prompt.text)"
        case .messageRead(let tag, let message): "messageRead \(tag) (\(message.records.count) records)"
        case .readFailed(let tag, let error): "readFailed \(tag): \(error)"
        case .invalidated(let reason): "invalidated (\(reason))"
        }
    }
}

/// A user-facing message a CLI or GUI can show as it is.
@nonexhaustive
public enum NDEFSessionPrompt: Sendable, Hashable {
    /// An operation is running on the tag.
    case holdStill
    /// Two tags are in the field; nothing is written until one is taken away.
    case removeAllButOne
    /// The tag left the field during an operation.
    case tagLost
    /// The reader went away; the device is reconnecting.
    case readerLost
    /// The app set a new message with ``NDEFSession/setAlertMessage(_:)``.
    case alert(String)

    /// The text to show.
    public var text: String {
        switch self {
        case .holdStill: "Hold the tag still"
        case .removeAllButOne: "More than one tag — remove all but one"
        case .tagLost: "The tag was lost — present it again"
        case .readerLost: "The reader was lost — reconnecting"
        case .alert(let text): text
        }
    }
}

/// Why an ``NDEFSession`` ended.
@nonexhaustive
public enum NDEFSessionInvalidationReason: Sendable, Equatable, CustomStringConvertible {
    /// The app called ``NDEFSession/invalidate()``.
    case userCanceled
    /// ``NDEFSessionConfiguration/invalidateAfterFirstRead`` and the first message was read.
    case firstReadCompleted
    /// The reader went away and did not come back (no automatic reconnection, or it gave up);
    /// `nil` when no reader was connected at all.
    case readerUnavailable(DisconnectReason?)

    /// `user canceled`, `first read completed`, `reader unavailable (unplugged)`.
    public var description: String {
        switch self {
        case .userCanceled: "user canceled"
        case .firstReadCompleted: "first read completed"
        case .readerUnavailable(let reason?): "reader unavailable (\(reason))"
        case .readerUnavailable(nil): "reader unavailable"
        }
    }
}

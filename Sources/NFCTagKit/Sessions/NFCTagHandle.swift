import NFCChips
import NFCTags

/// What every tag family handle shares: the session it came from (raw frames go through
/// its ``TagSession/send(_:framing:timeout:)``), the tag's identity, and the NDEF calls of
/// ``NFCNDEFTag`` (as Core NFC's `NFCMiFareTag` is an `NFCNDEFTag`).
///
/// Handles are small values: copy them freely. Each command runs as the only user of the
/// device's tag (the same gate as ``TagSession``) and fails with a ``TagSessionError`` that
/// names the step, so a tag that left the field is told from a reader that went away.
public protocol NFCTagHandle: NFCNDEFTag {
    /// The session the tag is connected in.
    var session: TagSession { get }
}

extension NFCTagHandle {
    /// The tag's UID.
    public var uid: [UInt8] { session.uid }

    /// The chip identification found, or `nil` for an unidentified ISO-DEP tag.
    public var chip: Chip? { session.chip }
}

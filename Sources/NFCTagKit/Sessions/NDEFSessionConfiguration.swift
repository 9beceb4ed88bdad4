/// How an ``NDEFSession`` polls and what it does before each operation.
///
/// ```swift
/// var configuration = NDEFSessionConfiguration()
/// configuration.invalidateAfterFirstRead = true     // read one tag, then end
/// configuration.password = [0x12, 0x34, 0x56, 0x78] // PWD_AUTH before operations
/// configuration.expectedPACK = [0xAB, 0xCD]
/// let session = NDEFSession(device: device, configuration: configuration)
/// ```
public struct NDEFSessionConfiguration: Sendable {
    /// Pause between two polling rounds.
    public var pollInterval: Duration
    /// How long polling waits after finding more than one tag (or refusing an operation
    /// because of it) before it looks again — time for a person to take one away.
    public var restartDelay: Duration
    /// Read the NDEF message of the first tag that is alone in the field, report it with
    /// ``NDEFSessionEvent/messageRead(_:_:)`` and end the session. Off by default: the
    /// session polls until the app ends it.
    public var invalidateAfterFirstRead: Bool
    /// A 4-byte PWD_AUTH password presented after connecting to a tag (and again after
    /// every re-selection), for tags whose NDEF area is password-protected.
    public var password: TagPassword?
    /// The 2-byte PACK the tag must answer to ``password``; a different PACK fails with
    /// ``NDEFSessionError/packMismatch(expected:received:)`` (a clone, or the wrong tag).
    /// `nil` accepts any PACK of the right length.
    public var expectedPACK: PACK?
    /// Per-tag passwords: when set, each tag's PWD and PACK are derived from its UID
    /// (`TagPasswordDerivation`) and take the place of ``password`` and ``expectedPACK``.
    public var passwordDerivation: TagPasswordDerivation?
    /// The 16-byte 3DES key (cipher order) an Ultralight C authenticates with after
    /// connecting (and again after every re-selection), for tags whose NDEF area AUTH0 / AUTH1
    /// protect. Other chips ignore it.
    public var ultralightCKey: UltralightCKey?
    /// Whether every write, lock and format polls the field first (the default), so that a
    /// tag that arrived after you connected stops the operation with
    /// ``NDEFSessionError/severalTags(count:)`` before its first page.
    ///
    /// Off, the poll that found the connected tag alone stays its alone check for as long as
    /// the tag stays selected (by one alone check): one
    /// InAutoPoll less per operation on a PN532 UART. A tag that enters the field later is
    /// not written — it stays IDLE and answers nothing sent to the selected tag — but the
    /// operation goes ahead with two tags in the field. For tools that write straight after
    /// connecting (`nfctag write`, `nfctag provision`), where no person acts in between.
    public var aloneCheckBeforeEveryWrite = true

    /// The defaults: poll every 150 ms, wait 1 s after several tags, keep polling, no password.
    ///
    /// - Parameters:
    ///   - pollInterval: pause between two polling rounds.
    ///   - restartDelay: wait after finding more than one tag before looking again.
    ///   - invalidateAfterFirstRead: read the first lone tag's message, then end the session.
    ///   - password: the 4-byte PWD_AUTH password presented after connecting, if any.
    ///   - expectedPACK: the 2-byte PACK the tag must answer to `password`; `nil` accepts any.
    public init(
        pollInterval: Duration = .milliseconds(150), restartDelay: Duration = .seconds(1),
        invalidateAfterFirstRead: Bool = false, password: TagPassword? = nil, expectedPACK: PACK? = nil
    ) {
        self.pollInterval = pollInterval
        self.restartDelay = restartDelay
        self.invalidateAfterFirstRead = invalidateAfterFirstRead
        self.password = password
        self.expectedPACK = expectedPACK
    }

    /// The PWD_AUTH password and the PACK to expect from the tag with `uid`: derived when
    /// ``passwordDerivation`` is set, else ``password`` and ``expectedPACK``.
    package func credentials(forUID uid: [UInt8]) -> (password: TagPassword, expectedPACK: PACK?)? {
        if let passwordDerivation {
            let derived = passwordDerivation.credentials(forUID: uid)
            return (derived.password, derived.pack)
        }
        return password.map { ($0, expectedPACK) }
    }
}

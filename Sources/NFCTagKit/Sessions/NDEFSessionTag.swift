import NDEF
import NFCChips
import NFCTags

/// A tag connected through an ``NDEFSession``: query, read, write, lock and format its
/// NDEF message (Core NFC's `NFCNDEFTag`).
///
/// The handle keeps one NDEF driver for the whole connection, so a read verified on it
/// allows ``writeLock(force:)``. Every write, lock and format first checks that the tag is
/// alone in the field. Operations from several tasks run one after the other. The
/// handle stops working (``NDEFSessionError/tagNotConnected``) when the connection ends:
/// ``NDEFSession/restartPolling()``, another connect, a lost tag or reader.
///
/// ```swift
/// let tag = try await session.connect(to: detected)
/// let status = try await tag.queryNDEFStatus()             // readWrite, capacity 492
/// try await tag.writeNDEF(message) { print("\($0.written)/\($0.total)") }
/// try await tag.writeLock()                                 // permanent
/// ```
public final class NDEFSessionTag: Sendable {
    /// The session this connection belongs to.
    public let session: NDEFSession
    /// The tag as the session detected it (UID, ATQA, SAK, chip).
    public let detected: NDEFDetectedTag
    let connectionID: Int
    let driver: Result<any NDEFTagDriver, NDEFTagError>
    let commands: Type2Commands?

    init(
        session: NDEFSession, detected: NDEFDetectedTag, connectionID: Int,
        driver: Result<any NDEFTagDriver, NDEFTagError>, commands: Type2Commands?
    ) {
        self.session = session
        self.detected = detected
        self.connectionID = connectionID
        self.driver = driver
        self.commands = commands
    }

    /// The UID.
    public var uid: [UInt8] { detected.uid }
    /// The identified chip (`nil`: unknown, and NDEF calls fail with ``NDEFSessionError/unsupportedTag(reason:)``).
    public var chip: Chip? { detected.chip }

    /// Whether the tag holds NDEF, may be written, its capacity (the largest message that
    /// fits) and the length of the message on it.
    public func queryNDEFStatus() async throws(NDEFSessionError) -> NDEFStatus {
        try await session.perform(on: self, exclusive: false) { driver throws(NDEFTagError) in
            try await driver.queryStatus()
        }
    }

    /// The NDEF message. An empty NDEF is a message without records; a torn or corrupt one
    /// is ``NDEFSessionError/invalidNDEF(offset:reason:)`` (write a new message to repair it).
    /// A successful read verifies the message for ``writeLock(force:)``.
    public func readNDEF() async throws(NDEFSessionError) -> NDEFMessage {
        try await session.perform(on: self, exclusive: false) { driver throws(NDEFTagError) in
            try await driver.readMessage()
        }
    }

    /// Writes `message` in one call, tear-safely, and verifies it by reading it back.
    ///
    /// Nothing is written when the tag is not alone in the field
    /// (``NDEFSessionError/severalTags(count:)``), the message does not fit
    /// (``NDEFSessionError/tagSizeTooSmall(needed:capacity:)``) or the tag is not
    /// read-write (``NDEFSessionError/tagNotWritable``). A failure part-way says what the
    /// tag holds (`NDEFTagContentState`); the next read re-reads the tag.
    ///
    /// - Parameters:
    ///   - message: the NDEF message; its encoded size must fit the tag's capacity.
    ///   - options: write only the pages that change (default) or all of them.
    ///   - progress: called after each acknowledged write command (written / total).
    public func writeNDEF(
        _ message: NDEFMessage, options: NDEFWriteOptions = NDEFWriteOptions(),
        progress: @escaping @Sendable (NDEFWriteProgress) -> Void = { _ in }
    ) async throws(NDEFSessionError) {
        try await session.perform(on: self, exclusive: true) { driver throws(NDEFTagError) in
            try await driver.writeMessage(message, options: options, progress: progress)
        }
    }

    /// Writes `template`'s URL (`NTAGMirrorTemplate`: `{uid}`, `{counter}` or
    /// `{uid}x{counter}` as ASCII zeros) tear-safely and verified, then points the NTAG21x's
    /// ASCII mirror at the zeros — MIRROR_CONF, MIRROR_PAGE, MIRROR_BYTE, and NFC_CNT_EN
    /// when the counter is mirrored — so every later read shows the live UID and counter.
    ///
    /// Where the zeros will lie is worked out from the tag before anything is written: a
    /// mirror that would leave the user memory (into the lock or configuration pages) or
    /// straddle reserved bytes is refused with ``NDEFSessionError/unsupportedTag(reason:)``
    /// and nothing is written. Authenticate first (``NDEFSessionConfiguration/password``)
    /// when the configuration is write-protected.
    ///
    /// ```swift
    /// let template = try NTAGMirrorTemplate(uri: "https://example.com/t?{uid}x{counter}", chip: tag.chip!)
    /// try await tag.writeNDEF(mirroring: template)
    /// ```
    public func writeNDEF(
        mirroring template: NTAGMirrorTemplate,
        progress: @escaping @Sendable (NDEFWriteProgress) -> Void = { _ in }
    ) async throws(NDEFSessionError) {
        guard let commands else { throw .unsupportedTag(reason: "\(detected.chipName) has no ASCII mirror") }
        try await session.perform(on: self, exclusive: true) { driver throws(NDEFTagError) in
            guard let type2 = driver as? Type2NDEFDriver else {
                throw .unsupportedTag(reason: "\(self.detected.chipName) has no ASCII mirror")
            }
            try await type2.writeMessage(mirroring: template, commands: commands, progress: progress)
        }
    }

    /// Makes the NDEF data **permanently** read-only — this cannot be undone.
    ///
    /// Refused with ``NDEFSessionError/notVerified`` unless the message now on the tag was
    /// read back and verified on this connection (by ``readNDEF()`` or a successful
    /// ``writeNDEF(_:options:progress:)``), or `force` is true.
    public func writeLock(force: Bool = false) async throws(NDEFSessionError) {
        try await session.perform(on: self, exclusive: true) { driver throws(NDEFTagError) in
            try await driver.makeReadOnly(force: force)
        }
    }

    /// Prepares a blank tag for NDEF with an empty message. Refused with
    /// ``NDEFSessionError/alreadyFormatted`` when the tag holds NDEF, unless `force`.
    public func format(force: Bool = false) async throws(NDEFSessionError) {
        try await session.perform(on: self, exclusive: true) { driver throws(NDEFTagError) in
            try await driver.format(force: force)
        }
    }
}

import NDEF
import NFCChips
import NFCTags

/// The NDEF calls every tag answers, whichever session it came from — as Core NFC's
/// `NFCMiFareTag` is also an `NFCNDEFTag`.
///
/// The family handles — ``NFCType2Tag``, ``NFCMiFareClassicTag``,
/// ``NFCISODEPTag`` and ``NFCNTAG424DNATag`` — answer these calls on the same connection as
/// their chip commands, so a tag is written, verified, protected and locked without
/// connecting twice. ``NDEFSession/connect(to:)`` hands out the same handles seen through
/// this protocol; a ``TagSession`` hands them out by family (``TagSession/tag``). Every
/// write and lock first checks that the tag is alone in the field
/// (``NDEFSessionError/severalTags(count:)``, nothing written); failures name the step and
/// what the tag holds.
///
/// ```swift
/// let session = try await TagSession.connect(on: device)
/// let ntag = try session.type2Tag()
/// try await ntag.writeNDEF(NDEFMessage(.uri("https://example.com")))
/// try await ntag.protect(password: password, pack: pack, from: 4, readProtected: false)
/// print(try await ntag.queryNDEFStatus().capacity)
/// ```
public protocol NFCNDEFTag: Sendable {
    /// The tag's UID.
    var uid: [UInt8] { get }
    /// The identified chip, or `nil` when it is unknown (and the NDEF calls fail with
    /// ``NDEFSessionError/unsupportedTag(reason:)``).
    var chip: Chip? { get }

    /// Whether the tag holds NDEF, may be written, its capacity (the largest message that
    /// fits) and the length of the message on it.
    func queryNDEFStatus() async throws(NDEFSessionError) -> NDEFStatus

    /// The NDEF message; a torn or corrupt one is ``NDEFSessionError/invalidNDEF(offset:reason:)``.
    /// A successful read verifies the message for ``writeLock(force:)``.
    func readNDEF() async throws(NDEFSessionError) -> NDEFMessage

    /// Writes `message` in one call, tear-safely, after checking that the tag is alone and
    /// that the message fits, and verifies it by reading it back.
    func writeNDEF(
        _ message: NDEFMessage, options: NDEFWriteOptions,
        progress: @escaping @Sendable (TagSessionProgress) -> Void
    ) async throws(NDEFSessionError)

    /// Makes the NDEF data **permanently** read-only, once the message on the tag was read
    /// back and verified on this connection (or with `force`).
    func writeLock(force: Bool) async throws(NDEFSessionError)
}

extension NFCNDEFTag {
    /// Writes `message` (every page that changes), verified.
    public func writeNDEF(_ message: NDEFMessage) async throws(NDEFSessionError) {
        try await writeNDEF(message, options: NDEFWriteOptions(), progress: { _ in })
    }

    /// Makes the NDEF data permanently read-only, once the message was verified on this connection.
    public func writeLock() async throws(NDEFSessionError) {
        try await writeLock(force: false)
    }
}

/// The NDEF calls of a ``TagSession``'s family handles, on the session's connection.
extension NFCTagHandle {
    /// See ``NFCNDEFTag/queryNDEFStatus()``.
    public func queryNDEFStatus() async throws(NDEFSessionError) -> NDEFStatus {
        try await session.performNDEF(exclusive: false) { driver throws(NDEFTagError) in
            try await driver.queryStatus()
        }
    }

    /// See ``NFCNDEFTag/readNDEF()``.
    public func readNDEF() async throws(NDEFSessionError) -> NDEFMessage {
        try await session.performNDEF(exclusive: false) { driver throws(NDEFTagError) in
            try await driver.readMessage()
        }
    }

    /// See ``NFCNDEFTag/writeNDEF(_:options:progress:)``.
    public func writeNDEF(
        _ message: NDEFMessage, options: NDEFWriteOptions = NDEFWriteOptions(),
        progress: @escaping @Sendable (TagSessionProgress) -> Void = { _ in }
    ) async throws(NDEFSessionError) {
        try await session.performNDEF(exclusive: true) { driver throws(NDEFTagError) in
            try await driver.writeMessage(message, options: options) { progress(TagSessionProgress($0)) }
        }
    }

    /// See ``NFCNDEFTag/writeLock(force:)``.
    public func writeLock(force: Bool = false) async throws(NDEFSessionError) {
        try await session.performNDEF(exclusive: true) { driver throws(NDEFTagError) in
            try await driver.makeReadOnly(force: force)
        }
    }

    /// Prepares a blank tag for NDEF with an empty message (a capability container, or the
    /// MAD and NDEF sectors on a MIFARE Classic), after the same alone check as a write.
    /// Refused with ``NDEFSessionError/alreadyFormatted`` when the tag holds NDEF, unless `force`.
    public func format(force: Bool = false) async throws(NDEFSessionError) {
        try await session.performNDEF(exclusive: true) { driver throws(NDEFTagError) in
            try await driver.format(force: force)
        }
    }
}

extension NFCNTAG424DNATag: NFCNDEFTag {
    /// The tag's UID.
    public var uid: [UInt8] { session.uid }
    /// The chip (`Chip.ntag424dna`).
    public var chip: Chip? { session.chip }

    /// See ``NFCNDEFTag/queryNDEFStatus()``.
    public func queryNDEFStatus() async throws(NDEFSessionError) -> NDEFStatus {
        try await NFCISODEPTag(session: session).queryNDEFStatus()
    }

    /// See ``NFCNDEFTag/readNDEF()``.
    public func readNDEF() async throws(NDEFSessionError) -> NDEFMessage {
        try await NFCISODEPTag(session: session).readNDEF()
    }

    /// See ``NFCNDEFTag/writeNDEF(_:options:progress:)``.
    public func writeNDEF(
        _ message: NDEFMessage, options: NDEFWriteOptions = NDEFWriteOptions(),
        progress: @escaping @Sendable (TagSessionProgress) -> Void = { _ in }
    ) async throws(NDEFSessionError) {
        try await NFCISODEPTag(session: session).writeNDEF(message, options: options, progress: progress)
    }

    /// See ``NFCNDEFTag/writeLock(force:)``.
    public func writeLock(force: Bool = false) async throws(NDEFSessionError) {
        try await NFCISODEPTag(session: session).writeLock(force: force)
    }
}

extension NFCDESFireTag: NFCNDEFTag {
    /// The card's UID.
    public var uid: [UInt8] { session.uid }
    /// The chip (`Chip.desfireEV1`, `.desfireEV2` or `.desfireEV3`).
    public var chip: Chip? { session.chip }

    /// See ``NFCNDEFTag/queryNDEFStatus()``.
    public func queryNDEFStatus() async throws(NDEFSessionError) -> NDEFStatus {
        try await isoDEP.queryNDEFStatus()
    }

    /// See ``NFCNDEFTag/readNDEF()``.
    public func readNDEF() async throws(NDEFSessionError) -> NDEFMessage {
        try await isoDEP.readNDEF()
    }

    /// See ``NFCNDEFTag/writeNDEF(_:options:progress:)``.
    public func writeNDEF(
        _ message: NDEFMessage, options: NDEFWriteOptions = NDEFWriteOptions(),
        progress: @escaping @Sendable (TagSessionProgress) -> Void = { _ in }
    ) async throws(NDEFSessionError) {
        try await isoDEP.writeNDEF(message, options: options, progress: progress)
    }

    /// See ``NFCNDEFTag/writeLock(force:)``: the CC says read-only, and the NDEF and CC
    /// files lose write access for good.
    public func writeLock(force: Bool = false) async throws(NDEFSessionError) {
        try await isoDEP.writeLock(force: force)
    }

    private var isoDEP: NFCISODEPTag { NFCISODEPTag(session: session) }
}

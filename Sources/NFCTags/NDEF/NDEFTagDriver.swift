import NDEF

/// NDEF on one tag family (Type 2, MIFARE Classic, Type 4), over a ``TagTransport``.
///
/// A driver talks to the one selected tag its transport reaches. Every call reads the
/// message area again (nothing of it is cached between calls), so a call after a failed
/// write sees what the tag really holds; a Type 2 driver reuses the dynamic lock and
/// configuration pages it read earlier on the same connection, which only its own lock
/// changes (and reads afresh). Writes are tear-safe: the NDEF length goes to 0 first, then the body,
/// then the real length, and the result is read back before success is reported.
///
/// ```swift
/// let driver = try NDEFTagDrivers.driver(for: .ntag215, transport: transport)
/// let status = try await driver.queryStatus()          // .readWrite, capacity 492
/// try await driver.writeMessage(message, options: .init()) { progress in
///     print("\(progress.written)/\(progress.total)")
/// }
/// let back = try await driver.readMessage()             // == message
/// try await driver.makeReadOnly(force: false)           // permanent!
/// ```
package protocol NDEFTagDriver: Sendable {
    /// Reads the CC / MAD / CC file, lock bits, access conditions and password
    /// configuration, and the NDEF length.
    ///
    /// A tag that is not NDEF-formatted is ``NDEFAvailability/notSupported``; a malformed
    /// TLV area or CC is an error that says where.
    func queryStatus() async throws(NDEFTagError) -> NDEFStatus

    /// Reads the NDEF message. An empty NDEF (length 0) is a message with no records;
    /// a torn or corrupt one is ``NDEFTagError/invalidNDEF(offset:reason:)``.
    func readMessage() async throws(NDEFTagError) -> NDEFMessage

    /// Writes `message` tear-safely and verifies it by reading it back.
    ///
    /// Nothing is written when the message does not fit (``NDEFTagError/tagSizeTooSmall(needed:capacity:)``)
    /// or the tag is not read-write (``NDEFTagError/tagNotWritable``). A message with no
    /// records writes an empty NDEF.
    ///
    /// - Parameters:
    ///   - message: the message to store.
    ///   - options: ``NDEFWriteOptions`` (write only what changes, or everything).
    ///   - progress: called after each acknowledged write command.
    func writeMessage(
        _ message: NDEFMessage,
        options: NDEFWriteOptions,
        progress: @Sendable (NDEFWriteProgress) -> Void
    ) async throws(NDEFTagError)

    /// Makes the NDEF data permanently read-only. **This cannot be undone.**
    ///
    /// Refuses with ``NDEFTagError/notVerified`` unless this driver has read back and
    /// verified the message now on the tag (by ``readMessage()`` or a successful
    /// ``writeMessage(_:options:progress:)``), or `force` is true.
    func makeReadOnly(force: Bool) async throws(NDEFTagError)

    /// Prepares a blank tag for NDEF with an empty message (CC and empty NDEF TLV, MAD and
    /// NFC sectors, …). Refuses with ``NDEFTagError/alreadyFormatted`` when the tag already
    /// holds valid NDEF, unless `force` is true.
    func format(force: Bool) async throws(NDEFTagError)
}

extension NDEFTagDriver {
    /// Writes `message` with default options and no progress reports.
    package func writeMessage(_ message: NDEFMessage) async throws(NDEFTagError) {
        try await writeMessage(message, options: NDEFWriteOptions(), progress: { _ in })
    }
}

extension NDEFMessage {
    /// The bytes stored on a tag for this message: none for a message without records
    /// (an empty NDEF), else the encoded message.
    func tagBytes() throws(NDEFTagError) -> [UInt8] {
        guard !records.isEmpty else { return [] }
        do {
            return try encoded()
        } catch {
            throw .messageNotEncodable(error)
        }
    }
}

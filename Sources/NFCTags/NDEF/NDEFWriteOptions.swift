/// How ``NDEFTagDriver/writeMessage(_:options:progress:)`` writes.
///
/// ```swift
/// try await driver.writeMessage(message, options: NDEFWriteOptions(fullWrite: true)) { _ in }
/// ```
public struct NDEFWriteOptions: Sendable {
    /// Write every page or block of the new NDEF data, not only those whose content
    /// changes (for tags whose current content cannot be trusted, e.g. after a repair).
    public var fullWrite: Bool

    /// Options with the given values; the default writes only what changes.
    public init(fullWrite: Bool = false) {
        self.fullWrite = fullWrite
    }
}

/// How far a write has come, for a progress bar.
///
/// `written` counts the write commands the tag acknowledged (pages on Type 2, blocks on
/// Classic, UPDATE BINARY commands on Type 4) out of `total`.
package struct NDEFWriteProgress: Sendable {
    /// Write commands acknowledged so far.
    package var written: Int
    /// Write commands the whole write needs.
    package var total: Int

    /// Progress with the given counts.
    package init(written: Int, total: Int) {
        self.written = written
        self.total = total
    }
}

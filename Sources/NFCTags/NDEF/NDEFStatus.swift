/// What a tag offers for NDEF, as ``NDEFTagDriver/queryStatus()`` finds it.
///
/// ```swift
/// let status = try await driver.queryStatus()
/// if status.availability == .readWrite, message.count <= status.capacity { … }
/// ```
public struct NDEFStatus: Sendable, Hashable {
    /// Whether the tag holds NDEF and whether it may be written.
    public var availability: NDEFAvailability
    /// The largest NDEF message in bytes that fits, after TLV or file overhead
    /// (0 when the tag does not support NDEF).
    public var capacity: Int
    /// The length in bytes of the message now on the tag (0 for an empty NDEF).
    public var length: Int

    /// A status with the given values.
    package init(availability: NDEFAvailability, capacity: Int, length: Int) {
        self.availability = availability
        self.capacity = capacity
        self.length = length
    }
}

/// Whether a tag supports NDEF and may be written.
public enum NDEFAvailability: Sendable, Hashable {
    /// The tag is not NDEF-formatted (no capability container, no MAD or NDEF application):
    /// ``NDEFTagDriver/format(force:)`` may prepare it.
    case notSupported
    /// NDEF can be read but not written: the CC or the access conditions say read-only,
    /// lock bits cover the NDEF area, or a password protects writes.
    case readOnly
    /// NDEF can be read and written.
    case readWrite
}

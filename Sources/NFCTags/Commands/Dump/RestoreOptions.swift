/// Which areas a restore may write besides the user pages / data blocks. UID pages and the
/// manufacturer block are never written; secrets are never in a dump.
///
/// ```swift
/// try await ntag.restore(dump, options: [.configuration])
/// ```
public struct RestoreOptions: Sendable, ExpressibleByArrayLiteral {
    package var bits: Int
    package init(bits: Int) { self.bits = bits }

    /// The areas in `elements` together (`[]`: user memory only).
    public init(arrayLiteral elements: RestoreOptions...) {
        bits = elements.reduce(0) { $0 | $1.bits }
    }

    /// Static and dynamic lock pages (one-way bits: also needs ``IrreversibleConsent/lockAndOTPBits``).
    public static let lockPages = RestoreOptions(bits: 1 << 0)
    /// The OTP / capability-container page (one-way bits: also needs consent).
    public static let otpPages = RestoreOptions(bits: 1 << 1)
    /// The configuration fields (never turning protection on: use `protect` for that).
    public static let configuration = RestoreOptions(bits: 1 << 2)
    /// Classic sector trailers (checked like ``ClassicCommands/writeSectorTrailer(_:sector:force:consent:)``).
    public static let sectorTrailers = RestoreOptions(bits: 1 << 3)

    /// Whether every area of `other` is allowed.
    package func contains(_ other: RestoreOptions) -> Bool { bits & other.bits == other.bits }

    package mutating func insert(_ other: RestoreOptions) { bits |= other.bits }
}

/// What a Type 2 page holds, from the chip's tables; it decides whether a restore writes it.
package enum PageRole: String, Sendable, Hashable, CaseIterable {
    /// UID and check bytes: never written.
    case uid
    /// Static or dynamic lock bytes.
    case lock
    /// One-time-programmable bits (the capability container).
    case otp
    /// Configuration fields (AUTH0, ACCESS, …).
    case configuration
    /// PWD, PACK or key pages: never in a dump, never written.
    case secret
    /// A one-way counter page: never written.
    case counter
    /// User memory.
    case user
    /// Anything else: never written.
    case other
}

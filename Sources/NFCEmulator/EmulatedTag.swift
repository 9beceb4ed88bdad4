/// How a tag identifies itself during ISO/IEC 14443-3A activation.
///
/// ```swift
/// let identity = TagIdentity(uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66], atqa: 0x0044, sak: 0x00)
/// ```
public struct TagIdentity: Equatable, Sendable {
    /// The UID (4, 7 or 10 bytes) in transmission order.
    public var uid: [UInt8]
    /// ATQA (SENS_RES) as a 16-bit value; on air it goes least significant byte first.
    public var atqa: UInt16
    /// The final SAK (SEL_RES).
    public var sak: UInt8
    /// The ATS with its length byte TL first, for ISO-DEP tags; `nil` otherwise.
    public var ats: [UInt8]?

    /// An identity with the given values.
    public init(uid: [UInt8], atqa: UInt16, sak: UInt8, ats: [UInt8]? = nil) {
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.ats = ats
    }
}

/// A tag model that can sit in the emulated reader's ``Field``.
///
/// The ``Field`` and the PN532 carry out ISO/IEC 14443-3A activation (REQA, WUPA,
/// anticollision, SELECT, HLTA) from ``identity``; the model sees only the frames sent
/// once it is ACTIVE, without CRC_A, and answers each with a ``TagAnswer``.
///
/// ```swift
/// struct EchoTag: EmulatedTag {
///     var identity = TagIdentity(uid: [1, 2, 3, 4], atqa: 0x0004, sak: 0x08)
///     mutating func receive(_ frame: [UInt8]) -> TagAnswer { .bytes(frame) }
///     mutating func fieldReset() {}
///     mutating func leaveActiveState() {}
/// }
/// ```
public protocol EmulatedTag: Sendable {
    /// UID, ATQA, SAK and ATS used for activation.
    var identity: TagIdentity { get }
    /// Answers one frame (CRC_A already checked and stripped) sent while the tag is ACTIVE.
    mutating func receive(_ frame: [UInt8]) -> TagAnswer
    /// The RF field went off: volatile state (authentication, per-field counters) is lost.
    mutating func fieldReset()
    /// The tag left ACTIVE (HLTA, a NAK, an unexpected frame, a new selection of another
    /// tag): authentication and half-done commands are forgotten; memory is kept.
    mutating func leaveActiveState()
}

/// How many more wrong passwords a tag accepts before its AUTHLIM locks the protected
/// area for good, as far as the reader can know it.
///
/// NTAG21x and Ultralight EV1 do not reveal their failure counter: the number is known
/// exactly only as "none left" (the tag answers NAK `4`), as "unlimited" (AUTHLIM = 0),
/// or bounded by AUTHLIM when the ACCESS byte could be read.
public enum RemainingAttempts: Sendable, Hashable, CustomStringConvertible {
    /// AUTHLIM is 0: failures are not counted.
    case unlimited
    /// The limit is reached: every PWD_AUTH now fails, even with the right password.
    case exhausted
    /// AUTHLIM is known: at most this many more failures are allowed.
    case atMost(Int)
    /// The ACCESS byte is protected, so AUTHLIM could not be read.
    case unknown

    /// `unlimited`, `at most 3`, `none (authentication limit reached)`.
    public var description: String {
        switch self {
        case .unlimited: "unlimited"
        case .exhausted: "none (authentication limit reached)"
        case .atMost(let count): "at most \(count)"
        case .unknown: "unknown (AUTHLIM is not readable)"
        }
    }
}

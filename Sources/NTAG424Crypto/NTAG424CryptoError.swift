/// What can go wrong in NTAG 424 DNA cryptography, typed so that a caller can tell a wrong
/// key from a damaged frame.
///
/// ```swift
/// do { session = try auth.finish(response: answer) }
/// catch .authenticationFailed { print("wrong key") }
/// ```
@nonexhaustive
public enum NTAG424CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The other side does not hold the same key: the RndA′ (or RndB′) it sent back does not
    /// match (NT4H2421Gx §9.1.5, AuthenticateEV2First / NonFirst).
    case authenticationFailed(String)
    /// A MAC did not verify: the frame was altered, or was made with another session key,
    /// command counter or TI (NT4H2421Gx §9.1.3).
    case integrityError(String)
    /// The 16-bit command counter CmdCtr is at FFFFh: no further command may be protected in
    /// this session; authenticate again (NT4H2421Gx §9.1.2).
    case commandCounterOverflow
    /// An input has the wrong length or shape (a key that is not 16 bytes, data that is not a
    /// whole number of AES blocks, missing padding, an unknown PICCDataTag, …).
    case malformed(String)
    /// libcrypto refused an operation it should accept (it is missing the AES cipher or the
    /// CMAC algorithm).
    case cryptoUnavailable(String)

    /// One line for a person: what went wrong and, where it helps, the likely cause.
    public var description: String {
        switch self {
        case .authenticationFailed(let why): "authentication failed (wrong key?): \(why)"
        case .integrityError(let why): "integrity error: \(why)"
        case .commandCounterOverflow: "command counter overflow: CmdCtr is at FFFFh, authenticate again"
        case .malformed(let why): "malformed input: \(why)"
        case .cryptoUnavailable(let why): "libcrypto refused: \(why)"
        }
    }
}

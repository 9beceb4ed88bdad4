import NTAG424Crypto

/// A `91xx` status an NTAG 424 DNA answered (NT4H2421Gx §10.2 Table 23), by name.
package enum NTAG424Status: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `9100` successful operation.
    case ok = 0x00
    /// `911C` the command code is not supported.
    case illegalCommand = 0x1C
    /// `911E` CRC or MAC does not match, or the padding bytes are invalid.
    case integrityError = 0x1E
    /// `9140` the key number is not valid.
    case noSuchKey = 0x40
    /// `917E` the length of the command is wrong.
    case lengthError = 0x7E
    /// `919D` the current authentication status does not allow the command.
    case permissionDenied = 0x9D
    /// `919E` a parameter value is not valid.
    case parameterError = 0x9E
    /// `91AD` too many failed authentications: the tag delays the next one.
    case authenticationDelay = 0xAD
    /// `91AE` the authentication failed (wrong key), or the command needs one first.
    case authenticationError = 0xAE
    /// `91AF` another frame is expected.
    case additionalFrame = 0xAF
    /// `91BE` an attempt to read or write beyond the file's limits.
    case boundaryError = 0xBE
    /// `91CA` the previous command was not fully completed.
    case commandAborted = 0xCA
    /// `91EE` a memory failure (or a read counter at its limit).
    case memoryError = 0xEE
    /// `91F0` the file does not exist.
    case fileNotFound = 0xF0
    /// `9190` Read_Sig's success as cards answer it (the data sheet says `9100`).
    case signatureOK = 0x90

    /// The status in words.
    package var description: String {
        switch self {
        case .ok: "successful operation"
        case .illegalCommand: "command code not supported"
        case .integrityError: "integrity error (CRC or MAC does not match)"
        case .noSuchKey: "no such key"
        case .lengthError: "length error"
        case .permissionDenied: "permission denied (authenticate with the right key first)"
        case .parameterError: "parameter error"
        case .authenticationDelay: "authentication delay (too many failed attempts)"
        case .authenticationError: "authentication error (wrong key)"
        case .additionalFrame: "additional frame expected"
        case .boundaryError: "boundary error (beyond the file)"
        case .commandAborted: "command aborted"
        case .memoryError: "memory error"
        case .fileNotFound: "file not found"
        case .signatureOK: "successful operation (Read_Sig)"
        }
    }
}

/// Why an NTAG 424 DNA command failed — typed, so that a wrong key, a broken MAC, an
/// exhausted command counter and a refused permission can each be handled.
///
/// ```swift
/// do { try await ntag.authenticate(keyNumber: 0, key: key) }
/// catch .ntag424(.wrongKey(let number)) { print("key \(number) is not that one") }
/// ```
@nonexhaustive
public enum NTAG424Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// Authentication with key `keyNumber` was refused (`91AE`, or the tag's RndA′ did not match).
    case wrongKey(keyNumber: UInt8)
    /// A MAC did not verify (`911E` from the tag, or the tag's answer on our side): the
    /// session is over; authenticate again.
    case integrityError(command: String)
    /// The session's command counter reached FFFFh: authenticate again.
    case commandCounterOverflow
    /// The tag refused the command in the current authentication state (`919D`).
    case permissionDenied(command: String)
    /// Another `91xx` or ISO status word.
    case status(command: String, statusWord: UInt16, meaning: String)
    /// The command needs an authentication first.
    case notAuthenticated(command: String)
    /// The answer does not have the shape the command expects.
    case invalidAnswer(command: String, detail: String)
    /// A cryptographic input was refused (a key of the wrong size, malformed data).
    case crypto(String)
    /// A key change stopped before it was verified: key `keyNumber` is now one of
    /// `tagNowHolds` (most likely first; ``NTAG424DNACommands/keyInSlot(_:candidates:)``
    /// tells which from its key version), never a key nobody knows. `cause` is what stopped it.
    indirect case keyChangeInterrupted(keyNumber: UInt8, tagNowHolds: [NTAG424KeyCandidate], cause: TagCommandError)
    /// A MIFARE DESFire ChangeKey stopped before it was verified: key `keyNumber` is now one
    /// of `tagNowHolds` (the new key first), never a key nobody knows — their versions
    /// differ, and GetKeyVersion (no key needed) tells which. `cause` is what stopped it.
    indirect case desfireKeyChangeInterrupted(keyNumber: UInt8, tagNowHolds: [DESFireKey], cause: TagCommandError)

    /// The error in words.
    public var description: String {
        switch self {
        case .wrongKey(let number): "key \(number) was refused: the tag holds another key in that slot"
        case .integrityError(let command): "\(command): integrity error — a MAC did not verify; authenticate again"
        case .commandCounterOverflow: "the command counter is exhausted; authenticate again"
        case .permissionDenied(let command):
            "\(command): permission denied — authenticate with the key the file or setting requires"
        case let .status(command, sw, meaning):
            "\(command): the tag answered \(String(sw, radix: 16, uppercase: true)) (\(meaning))"
        case .notAuthenticated(let command): "\(command) needs an authentication first"
        case let .invalidAnswer(command, detail): "\(command): unexpected answer: \(detail)"
        case .crypto(let detail): "cryptography: \(detail)"
        case let .keyChangeInterrupted(number, candidates, cause):
            "the change of key \(number) was cut (\(cause)); the tag now holds \(candidates.map(\.description).joined(separator: " or "))"
        case let .desfireKeyChangeInterrupted(number, keys, cause):
            "the change of key \(number) was cut (\(cause)); the card now holds the new key, \(keys.first.map(\.description) ?? "?"), or the old one, \(keys.dropFirst().map(\.description).joined(separator: " or ")): GetKeyVersion tells which"
        }
    }

    /// The error for a crypto-layer failure during `command`.
    static func from(_ error: NTAG424CryptoError, command: String, keyNumber: UInt8? = nil) -> NTAG424Error {
        switch error {
        case .authenticationFailed: .wrongKey(keyNumber: keyNumber ?? 0)
        case .integrityError: .integrityError(command: command)
        case .commandCounterOverflow: .commandCounterOverflow
        case .malformed(let detail), .cryptoUnavailable(let detail): .crypto(detail)
        }
    }
}

/// One key a slot may hold after an interrupted change, named by its role (never its bytes).
public struct NTAG424KeyCandidate: Sendable, Hashable, CustomStringConvertible {
    /// `new` or `old`.
    public var role: String
    /// The key.
    public var key: AES128Key
    /// The key version that goes with it.
    public var version: UInt8

    /// A candidate.
    public init(role: String, key: AES128Key, version: UInt8) {
        self.role = role
        self.key = key
        self.version = version
    }

    /// `the new key (version 2)`.
    public var description: String { "the \(role) key (version \(version))" }
}

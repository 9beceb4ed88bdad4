import NFCTagKit
#if canImport(Glibc)
import Glibc
#endif

/// A hand-written, left-to-right reader of the command line.
///
/// Global options (see ``GlobalOptions``) may stand anywhere; every subcommand offers
/// each token it does not know to ``consumeGlobal(_:)`` first, so that an option's value
/// is never mistaken for an option of its own.
struct ArgumentParser {
    private let tokens: [String]
    private var index = 0
    private(set) var globals = GlobalOptions()
    private(set) var helpRequested = false

    init(_ tokens: [String]) {
        self.tokens = tokens
    }

    /// The next token, or nil at the end.
    mutating func nextToken() -> String? {
        guard index < tokens.count else { return nil }
        defer { index += 1 }
        return tokens[index]
    }

    /// The next token that is not a global option or a help flag: a command word.
    mutating func nextCommandWord() throws(ToolError) -> String? {
        while let token = nextToken() {
            if try consumeGlobal(token) { continue }
            return token
        }
        return nil
    }

    /// The value that must follow `option`.
    mutating func value(for option: String) throws(ToolError) -> String {
        guard let value = nextToken() else {
            throw .usage("nfctag: \(option) needs a value")
        }
        return value
    }

    /// Consumes `token` (and its value) when it is a global option or a help flag.
    mutating func consumeGlobal(_ token: String) throws(ToolError) -> Bool {
        switch token {
        case "--help", "-h":
            helpRequested = true
        case "--json":
            globals.json = true
        case "--device":
            globals.device = try value(for: token)
        case "--timeout":
            let text = try value(for: token)
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                throw .usage("nfctag: --timeout takes a positive number of seconds, not '\(text)'")
            }
            globals.timeout = seconds
        case "--password":
            globals.password = try GlobalOptions.password(fromHex: value(for: token), source: token)
        case "--password-env":
            let name = try value(for: token)
            guard let text = getenv(name).map({ String(cString: $0) }) else {
                throw .usage("nfctag: --password-env \(name): the environment variable is not set")
            }
            globals.password = try GlobalOptions.password(fromHex: text, source: "$\(name)")
        case "--ultralight-c-key":
            globals.ultralightCKey = try GlobalOptions.ultralightCKey(fromHex: value(for: token), source: token)
        case "--password-derive-env":
            // The master secret comes only from the environment: never an argument, never printed.
            let name = try value(for: token)
            guard let secret = getenv(name).map({ String(cString: $0) }), !secret.isEmpty else {
                throw .usage("nfctag: --password-derive-env \(name): the environment variable is not set")
            }
            globals.passwordDerivation = TagPasswordDerivation(secret: Array(secret.utf8))
        default:
            return false
        }
        return true
    }
}

/// Options that every subcommand accepts, before or after its name.
struct GlobalOptions: Sendable {
    /// Machine-readable output on stdout.
    var json = false
    /// A libnfc connection string, or `emulator[:TAG,…]`.
    var device: String?
    /// How long to wait for a reader or a tag, in seconds.
    var timeout: Double = 10
    /// PWD_AUTH password (4 bytes) to present before the operation.
    var password: TagPassword?
    /// `--password-derive-env VAR`: each tag's password and PACK derived from its UID.
    var passwordDerivation: TagPasswordDerivation?

    /// `--ultralight-c-key HEX32`: the Ultralight C 3DES key to authenticate with first.
    var ultralightCKey: UltralightCKey?

    static func ultralightCKey(fromHex text: String, source: String) throws(ToolError) -> UltralightCKey {
        guard let key = UltralightCKey(hex: text) else {
            let length = UltralightCKey.length
            throw .usage("nfctag: \(source) must be \(length) bytes as \(2 * length) hex digits")
        }
        return key
    }

    /// Whether a password was given, fixed or derived.
    var hasPassword: Bool { password != nil || passwordDerivation != nil }

    /// The password for the tag with `uid` and the PACK it must answer: derived, or
    /// `--password` with `pack` (`--pack`, if given).
    func credentials(forUID uid: [UInt8], pack: PACK?) -> (password: TagPassword, pack: PACK?)? {
        if let passwordDerivation {
            let derived = DerivedPasswords.credentials(passwordDerivation, uid: uid)
            return (derived.password, derived.pack)
        }
        return password.map { ($0, pack) }
    }

    /// Refuses `--password` with `--password-derive-env`, and `--pack` with a derived password
    /// (the derivation gives the PACK).
    func checkPasswordOptions(command: String?, packGiven: Bool) throws(ToolError) {
        guard passwordDerivation != nil else { return }
        let prefix = "nfctag" + (command.map { " " + $0 } ?? "")
        if password != nil { throw .usage("\(prefix): give --password or --password-derive-env, not both") }
        if packGiven {
            throw .usage("\(prefix): --pack comes from the derivation with --password-derive-env; leave it out")
        }
    }

    static func password(fromHex text: String, source: String) throws(ToolError) -> TagPassword {
        guard let password = TagPassword(hex: text) else {
            throw .usage("nfctag: \(source) must be 4 bytes as 8 hex digits, e.g. 12345678")
        }
        return password
    }
}

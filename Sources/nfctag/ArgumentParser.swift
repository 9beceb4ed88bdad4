import NFCTagKit
#if canImport(Glibc)
import Glibc
#endif

/// A hand-written, left-to-right reader of the command line.
///
/// Global options (see ``GlobalOptions``) may stand anywhere; every subcommand offers
/// each token it does not know to ``consumeGlobal(_:)`` first, so that an option's value
/// is never mistaken for an option of its own.
///
/// `--option=value` is the same as `--option value`; after `--` every token is a positional
/// argument, even one that starts with `-`; an option whose value is missing (the next token
/// is another `--option`) is a usage error; and `--help` (or `-h`) anywhere before `--` wins:
/// the command's help is printed whatever else the line holds.
struct ArgumentParser {
    private let tokens: [String]
    private var index = 0
    /// The first token after `--`, if the line has one.
    private let positionalStart: Int?
    /// The tokens that were the value of an `--option=value`.
    private let inlineValues: Set<Int>
    private(set) var globals = GlobalOptions()
    private(set) var helpRequested = false

    init(_ arguments: [String]) {
        var tokens: [String] = []
        var positionalStart: Int?
        var inlineValues: Set<Int> = []
        for argument in arguments {
            if positionalStart == nil, argument == "--" {
                positionalStart = tokens.count
            } else if positionalStart == nil, argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                tokens.append(String(argument[..<equals]))
                inlineValues.insert(tokens.count)
                tokens.append(String(argument[argument.index(after: equals)...]))
            } else {
                tokens.append(argument)
            }
        }
        let options = tokens.prefix(positionalStart ?? tokens.count).enumerated().filter {
            !inlineValues.contains($0.offset)
        }
        if options.contains(where: { Self.helpFlags.contains($0.element) }) {
            // Help wins: the command words, then --help; nothing else is looked at.
            self.tokens = Self.commandWords(tokens.prefix(positionalStart ?? tokens.count)) + ["--help"]
            self.positionalStart = nil
            self.inlineValues = []
        } else {
            self.tokens = tokens
            self.positionalStart = positionalStart
            self.inlineValues = inlineValues
        }
    }

    /// The next token, or nil at the end.
    private mutating func nextToken() -> String? {
        guard index < tokens.count else { return nil }
        defer { index += 1 }
        return tokens[index]
    }

    /// Whether the token ``nextToken()`` returned last came after `--`.
    var isPositional: Bool { positionalStart.map { index - 1 >= $0 } ?? false }

    /// Whether the token ``nextToken()`` just returned is an option (`-x`, `--name`), not a
    /// positional argument (`-` alone is standard input; after `--` nothing is an option).
    private func isOption(_ token: String) -> Bool {
        !isPositional && token.hasPrefix("-") && token != "-"
    }

    private static let helpFlags: Set<String> = ["--help", "-h"]
    /// The global options that take a value (see ``consumeGlobal(_:)``).
    private static let globalsWithValue = Set(GlobalOptions.specs.filter { $0.value != nil }.flatMap(\.names))

    /// The command words at the start of `tokens` (`ndef`, `decode`), past the global options,
    /// up to the command's first option.
    private static func commandWords(_ tokens: ArraySlice<String>) -> [String] {
        var words: [String] = []
        var position = tokens.startIndex
        while position < tokens.endIndex {
            let token = tokens[position]
            if globalsWithValue.contains(token) {
                position += 2
            } else if helpFlags.contains(token) || token == "--json" {
                position += 1
            } else if token.hasPrefix("-") {
                break
            } else {
                words.append(token)
                position += 1
            }
        }
        return words
    }

    /// The next token that is not a global option or a help flag: a command word.
    mutating func nextCommandWord() throws(ToolError) -> String? {
        while let token = nextToken() {
            if try consumeGlobal(token) { continue }
            return token
        }
        return nil
    }

    /// The next argument of `command`: global options are taken on the way; an option the
    /// command does not declare is a usage error; a declared option with a placeholder
    /// brings its value.
    mutating func next(of command: CommandSpec) throws(ToolError) -> ParsedArgument? {
        while let token = nextToken() {
            if try consumeGlobal(token) { continue }
            guard isOption(token) else { return ParsedArgument(option: nil, value: token) }
            guard let option = command.option(named: token) else { throw command.unknown(token) }
            return ParsedArgument(option: option.name, value: option.value == nil ? "" : try value(for: token))
        }
        return nil
    }

    /// The value that must follow `option`; another `--option` in its place is a usage error
    /// (`--device --json` does not open a reader called `--json`: write `--device=--json`).
    private mutating func value(for option: String) throws(ToolError) -> String {
        guard let value = nextToken() else {
            throw .usage("nfctag: \(option) needs a value")
        }
        if value.hasPrefix("--"), !isPositional, !inlineValues.contains(index - 1) {
            throw .usage("nfctag: \(option) needs a value (found the option \(value) in its place)")
        }
        return value
    }

    /// Consumes `token` (and its value) when it is a global option or a help flag.
    private mutating func consumeGlobal(_ token: String) throws(ToolError) -> Bool {
        guard !isPositional else { return false }
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
    /// The global options as the tool's help lists them (``ArgumentParser/consumeGlobal(_:)``
    /// parses them).
    static let specs: [OptionSpec] = [
        OptionSpec(
            "--device", value: "CONNSTRING",
            help: "libnfc connection string, or emulator[:KIND][:TAG,…] (KIND pn532, the default, acr122u or pn533)"),
        OptionSpec("--json", help: "machine-readable output on stdout"),
        OptionSpec("--timeout", value: "SECONDS", help: "how long to wait for a reader or a tag (default 10)"),
        OptionSpec("--password", value: "HEX8", help: "PWD_AUTH before the operation"),
        OptionSpec("--password-env", value: "VAR", help: "the same, the password read from $VAR"),
        OptionSpec(
            "--password-derive-env", value: "VAR",
            help: "each tag's own PWD / PACK, derived from the secret in $VAR and the UID (v1; see the README)"),
        OptionSpec("--ultralight-c-key", value: "HEX32", help: "Ultralight C: 3DES authentication with this key first"),
        OptionSpec("--help", "-h", help: "help for the tool or a command (wins wherever it stands)"),
    ]

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

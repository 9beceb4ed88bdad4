#if canImport(Glibc)
import Glibc
#endif
import NFCTagKit

/// The `nfctag ntag424` verbs that talk to a tag: `info`, `auth`, `change-key`, `sun-setup`
/// (cli.md). Each connects to the one tag in the field, selects the NDEF application and
/// reports NTAG 424 DNA errors by name (wrong key, integrity error, permission denied).
enum NTAG424TagCommands {
    /// Options every verb reads: keys as hex (`--key`) or from the environment (`--…-env`).
    struct Options {
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var publicKey: [UInt8]?
    }

    static let infoSpec = CommandSpec(
        "ntag424 info", "version, file settings, key versions and signature of an NTAG 424 DNA",
        options: [OptionSpec("--public-key", value: "HEX", help: "verify the signature against this key (04 ‖ X ‖ Y)")],
        discussion: """
            Version, UID (a random ID shown as such), file settings, key versions, and the
            originality signature (secp224r1; NXP's key, or the one given — the emulator's:
            nfctag emulate --tag ntag424dna --print-signing-key).

            Example:
              nfctag --device emulator:ntag424dna ntag424 info --json
            """)

    static let authSpec = CommandSpec(
        "ntag424 auth", "check an NTAG 424 DNA key (EV2 authentication)",
        options: [
            OptionSpec("--key-no", value: "N", help: "the key slot, 0–4 (default 0)"),
            OptionSpec("--key", value: "HEX32", help: "the key (default: the factory key, all zero)"),
        ],
        discussion: """
            Exit 0 when the tag accepts the key, 1 when it refuses it.

            Example:
              nfctag ntag424 auth --key-no 0 --key 00000000000000000000000000000000
            """)

    static let changeKeySpec = CommandSpec(
        "ntag424 change-key", "change an NTAG 424 DNA key, verified",
        options: [
            OptionSpec("--auth-key", value: "HEX32", help: "key 0, to authenticate with (default all zero)"),
            OptionSpec("--key-no", value: "N", help: "the key slot to change, 0–4"),
            OptionSpec("--old-key", value: "HEX32", help: "its current value (needed for N ≠ 0)"),
            OptionSpec("--new-key", value: "HEX32", help: "its new value"),
            OptionSpec("--version", value: "V", help: "the new key version (default: one more than now)"),
        ],
        discussion: """
            Authenticates with key 0, changes key N and verifies it by authenticating with the
            new key; a cut is reported with the keys the slot may hold.

            Example:
              nfctag ntag424 change-key --key-no 1 --old-key 00000000000000000000000000000000 --new-key 00112233445566778899aabbccddeeff
            """)

    static let sunSetupSpec = CommandSpec(
        "ntag424 sun-setup", "write an NTAG 424 DNA's SUN URL and its SDM settings",
        options: [
            OptionSpec("--uri", value: "TEMPLATE", help: "{picc} and {cmac} (encrypted), or {uid}, {counter}, {cmac}"),
            OptionSpec("--auth-key-env", value: "VAR", help: "key 0 from $VAR (default all zero)"),
            OptionSpec("--meta-key-env", value: "VAR", help: "the meta-read key (slot 2) from $VAR"),
            OptionSpec("--mac-key-env", value: "VAR", help: "the MAC key (slot 1) from $VAR"),
            OptionSpec("--master-key-env", value: "VAR", help: "with --diversify: the master key from $VAR"),
            OptionSpec("--diversify", help: "a MAC key per tag, diversified from the master key (AN10922)"),
        ],
        discussion: """
            Writes the NDEF URL and the SDM settings; keys default to all zero and are read
            only from the environment, never printed.

            Example:
              nfctag --device emulator:ntag424dna ntag424 sun-setup --uri 'https://example.com/t?picc_data={picc}&cmac={cmac}'
            """)

    static func parse(_ parser: inout ArgumentParser, spec: CommandSpec) throws(ToolError) -> Options {
        var options = Options()
        let verb = String(spec.name.dropFirst("ntag424 ".count))
        while let argument = try parser.next(of: spec) {
            guard let option = argument.option, let declared = spec.option(named: option) else {
                throw spec.unknown(argument.token)
            }
            if declared.value != nil {
                options.values[option] = argument.value
            } else {
                options.flags.insert(option)
            }
        }
        if let text = options.values["--public-key"] {
            guard let bytes = Hex.decode(text), !bytes.isEmpty else {
                throw .usage("nfctag ntag424 \(verb): --public-key takes hex (04 ‖ X ‖ Y)")
            }
            options.publicKey = bytes
        }
        return options
    }

    /// A 16-byte AES key from hex option `name`, or `nil` when absent.
    static func key(_ options: Options, _ name: String, verb: String) throws(ToolError) -> AES128Key? {
        guard let text = options.values[name] else { return nil }
        do { return try AES128Key(hex: text) } catch {
            throw .usage("nfctag ntag424 \(verb): \(name) takes 32 hex digits (an AES-128 key)")
        }
    }

    /// A key from the environment variable option `name` names (never printed), or `nil`.
    static func environmentKey(_ options: Options, _ name: String, verb: String) throws(ToolError) -> AES128Key? {
        guard let variable = options.values[name] else { return nil }
        guard let text = getenv(variable).map({ String(cString: $0) }), !text.isEmpty else {
            throw .usage("nfctag ntag424 \(verb): \(name) \(variable): the variable is not set")
        }
        do { return try AES128Key(hex: text) } catch {
            throw .usage("nfctag ntag424 \(verb): $\(variable) must hold 32 hex digits (an AES-128 key)")
        }
    }

    static func number(_ options: Options, _ name: String, verb: String, range: ClosedRange<Int>) throws(ToolError)
        -> UInt8?
    {
        guard let text = options.values[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .usage("nfctag ntag424 \(verb): \(name) takes \(range.lowerBound)…\(range.upperBound)")
        }
        return UInt8(value)
    }

    /// Connects, selects the application, runs `body` on the NTAG 424 DNA handle.
    static func withTag<Result>(
        _ globals: GlobalOptions, verb: String,
        _ body: (NFCNTAG424DNATag, TagSession) async throws(TagSessionError) -> Result
    ) async throws(ToolError) -> Result {
        try await ChipSession.run(globals, command: "ntag424 \(verb)", authenticate: false) {
            session throws(ToolError) in
            do throws(TagSessionError) {
                let ntag = try session.isoDEPTag().ntag424()
                try await ntag.selectApplication()
                return try await body(ntag, session)
            } catch {
                throw failure(error, verb: verb)
            }
        }
    }

    /// NTAG 424 DNA errors by name; the rest as the other chip commands report them.
    static func failure(_ error: TagSessionError, verb: String) -> ToolError {
        let command = "nfctag ntag424 \(verb)"
        switch error {
        case .command(_, .ntag424(.wrongKey(let number))):
            return ToolError(
                exitCode: .failure,
                summary: "\(command): key \(number) was refused — the tag holds another key in that slot",
                detail: ["Nothing was changed."])
        case .command(_, .ntag424(.keyChangeInterrupted(let number, let candidates, let cause))):
            return ToolError(
                exitCode: .failure,
                summary:
                    "\(command): the change of key \(number) was cut (\(cause)); the tag holds \(candidates.map(\.description).joined(separator: " or "))",
                detail: [
                    "Present the tag again and run 'nfctag ntag424 info': the key version tells which key it holds."
                ])
        case .command(_, .ntag424(let ntagError)):
            return ToolError(exitCode: .failure, summary: "\(command): \(ntagError)")
        default:
            return ChipSession.failure(error, command: command)
        }
    }

    // MARK: info

    static func info(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        let options = try parse(&parser, spec: infoSpec)
        output.json = parser.globals.json
        if parser.helpRequested { return output.line(infoSpec.help) }
        let printer = output
        try await withTag(parser.globals, verb: "info") { ntag, session throws(TagSessionError) in
            let version = try await ntag.version()
            let randomID = session.uid.count != version.uid.count
            var settings: [(UInt8, NTAG424FileSettings)] = []
            for file in NTAG424DNATable.files {
                settings.append((file.number, try await ntag.fileSettings(file.number)))
            }
            var versions: [UInt8] = []
            for key in 0..<UInt8(NTAG424DNATable.keyCount) { versions.append(try await ntag.keyVersion(key)) }
            let signature = try await ntag.verifyOriginality(uid: version.uid, publicKey: options.publicKey)
            let key = options.publicKey.map { $0.hexString() } ?? "ntag424dna"
            if printer.json {
                printer.document(
                    .object([
                        ("uid", .string(version.uid.hexString())), ("chip", .string(Chip.ntag424dna.rawValue)),
                        ("random_id", randomID ? .string(session.uid.hexString()) : .null),
                        (
                            "version",
                            .object([
                                ("hardware", .string(version.hardware.hexString())),
                                ("software", .string(version.software.hexString())),
                                ("production", .string(version.production.hexString())),
                            ])
                        ),
                        ("files", .array(settings.map { number, settings in fileJSON(number, settings) })),
                        ("key_versions", .array(versions.map { .int(Int($0)) })),
                        (
                            "signature",
                            .object([
                                ("signature", .string(signature.signature.hexString())),
                                ("valid", .bool(signature.verification.isValid)), ("key", .string(key)),
                            ])
                        ),
                    ]))
            } else {
                printer.line(
                    "Chip: NTAG 424 DNA (hardware \(version.hardware.hexString()), software \(version.software.hexString()))"
                )
                printer.line(
                    "UID: \(version.uid.hexString())"
                        + (randomID ? " (the tag shows the random ID \(session.uid.hexString()))" : ""))
                for (number, file) in settings { printer.line("File \(number): \(describe(file))") }
                printer.line(
                    "Key versions: "
                        + versions.enumerated().map { "key \($0.offset) v\($0.element)" }.joined(separator: ", "))
                printer.line("Signature: \(signature.verification) (\(signature.signature.hexString()))")
            }
        }
    }

    static func describe(_ file: NTAG424FileSettings) -> String {
        var text =
            "\(file.size) bytes, \(file.communicationMode), read \(file.read), write \(file.write), read-write \(file.readWrite), change \(file.change)"
        if let sdm = file.sdm {
            text += "; SDM: meta-read \(sdm.metaRead), file-read \(sdm.fileRead), counter \(sdm.counterRetrieval)"
            if let offset = sdm.piccDataOffset { text += ", PICC data at \(offset)" }
            if let offset = sdm.uidOffset { text += ", UID at \(offset)" }
            if let offset = sdm.readCounterOffset { text += ", counter at \(offset)" }
            if let offset = sdm.macOffset { text += ", MAC at \(offset)" }
            if let limit = sdm.readCounterLimit { text += ", read limit \(limit)" }
        }
        return text
    }

    static func fileJSON(_ number: UInt8, _ file: NTAG424FileSettings) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("file", .int(Int(number))), ("size", .int(file.size)), ("comm_mode", .string("\(file.communicationMode)")),
            ("read", .string("\(file.read)")), ("write", .string("\(file.write)")),
            ("read_write", .string("\(file.readWrite)")),
            ("change", .string("\(file.change)")),
        ]
        if let sdm = file.sdm {
            let offsets: [(String, Int?)] = [
                ("uid_offset", sdm.uidOffset), ("counter_offset", sdm.readCounterOffset),
                ("picc_data_offset", sdm.piccDataOffset), ("mac_input_offset", sdm.macInputOffset),
                ("mac_offset", sdm.macOffset),
            ]
            fields.append(
                (
                    "sdm",
                    .object(
                        [("meta_read", .string("\(sdm.metaRead)")), ("file_read", .string("\(sdm.fileRead)"))]
                            + offsets.compactMap { name, value in value.map { (name, JSONValue.int($0)) } })
                ))
        }
        return .object(fields)
    }

    // MARK: auth

    static func auth(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        let options = try parse(&parser, spec: authSpec)
        output.json = parser.globals.json
        if parser.helpRequested { return output.line(authSpec.help) }
        let number = try self.number(options, "--key-no", verb: "auth", range: 0...4) ?? 0
        let key = try self.key(options, "--key", verb: "auth") ?? .zero
        let printer = output
        try await withTag(parser.globals, verb: "auth") { ntag, _ throws(TagSessionError) in
            try await ntag.authenticate(keyNumber: number, key: key)
            if printer.json {
                printer.document(.object([("key_no", .int(Int(number))), ("authenticated", .bool(true))]))
            } else {
                printer.line("Key \(number): accepted (EV2 authentication)")
            }
        }
    }

    // MARK: change-key

    static func changeKey(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        let options = try parse(&parser, spec: changeKeySpec)
        output.json = parser.globals.json
        if parser.helpRequested { return output.line(changeKeySpec.help) }
        guard let number = try self.number(options, "--key-no", verb: "change-key", range: 0...4) else {
            throw .usage("nfctag ntag424 change-key: give --key-no N")
        }
        guard let newKey = try key(options, "--new-key", verb: "change-key") else {
            throw .usage("nfctag ntag424 change-key: give --new-key HEX32")
        }
        let authKey = try key(options, "--auth-key", verb: "change-key") ?? .zero
        let oldKey = try key(options, "--old-key", verb: "change-key")
        if number != 0, oldKey == nil {
            throw .usage("nfctag ntag424 change-key: changing key \(number) needs its current value: --old-key HEX32")
        }
        let version = try self.number(options, "--version", verb: "change-key", range: 0...255)
        let printer = output
        try await withTag(parser.globals, verb: "change-key") { ntag, _ throws(TagSessionError) in
            let old = number == 0 ? authKey : (oldKey ?? .zero)
            // The safe flow needs a version that differs from the current one: one more, unless given.
            let chosen: UInt8
            if let version {
                chosen = version
            } else {
                chosen = try await ntag.keyVersion(number) &+ 1
            }
            try await ntag.changeKeySafely(number, from: old, to: newKey, version: chosen, appMasterKey: authKey)
            if printer.json {
                printer.document(
                    .object([("key_no", .int(Int(number))), ("version", .int(Int(chosen))), ("verified", .bool(true))]))
            } else {
                printer.line("Key \(number) changed to version \(chosen); verified by authenticating with the new key")
            }
        }
    }

    // MARK: sun-setup

    static func sunSetup(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        let options = try parse(&parser, spec: sunSetupSpec)
        output.json = parser.globals.json
        if parser.helpRequested { return output.line(sunSetupSpec.help) }
        guard let uri = options.values["--uri"] else { throw .usage("nfctag ntag424 sun-setup: give --uri TEMPLATE") }
        let template: NTAG424SUNTemplate
        do { template = try NTAG424SUNTemplate(uri) } catch {
            throw .malformedInput("nfctag ntag424 sun-setup: \(error)")
        }
        let authKey = try environmentKey(options, "--auth-key-env", verb: "sun-setup") ?? .zero
        let metaKey = try environmentKey(options, "--meta-key-env", verb: "sun-setup") ?? .zero
        var macKey = try environmentKey(options, "--mac-key-env", verb: "sun-setup")
        let master = try environmentKey(options, "--master-key-env", verb: "sun-setup")
        let diversify = options.flags.contains("--diversify")
        if diversify != (master != nil) {
            throw .usage("nfctag ntag424 sun-setup: --diversify goes with --master-key-env VAR")
        }
        if diversify, macKey != nil {
            throw .usage("nfctag ntag424 sun-setup: --mac-key-env and --diversify exclude each other")
        }
        let printer = output
        try await withTag(parser.globals, verb: "sun-setup") { ntag, session throws(TagSessionError) in
            if let master {
                do { macKey = try KeyDiversification.sunMACKey(masterKey: master, uid: session.uid) } catch {
                    throw .command(
                        operation: .ntag424SUNSetup, .invalidArgument("cannot diversify the MAC key: \(error)"))
                }
            }
            let keys = NTAG424SUNKeys(appMasterKey: authKey, metaReadKey: metaKey, fileReadKey: macKey ?? .zero)
            let settings = try await ntag.setUpSUN(template, keys: keys)
            if printer.json {
                printer.document(
                    .object([
                        ("uid", .string(session.uid.hexString())), ("layout", .string(template.layout.name)),
                        ("url", .string(template.writtenURL)), ("diversified", .bool(diversify)),
                        ("file", fileJSON(NTAG424DNATable.ndefFileNumber, settings)),
                    ]))
            } else {
                printer.line(
                    "SUN set up (\(template.layout.name)) on \(session.uid.hexString()): \(template.writtenURL)")
                printer.line("NDEF file: \(describe(settings))")
            }
        }
    }
}

import NFCTagKit

/// `nfctag ntag424 sun-verify URL …`: checks a Secure Unique NFC URL with ``SUNVerifier``,
/// without a reader. Exit 0 valid, 1 invalid (also a counter not above `--last-counter`),
/// 2 malformed URL or options.
enum SUNVerifyCommand {
    static func run(_ parser: inout ArgumentParser, output: inout Output) throws(ToolError) {
        var url: String?
        var metaKey: AES128Key?
        var macKey: AES128Key?
        var masterKey: AES128Key?
        var diversify = false
        var names = SUNVerifier.ParameterNames()
        var lastCounter: UInt32?
        while let argument = try parser.next(of: spec) {
            let token = argument.token
            switch token {
            case "--key": metaKey = try key(argument.value, option: token)
            case "--mac-key": macKey = try key(argument.value, option: token)
            case "--master-key": masterKey = try key(argument.value, option: token)
            case "--diversify": diversify = true
            case "--picc-param": names.piccData = try parameterName(argument.value, option: token)
            case "--uid-param": names.uid = try parameterName(argument.value, option: token)
            case "--counter-param": names.counter = try parameterName(argument.value, option: token)
            case "--cmac-param": names.cmac = try parameterName(argument.value, option: token)
            case "--last-counter":
                let text = argument.value
                guard let value = UInt32(text), value <= 0xFF_FFFF else {
                    throw .usage("nfctag ntag424 sun-verify: --last-counter takes a number 0…16777215, not '\(text)'")
                }
                lastCounter = value
            default:
                guard url == nil, argument.option == nil else { throw spec.unknown(token) }
                url = token
            }
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        guard let url else {
            throw .usage(
                "nfctag ntag424 sun-verify: give the URL the tag wrote", "Run 'nfctag ntag424 sun-verify --help'.")
        }
        if diversify != (masterKey != nil) {
            throw .usage(
                "nfctag ntag424 sun-verify: --master-key and --diversify go together",
                "The MAC key is then derived per tag from the master key and the UID (AN10922).")
        }
        if masterKey != nil, macKey != nil {
            throw .usage("nfctag ntag424 sun-verify: give --mac-key or --master-key --diversify, not both")
        }

        let meta = metaKey ?? .zero
        let source: SUNVerifier.MACKey = masterKey.map { .diversified(masterKey: $0) } ?? .key(macKey ?? meta)
        let verifier = SUNVerifier(metaReadKey: meta, macKey: source, parameters: names)
        let result: SUNVerification
        do {
            result = try verifier.verify(url: url, lastCounter: lastCounter)
        } catch {
            throw .malformedInput(
                "nfctag ntag424 sun-verify: malformed SUN URL: \(error)",
                "Expected …?\(names.piccData)=HEX32&\(names.cmac)=HEX16 or …?\(names.uid)=HEX14&\(names.counter)=HEX6&\(names.cmac)=HEX16."
            )
        }

        if output.json {
            var fields: [(String, JSONValue)] = [("valid", .bool(result.isValid))]
            if let uid = result.uid { fields.append(("uid", .string(uid.hexString()))) }
            if let counter = result.counter { fields.append(("counter", .int(Int(counter)))) }
            fields.append(("mode", .string(result.mode.name)))
            if let rejection = result.rejection { fields.append(("reason", .string(rejection.description))) }
            output.document(.object(fields))
        } else {
            var parts = [result.isValid ? "valid" : "invalid"]
            if let uid = result.uid { parts.append("UID \(uid.hexString())") }
            if let counter = result.counter { parts.append("counter \(counter)") }
            output.line(parts.joined(separator: "  "))
        }
        if let rejection = result.rejection {
            throw ToolError(exitCode: .failure, summary: "nfctag ntag424 sun-verify: not valid: \(rejection)")
        }
    }

    private static func key(_ text: String, option: String) throws(ToolError) -> AES128Key {
        guard let bytes = Hex.decode(text), let key = try? AES128Key(bytes) else {
            throw .usage("nfctag ntag424 sun-verify: \(option) takes an AES-128 key, 32 hex digits")
        }
        return key
    }

    private static func parameterName(_ text: String, option: String) throws(ToolError) -> String {
        guard !text.isEmpty, !text.contains(where: { "&=?#".contains($0) }) else {
            throw .usage("nfctag ntag424 sun-verify: \(option) takes a query parameter name, not '\(text)'")
        }
        return text
    }

    static let spec = CommandSpec(
        "ntag424 sun-verify", "check a Secure Unique NFC URL from an NTAG 424 DNA (no reader)", operands: "URL",
        options: [
            OptionSpec(
                "--key", value: "HEX32", help: "the SDM meta-read key, which decrypts the PICC data (default all zero)"),
            OptionSpec(
                "--mac-key", value: "HEX32", help: "the SDM file-read key, which keys the CMAC (default: --key)"),
            OptionSpec(
                "--master-key", value: "HEX32",
                help: "with --diversify: the file-read key is derived per tag from it and the UID (AN10922)"),
            OptionSpec("--diversify", help: "derive the file-read key from --master-key"),
            OptionSpec("--picc-param", value: "NAME", help: "the PICC data parameter (default picc_data)"),
            OptionSpec("--uid-param", value: "NAME", help: "the UID parameter (default uid)"),
            OptionSpec("--counter-param", value: "NAME", help: "the counter parameter (default ctr)"),
            OptionSpec("--cmac-param", value: "NAME", help: "the CMAC parameter (default cmac)"),
            OptionSpec(
                "--last-counter", value: "N",
                help: "the last counter accepted for this tag: one not above it is a replay"),
        ],
        discussion: """
            The URL has one of the two layouts sun-setup writes:
              encrypted  …?picc_data=HEX32&cmac=HEX16          (UID and counter encrypted)
              plain      …?uid=HEX14&ctr=HEX6&cmac=HEX16       (UID and counter in the clear)
            The CMAC covers the empty input (SDMMACInputOffset = SDMMACOffset).
            With --json: {"valid":true,"uid":HEX,"counter":N,"mode":"encrypted"} (and "reason" when not valid).

            Exit status: 0 valid, 1 not valid (altered, another key, replay), 2 malformed URL or options.

            Example (NXP AN12196's example URL):
              nfctag ntag424 sun-verify 'https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086' \\
                  --picc-param e --cmac-param c
            """)
}

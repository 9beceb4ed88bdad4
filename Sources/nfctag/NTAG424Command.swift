import NFCTagKit

/// `nfctag ntag424 VERB …`: NTAG 424 DNA. The verbs that need no reader live here too
/// (`sun-verify`); each verb has its own file.
enum NTAG424Command {
    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        let verb = try parser.nextCommandWord()
        output.json = parser.globals.json
        switch verb {
        case "sun-verify":
            try SUNVerifyCommand.run(&parser, output: &output)
        case "info":
            try await NTAG424TagCommands.info(&parser, output: &output)
        case "auth":
            try await NTAG424TagCommands.auth(&parser, output: &output)
        case "change-key":
            try await NTAG424TagCommands.changeKey(&parser, output: &output)
        case "sun-setup":
            try await NTAG424TagCommands.sunSetup(&parser, output: &output)
        case nil where parser.helpRequested:
            output.line(help)
        default:
            throw .usage(
                verb.map { "nfctag ntag424: unknown verb '\($0)'" }
                    ?? "nfctag ntag424: say which verb, e.g. sun-verify",
                "Run 'nfctag ntag424 --help' for the verbs.")
        }
    }

    static let help = """
        nfctag ntag424 — NTAG 424 DNA: secure messaging, SUN (Secure Unique NFC) messages

        Usage:
          nfctag ntag424 sun-verify URL [options]   check a SUN URL (no reader needed)
          nfctag ntag424 info                      version, UID, file settings, key versions, signature
          nfctag ntag424 auth --key-no N --key HEX32   EV2 authentication check
          nfctag ntag424 change-key …              change a key safely (plan, version, verification)
          nfctag ntag424 sun-setup --uri TEMPLATE  write the SUN URL and its SDM settings

        Run 'nfctag ntag424 VERB --help' for a verb's options.
        """
}

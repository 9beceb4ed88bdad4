import NFCTagKit

/// `nfctag felica VERB …`: FeliCa cards by Polling, their services, and Read / Write
/// Without Encryption by service and block (cli.md). Each verb waits up to `--timeout` for a
/// card that answers Polling for `--system-code` (any system without it).
enum FeliCaCommand {
    static let systemCode = OptionSpec(
        "--system-code", value: "HEX4", help: "poll for this system (default ffff: the card's first)")
    static let service = OptionSpec("--service", value: "HEX4", help: "the service code, as the card names it (000b)")

    static let specs: [String: CommandSpec] = [
        "poll": CommandSpec(
            "felica poll", "the FeliCa card in the field: IDm, PMm, system codes",
            options: [
                systemCode,
                OptionSpec("--request-code", value: "N", help: "0 none, 1 system code, 2 communication performance"),
                OptionSpec("--time-slots", value: "N", help: "0, 1, 3, 7 or 15"),
            ],
            discussion: """
                Polls at 212 kbit/s, then asks the card which systems it has (Request System
                Code; a FeliCa Lite-S has no such command: its systems are those it answers
                Polling for). With --json: {"idm","pmm","ic","system_codes","request_data"}.

                Example:
                  nfctag --device emulator:felica-standard felica poll --json
                """),
        "services": CommandSpec(
            "felica services", "the areas and services of a system", options: [systemCode],
            discussion: """
                Walks the system with Search Service Code. A card without it (FeliCa Lite and
                Lite-S) is asked Request Service over the NFC Forum services instead, and says
                which it has. With --json: {"areas":[{"code","end"}],"services":[HEX4…]}.

                Example:
                  nfctag --device emulator:felica-standard felica services --system-code 8008
                """),
        "read": CommandSpec(
            "felica read", "Read Without Encryption of blocks of a service",
            options: [
                service, OptionSpec("--blocks", value: "N[,N…]", help: "block numbers, decimal"), systemCode,
                OptionSpec("--mac", help: "FeliCa Lite / Lite-S: read with the card's MAC, checked"),
                OptionSpec("--card-key", value: "HEX32", help: "the card key the MAC is checked with (default: zeros)"),
            ],
            discussion: """
                Reads the blocks a few a command (four on a FeliCa Lite-S, eight otherwise).
                With --mac the card first proves it holds the card key, then sends its MAC with
                every three blocks of the NDEF service (000b); a MAC that does not check exits 1.
                A refusal names the card's status flags. With --json: {"blocks":[HEX…],"mac":BOOL}.

                Example:
                  nfctag --device emulator:felica-lite-s felica read --service 000b --blocks 0,1
                """),
        "write": CommandSpec(
            "felica write", "Write Without Encryption of one block",
            options: [
                service, OptionSpec("--block", value: "N", help: "the block number, decimal"),
                OptionSpec("--hex", value: "HEX32", help: "the 16 bytes to write"), systemCode,
                OptionSpec("--mac", help: "FeliCa Lite-S: write with MAC_A, which the card checks"),
                OptionSpec("--card-key", value: "HEX32", help: "the card key of the MAC (default: zeros)"),
            ],
            discussion: """
                Writes one block through a read-write service (its code ends in 9) and reads
                it back. With --mac (a FeliCa Lite-S, service 0009) the card first proves it
                holds the card key, then takes the block only with a MAC_A that proves the
                reader holds it too; the block is read back with the card's MAC (not RC and
                CK, which cannot be read). Block 146 (STATE) with 01 is the mutual
                authentication. With --json: {"block": N, "written": HEX, "mac": BOOL}.

                Examples:
                  nfctag --device emulator:felica-lite-s felica write --service 0009 --block 5 --hex 000102030405060708090a0b0c0d0e0f
                  nfctag --device emulator:felica-lite-s felica write --mac --service 0009 --block 146 --hex 01000000000000000000000000000000
                """),
    ]

    /// The verbs in the order the help lists them.
    static let verbs = ["poll", "services", "read", "write"]

    static let help = CommandSpec.familyHelp(
        "felica", title: "FeliCa cards: Polling, services, Read and Write Without Encryption", verbs: verbs,
        specs: specs)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        guard
            let (verb, spec) = try parser.verb(of: "felica", specs: specs, help: help, example: "poll", output: &output)
        else { return }
        let values = try parser.optionValues(of: spec)
        output.json = parser.globals.json
        if parser.helpRequested { return output.line(spec.help) }
        let verbs = FeliCaVerbs(verb: verb, values: values, globals: parser.globals, output: output)
        try await verbs.run()
    }
}

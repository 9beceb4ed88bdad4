#if canImport(Glibc)
import Glibc
#endif
import NFCTagKit

/// `nfctag desfire VERB …`: MIFARE DESFire EV1 / EV2 / EV3 (cli.md). Each verb connects to
/// the one card in the field, selects `--app` (the PICC without it), authenticates when the
/// verb needs it, and reports DESFire refusals by name and step.
enum DESFireCommand {
    /// The options of a verb, as given.
    struct Options {
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var operands: [String] = []
    }

    static let common: [OptionSpec] = [
        OptionSpec("--app", value: "AID", help: "the application, 6 hex digits as NXP prints them (default: the PICC)"),
        OptionSpec("--auth-key", value: "HEX", help: "the key to authenticate with (default: all zero)"),
        OptionSpec("--auth-key-env", value: "VAR", help: "the key to authenticate with, from $VAR"),
        OptionSpec("--auth-key-no", value: "N", help: "its number (default 0)"),
        OptionSpec(
            "--auth-crypto", value: "C", help: "its cipher: des, 2k3des, 3k3des, aes (default: the application's)"),
    ]

    static func spec(_ verb: String, _ title: String, operands: String = "", _ options: [OptionSpec], _ example: String)
        -> CommandSpec
    {
        CommandSpec(
            "desfire \(verb)", title, operands: operands, options: options + common,
            discussion: """
                AIDs are 6 hex digits, most significant first; keys are hex (8, 16, 24 or 16
                bytes for des, 2k3des, 3k3des, aes).

                Example:
                  \(example)
                """)
    }

    static let specs: [String: CommandSpec] = [
        "info": spec(
            "info", "version, generation, storage, free memory, applications, key settings, signature",
            [OptionSpec("--public-key", value: "HEX", help: "verify Read_Sig against this key")],
            "nfctag --device emulator:desfire-ev3 desfire info --json"),
        "apps": spec("apps", "application IDs with their DF names", [], "nfctag desfire apps"),
        "files": spec(
            "files", "the files of an application with their settings", [], "nfctag desfire files --app 000001"),
        "create-app": spec(
            "create-app", "create an application (PICC master key)", operands: "AID",
            [
                OptionSpec("--keys", value: "N", help: "how many keys, 1–14"),
                OptionSpec("--crypto", value: "C", help: "the application's cipher: des, 2k3des, 3k3des, aes"),
                OptionSpec("--settings", value: "HEX2", help: "key settings (default 0f)"),
                OptionSpec("--iso-fid", value: "HEX4", help: "an ISO file ID"),
                OptionSpec("--df-name", value: "HEX", help: "an ISO DF name (with --iso-fid)"),
            ], "nfctag desfire create-app 123456 --keys 2 --crypto aes"),
        "delete-app": spec(
            "delete-app", "delete an application (PICC master key)", operands: "AID", [],
            "nfctag desfire delete-app 123456"),
        "create-file": spec(
            "create-file", "create a file in an application",
            [
                OptionSpec("--file", value: "N", help: "the file number"),
                OptionSpec("--type", value: "T", help: "std, backup, value, linear, cyclic"),
                OptionSpec("--size", value: "N", help: "a data file's size"),
                OptionSpec("--record-size", value: "N", help: "a record file's record size"),
                OptionSpec("--records", value: "N", help: "a record file's record count"),
                OptionSpec("--lower", value: "N", help: "a value file's lower limit"),
                OptionSpec("--upper", value: "N", help: "a value file's upper limit"),
                OptionSpec("--value", value: "N", help: "a value file's value"),
                OptionSpec("--comm", value: "M", help: "plain, mac, full"),
                OptionSpec("--access", value: "R,W,RW,C", help: "key numbers, e free, f never"),
            ], "nfctag desfire create-file --app 123456 --file 1 --type std --size 32 --comm full --access 1,1,1,0"),
        "read": spec(
            "read", "read a data file in the mode its settings require",
            [
                OptionSpec("--file", value: "N", help: "the file number"),
                OptionSpec("--offset", value: "N", help: "from this byte"),
                OptionSpec("--length", value: "N", help: "this many bytes"),
            ], "nfctag desfire read --app 123456 --file 1"),
        "write": spec(
            "write", "write a data file (a backup file is committed)",
            [
                OptionSpec("--file", value: "N", help: "the file number"),
                OptionSpec("--offset", value: "N", help: "from this byte"),
                OptionSpec("--hex", value: "HEX", help: "the data"),
            ], "nfctag desfire write --app 123456 --file 1 --hex 48656c6c6f"),
        "value": spec(
            "value", "read a value file, or credit / debit it (committed)",
            [
                OptionSpec("--file", value: "N", help: "the file number"),
                OptionSpec("--credit", value: "N", help: "add N"),
                OptionSpec("--debit", value: "N", help: "subtract N"),
                OptionSpec("--limited-credit", value: "N", help: "add back at most the last debit"),
            ], "nfctag desfire value --app 123456 --file 2 --credit 10"),
        "records": spec(
            "records", "read a record file, append a record or clear it (committed)",
            [
                OptionSpec("--file", value: "N", help: "the file number"),
                OptionSpec("--append", value: "HEX", help: "a record to write"),
                OptionSpec("--clear", help: "empty the file"),
            ], "nfctag desfire records --app 123456 --file 3 --append 0102"),
        "commit": spec("commit", "CommitTransaction in the application", [], "nfctag desfire commit --app 123456"),
        "abort": spec("abort", "AbortTransaction in the application", [], "nfctag desfire abort --app 123456"),
        "auth": spec(
            "auth", "check a key: exit 0 accepted, 1 refused",
            [
                OptionSpec("--key-no", value: "N", help: "the key number (default 0)"),
                OptionSpec("--key", value: "HEX", help: "the key (default all zero)"),
                OptionSpec("--crypto", value: "C", help: "its cipher (default: the application's)"),
            ], "nfctag desfire auth --app 123456 --key-no 1 --key 00112233445566778899aabbccddeeff --crypto aes"),
        "change-key": spec(
            "change-key", "change a key, proved before and after",
            [
                OptionSpec("--key-no", value: "N", help: "the key to change"),
                OptionSpec("--old-key", value: "HEX", help: "its current value (when it is not the one authenticated)"),
                OptionSpec("--new-key", value: "HEX", help: "its new value"),
                OptionSpec("--new-crypto", value: "C", help: "the new key's cipher (default: the old one's)"),
                OptionSpec(
                    "--key-version", value: "V",
                    help: "the new key's version (default: the current one plus 1; never the current one)"),
                OptionSpec("--yes", help: "really change the PICC master key"),
            ], "nfctag desfire change-key --app 123456 --key-no 1 --old-key 00… --new-key 11…"),
        "key-settings": spec(
            "key-settings", "show the key settings, or change them (a dry run unless --yes)",
            [
                OptionSpec("--set", value: "HEX2", help: "the new settings byte"),
                OptionSpec("--yes", help: "really change them"),
                OptionSpec(
                    "--yes-irreversible",
                    help: "also settings without 08 (configuration changeable), which can never change again"),
            ], "nfctag desfire key-settings --app 123456"),
        "set-config": spec(
            "set-config", "card configuration: random UID (irreversible), default key, ATS (a dry run unless --yes)",
            [
                OptionSpec("--random-uid", help: "show a random UID from the next activation on, FOR GOOD"),
                OptionSpec("--default-key", value: "HEX", help: "the key new applications get"),
                OptionSpec("--crypto", value: "C", help: "the default key's cipher (default des)"),
                OptionSpec("--key-version", value: "V", help: "the default key's version (default 0)"),
                OptionSpec("--ats", value: "HEX", help: "the ATS, its length byte first"),
                OptionSpec("--yes", help: "really change the card"),
            ], "nfctag desfire set-config --ats 067577810280 --yes"),
        "format": spec(
            "format", "FormatPICC: every application and file is gone (needs --yes)",
            [OptionSpec("--yes", help: "really wipe the card")], "nfctag desfire format --yes"),
    ]

    static let verbs = [
        "info", "apps", "files", "create-app", "delete-app", "create-file", "read", "write", "value",
        "records", "commit", "abort", "auth", "change-key", "key-settings", "set-config", "format",
    ]

    static let help = """
        nfctag desfire — MIFARE DESFire EV1, EV2, EV3: applications, files, keys

        Usage:
        \(verbs.compactMap { specs[$0] }.map { OptionSpec($0.name + ($0.operands.isEmpty ? "" : " " + $0.operands), help: $0.title).tableLine }.joined(separator: "\n"))

        Run 'nfctag desfire VERB --help' for a verb's options.
        """

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        guard
            let (verb, spec) = try parser.verb(
                of: "desfire", specs: specs, help: help, example: "info", output: &output)
        else { return }
        var options = Options()
        while let argument = try parser.next(of: spec) {
            guard let option = argument.option else {
                options.operands.append(argument.token)
                continue
            }
            guard let declared = spec.option(named: option) else { throw spec.unknown(argument.token) }
            if declared.value != nil {
                options.values[option] = argument.value
            } else {
                options.flags.insert(option)
            }
        }
        output.json = parser.globals.json
        if parser.helpRequested { return output.line(spec.help) }
        try await DESFireVerbs(verb: verb, options: options, globals: parser.globals, output: output).run()
    }
}

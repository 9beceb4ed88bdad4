/// The tool's help, and the prose the commands' helps share; each command's own help comes
/// from its ``CommandSpec``.
enum HelpText {
    /// Every command, as the tool's help lists it and the tests check it.
    static let commands: [CommandSpec] =
        [
            NDEFCommand.encodeSpec, NDEFCommand.decodeSpec, ReadersCommand.spec, MonitorCommand.spec, ResetCommand.spec,
            EmulateCommand.spec, ScanCommand.spec, InfoCommand.spec, ReadCommand.spec, WriteCommand.spec,
            LockCommand.spec,
            FormatCommand.spec, ProtectCommand.spec, UnprotectCommand.spec, CounterCommand.spec, SignatureCommand.spec,
            DumpCommand.spec, RestoreCommand.spec, RawCommand.spec, APDUCommand.spec, ProvisionCommand.spec,
            ReportCommand.spec, NTAG424TagCommands.infoSpec, NTAG424TagCommands.authSpec,
            NTAG424TagCommands.changeKeySpec, NTAG424TagCommands.sunSetupSpec, SUNVerifyCommand.spec,
        ] + DESFireCommand.verbs.compactMap { DESFireCommand.specs[$0] }
        + FeliCaCommand.verbs.compactMap { FeliCaCommand.specs[$0] }
        + ST25TBCommand.verbs.compactMap { ST25TBCommand.specs[$0] }

    /// `  name OPERANDS   title`, a line per command.
    private static var commandTable: String {
        commands.map { command in
            let synopsis = command.name + (command.operands.isEmpty ? "" : " " + command.operands)
            return OptionSpec(synopsis, help: command.title).tableLine
        }.joined(separator: "\n")
    }

    static let tool = """
        nfctag — NFC readers and tags on Linux (NFCTagKit)

        Usage: nfctag [global options] COMMAND [options]

        Commands:
        \(commandTable)

        Global options (before or after the command):
        \(OptionSpec.table(GlobalOptions.specs).joined(separator: "\n"))

        --option=value is --option value; after -- every argument is positional, even one
        that starts with -; an option without its value is a usage error.

        Exit codes: 0 success · 1 failed · 2 usage or malformed input · 3 no reader
                    4 no tag in time · 5 more than one tag in the field
                    130 / 143 / 129 stopped by SIGINT / SIGTERM / SIGHUP

        Examples:
          nfctag ndef encode --uri https://example.com
          nfctag ndef decode d1010c55046578616d706c652e636f6d --json
          nfctag write --uri https://example.com
        """

    static let ndef = """
        nfctag ndef — encode and decode NDEF messages (no reader needed)

        Usage:
          nfctag ndef encode RECORD…
          nfctag ndef decode HEX|-

        Run 'nfctag ndef encode --help' or 'nfctag ndef decode --help' for details.

        Examples:
          nfctag ndef encode --uri https://example.com
          nfctag ndef decode d1010c55046578616d706c652e636f6d --json
        """

    static let tagCommon = """
        With one tag in the field only: no tag within --timeout exits 4, two or more exit 5
        (nothing is read or written). --password HEX8 (or --password-env VAR) authenticates
        with PWD_AUTH first; --pack HEX4 checks the tag's answer to it.
        A failure exits 1 with the step (page in hex) and what the tag holds now.
        """

    static let chipCommon = """
        With one tag in the field only: no tag within --timeout exits 4, two or more exit 5
        (nothing is sent to any tag). --password HEX8 (or --password-env VAR) authenticates
        with PWD_AUTH first; --pack HEX4 checks the tag's answer to it.
        A failure exits 1 with the step and the tag's state.
        """

}

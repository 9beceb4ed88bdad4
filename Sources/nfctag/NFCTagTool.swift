#if canImport(Glibc)
import Glibc
#endif

/// Entry point: splits global options from the subcommand, dispatches, and turns
/// every error into the contract's exit code and a first line a person understands.
enum NFCTagTool {
    static func run(arguments: [String]) async -> ExitCode {
        var output = Output()
        do {
            var parser = ArgumentParser(arguments)
            let name = try parser.nextCommandWord()
            output.json = parser.globals.json
            guard let name else {
                if parser.helpRequested || arguments.isEmpty {
                    output.line(HelpText.tool)
                    return arguments.isEmpty ? .usage : .success
                }
                throw ToolError.usage("nfctag: no command given", "Run 'nfctag --help' for the list of commands.")
            }
            switch name {
            case "help", "--help", "-h":
                output.line(HelpText.tool)
            case "ndef":
                try NDEFCommand.run(&parser, output: &output)
            case "readers":
                try await ReadersCommand.run(&parser, output: &output)
            case "monitor":
                try await MonitorCommand.run(&parser, output: &output)
            case "reset":
                try await ResetCommand.run(&parser, output: &output)
            case "protect":
                try await ProtectCommand.run(&parser, output: &output)
            case "unprotect":
                try await UnprotectCommand.run(&parser, output: &output)
            case "counter":
                try await CounterCommand.run(&parser, output: &output)
            case "signature":
                try await SignatureCommand.run(&parser, output: &output)
            case "dump":
                try await DumpCommand.run(&parser, output: &output)
            case "restore":
                try await RestoreCommand.run(&parser, output: &output)
            case "raw":
                try await RawCommand.run(&parser, output: &output)
            case "apdu":
                try await APDUCommand.run(&parser, output: &output)
            case "emulate":
                try await EmulateCommand.run(&parser, output: &output)
            case "scan":
                try await ScanCommand.run(&parser, output: &output)
            case "info":
                try await InfoCommand.run(&parser, output: &output)
            case "read":
                try await ReadCommand.run(&parser, output: &output)
            case "write":
                try await WriteCommand.run(&parser, output: &output)
            case "lock":
                try await LockCommand.run(&parser, output: &output)
            case "format":
                try await FormatCommand.run(&parser, output: &output)
            case "provision":
                try await ProvisionCommand.run(&parser, output: &output)
            case "report":
                try ReportCommand.run(&parser, output: &output)
            case "ntag424":
                try await NTAG424Command.run(&parser, output: &output)
            case "desfire":
                try await DESFireCommand.run(&parser, output: &output)
            case "felica":
                try await FeliCaCommand.run(&parser, output: &output)
            case "st25tb":
                try await ST25TBCommand.run(&parser, output: &output)
            default:
                throw ToolError.usage(
                    "nfctag: unknown command '\(name)'",
                    "Run 'nfctag --help' for the list of commands.")
            }
            return .success
        } catch let error as ToolError {
            output.error(error)
            return error.exitCode
        } catch {
            output.error(ToolError(exitCode: .failure, summary: "nfctag: \(error)"))
            return .failure
        }
    }
}

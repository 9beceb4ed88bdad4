import NFCTagKit

/// `nfctag lock --yes [--force]`: makes the tag's NDEF data permanently read-only. Refuses
/// without `--yes` (exit 2). Reads the message back first and locks only when it reads
/// and verifies; `--force` locks without that check.
enum LockCommand {
    static let spec = CommandSpec(
        "lock", "make the tag's NDEF data permanently read-only", operands: "--yes",
        options: [
            OptionSpec("--yes", help: "confirm: THIS CANNOT BE UNDONE (without it nothing happens)"),
            OptionSpec("--force", help: "lock even when the message on the tag does not read"),
        ] + TagOptions.specs,
        discussion: """
            THIS CANNOT BE UNDONE. Without --yes nothing happens (exit 2). The message on the
            tag is read back and verified first; a tag whose message does not read is not
            locked (--force locks it anyway). Sets the CC write access, then the static and
            the dynamic lock bits.
            \(HelpText.tagCommon)

            Examples:
              nfctag lock --yes
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var options = TagOptions()
        var confirmed = false
        var force = false
        while let argument = try parser.next(of: spec) {
            if try options.consume(argument) { continue }
            switch argument.option {
            case "--yes": confirmed = true
            case "--force": force = true
            default: throw spec.unknown(argument.token)
            }
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        guard confirmed else {
            throw .usage(
                "nfctag lock: locking is permanent — add --yes to confirm",
                "The tag's NDEF data can never be written again afterwards.")
        }
        let printer = output
        try await TagSelection.withSingleTag(parser.globals, options: options, command: "lock") {
            connection, tag throws(ToolError) in
            var records = 0
            do throws(NDEFSessionError) {
                if !force { records = try await tag.readNDEF().records.count }
                try await tag.writeLock(force: force)
            } catch {
                throw TagSelection.failure(error, operation: "lock", chip: tag.chip)
            }
            if printer.json {
                printer.document(
                    .object([
                        ("uid", .string(tag.uid.hexString())), ("chip", .string(connection.detected.chipName)),
                        ("locked", .bool(true)), ("verified", .bool(!force)),
                    ]))
            } else {
                let what = force ? "" : " (message of \(records) record\(records == 1 ? "" : "s") verified first)"
                printer.line("Locked \(connection.detected.chipName) \(tag.uid.hexString()) permanently\(what)")
            }
        }
    }
}

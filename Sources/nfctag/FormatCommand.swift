import NFCTagKit

/// `nfctag format [--force]`: writes an empty NDEF structure (CC and empty NDEF TLV) to a
/// blank tag. A tag already holding NDEF is refused unless `--force`.
enum FormatCommand {
    static let spec = CommandSpec(
        "format", "write an empty NDEF structure to a blank tag",
        options: [OptionSpec("--force", help: "erase the message of a tag that already holds NDEF")] + TagOptions.specs,
        discussion: """
            Writes the capability container and an empty NDEF message. A tag that already
            holds NDEF is refused; --force erases its message.
            \(HelpText.tagCommon)

            Examples:
              nfctag format
              nfctag format --force --json
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var options = TagOptions()
        var force = false
        while let argument = try parser.next(of: spec) {
            if try options.consume(argument) { continue }
            guard argument.option == "--force" else { throw spec.unknown(argument.token) }
            force = true
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        let printer = output
        try await TagSelection.withSingleTag(parser.globals, options: options, command: "format") {
            connection, tag throws(ToolError) in
            let status: NDEFStatus
            do throws(NDEFSessionError) {
                guard let handle = tag as? any NFCTagHandle else {
                    throw .unsupportedTag(reason: "\(connection.detected.chipName) has no NDEF format")
                }
                try await handle.format(force: force)
                status = try await tag.queryNDEFStatus()
            } catch {
                throw TagSelection.failure(error, operation: "format", chip: tag.chip)
            }
            if printer.json {
                printer.document(
                    .object([
                        ("uid", .string(tag.uid.hexString())), ("chip", .string(connection.detected.chipName)),
                        ("formatted", .bool(true)), ("ndef", TagRendering.json(status)),
                    ]))
            } else {
                printer.line(
                    "Formatted \(connection.detected.chipName) \(tag.uid.hexString()): \(TagRendering.line(status))")
            }
        }
    }
}

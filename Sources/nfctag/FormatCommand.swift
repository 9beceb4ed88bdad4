import NFCTagKit

/// `nfctag format [--force]`: writes an empty NDEF structure (CC and empty NDEF TLV) to a
/// blank tag. A tag already holding NDEF is refused unless `--force`.
enum FormatCommand {
    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var options = TagOptions()
        var force = false
        while let token = parser.nextToken() {
            if try parser.consumeGlobal(token) { continue }
            if try options.consume(token, from: &parser) { continue }
            guard token == "--force" else {
                throw .usage("nfctag format: unknown option '\(token)'", "Run 'nfctag format --help'.")
            }
            force = true
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(HelpText.format)
            return
        }
        let printer = output
        try await TagSelection.withSingleTag(parser.globals, options: options, command: "format") {
            tag throws(ToolError) in
            let status: NDEFStatus
            do throws(NDEFSessionError) {
                try await tag.format(force: force)
                status = try await tag.queryNDEFStatus()
            } catch {
                throw TagSelection.failure(error, operation: "format", chip: tag.chip)
            }
            if printer.json {
                printer.document(
                    .object([
                        ("uid", .string(tag.uid.hexString())), ("chip", .string(tag.detected.chipName)),
                        ("formatted", .bool(true)), ("ndef", TagRendering.json(status)),
                    ]))
            } else {
                printer.line("Formatted \(tag.detected.chipName) \(tag.uid.hexString()): \(TagRendering.line(status))")
            }
        }
    }
}

import NFCTagKit

/// `nfctag read`: the NDEF message of the one tag in the field; `--json` prints
/// `{"uid","chip","length","records":[…]}` (records as `ndef decode --json`).
enum ReadCommand {
    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var options = TagOptions()
        while let token = parser.nextToken() {
            if try parser.consumeGlobal(token) { continue }
            if try options.consume(token, from: &parser) { continue }
            throw .usage("nfctag read: unknown option '\(token)'", "Run 'nfctag read --help'.")
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(HelpText.read)
            return
        }
        let printer = output
        try await TagSelection.withSingleTag(parser.globals, options: options, command: "read") {
            tag throws(ToolError) in
            let message: NDEFMessage
            do throws(NDEFSessionError) {
                message = try await tag.readNDEF()
            } catch {
                throw TagSelection.failure(error, operation: "read", chip: tag.chip)
            }
            let length = (try? message.encoded().count) ?? 0
            if printer.json {
                printer.document(
                    .object([
                        ("uid", .string(tag.uid.hexString())), ("chip", .string(tag.detected.chipName)),
                        ("length", .int(message.records.isEmpty ? 0 : length)),
                        ("records", .array(message.records.map(RecordRendering.json))),
                    ]))
            } else {
                let noun = message.records.count == 1 ? "record" : "records"
                printer.line(
                    "\(tag.uid.hexString()) \(tag.detected.chipName): NDEF message, \(message.records.count) \(noun), \(message.records.isEmpty ? 0 : length) bytes"
                )
                for line in RecordRendering.lines(message.records, indent: "  ") { printer.line(line) }
            }
        }
    }
}

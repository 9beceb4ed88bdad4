import NFCTagKit

/// `nfctag read`: the NDEF message of the one tag in the field; `--json` prints
/// `{"uid","chip","length","records":[…]}` (records as `ndef decode --json`).
enum ReadCommand {
    static let spec = CommandSpec(
        "read", "the NDEF message of the tag",
        options: TagOptions.specs,
        discussion: """
            Prints the records; --json prints {"uid","chip","length","records":[…]} with the
            records as 'ndef decode --json' shows them. A torn or corrupt message exits 1 and
            names the byte address (write a new message to repair it).
            \(HelpText.tagCommon)

            Examples:
              nfctag read
              nfctag read --json | jq -r '.records[0].uri'
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var options = TagOptions()
        while let argument = try parser.next(of: spec) {
            let token = argument.token
            if try options.consume(argument) { continue }
            throw spec.unknown(token)
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        let printer = output
        try await TagSelection.withSingleTag(parser.globals, options: options, command: "read") {
            connection, tag throws(ToolError) in
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
                        ("uid", .string(tag.uid.hexString())), ("chip", .string(connection.detected.chipName)),
                        ("length", .int(message.records.isEmpty ? 0 : length)),
                        ("records", .array(message.records.map(RecordRendering.json))),
                    ]))
            } else {
                let noun = message.records.count == 1 ? "record" : "records"
                printer.line(
                    "\(tag.uid.hexString()) \(connection.detected.chipName): NDEF message, \(message.records.count) \(noun), \(message.records.isEmpty ? 0 : length) bytes"
                )
                for line in RecordRendering.lines(message.records, indent: "  ") { printer.line(line) }
            }
        }
    }
}

import Foundation
import NFCTagKit

/// `nfctag ndef encode RECORD…` and `nfctag ndef decode HEX|-`.
enum NDEFCommand {
    static let decodeSpec = CommandSpec(
        "ndef decode", "decode an NDEF message", operands: "HEX|-",
        options: [],
        discussion: """
            Prints the records; with --json, {"records":[{"tnf","type","id","payload",…}]}.
            Malformed input exits with code 2 and names the byte offset.

            Examples:
              nfctag ndef decode d1010c55046578616d706c652e636f6d
              nfctag ndef encode --uri https://example.com | nfctag ndef decode - --json
            """)

    static let encodeSpec = CommandSpec(
        "ndef encode", "print an NDEF message as lowercase hex", operands: "RECORD…",
        options: RecordArguments.specs,
        discussion: """
            Records go in the order given; a modifier (--lang, --utf16, --file, --payload-hex,
            --title) applies to the record just before it.
            With --json: {"hex": …, "length": N, "records": […]}.

            Examples:
              nfctag ndef encode --uri https://example.com
              nfctag ndef encode --text "Hallo" --lang de --uri tel:+4930123
              nfctag ndef encode --smart-poster https://shop.example --title "Our shop"
              nfctag ndef encode --external example.com:serial --payload-hex 0102
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) throws(ToolError) {
        let verb = try parser.nextCommandWord()
        output.json = parser.globals.json
        switch verb {
        case "encode":
            try encode(&parser, output: &output)
        case "decode":
            try decode(&parser, output: &output)
        case nil where parser.helpRequested:
            output.line(HelpText.ndef)
        default:
            throw .usage(
                verb.map { "nfctag ndef: unknown verb '\($0)'" } ?? "nfctag ndef: say 'encode' or 'decode'",
                "Run 'nfctag ndef --help' for examples.")
        }
    }

    private static func encode(_ parser: inout ArgumentParser, output: inout Output) throws(ToolError) {
        var records = RecordArguments()
        while let argument = try parser.next(of: encodeSpec) {
            let token = argument.token
            if try records.consume(argument) { continue }
            throw encodeSpec.unknown(token)
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(encodeSpec.help)
            return
        }
        guard !records.isEmpty else {
            throw .usage("nfctag ndef encode: give at least one record, e.g. --uri https://example.com")
        }
        let message = NDEFMessage(records: try records.records())
        let bytes: [UInt8]
        do {
            bytes = try message.encoded()
        } catch {
            throw .malformedInput("nfctag ndef encode: \(error)")
        }
        if output.json {
            output.document(
                .object([
                    ("hex", .string(bytes.hexString())),
                    ("length", .int(bytes.count)),
                    ("records", .array(message.records.map(RecordRendering.json))),
                ]))
        } else {
            output.line(bytes.hexString())
        }
    }

    private static func decode(_ parser: inout ArgumentParser, output: inout Output) throws(ToolError) {
        var source: String?
        while let argument = try parser.next(of: decodeSpec) {
            let token = argument.token
            guard source == nil, argument.option == nil else { throw decodeSpec.unknown(token) }
            source = token
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(decodeSpec.help)
            return
        }
        guard let source else {
            throw .usage("nfctag ndef decode: give the message as hex, or - to read it from stdin")
        }
        let text = source == "-" ? readStandardInput() : source
        guard let bytes = Hex.decode(text) else {
            throw .malformedInput("nfctag ndef decode: the input is not hex (digits 0-9 a-f, an even count)")
        }
        let message: NDEFMessage
        do {
            message = try NDEFMessage(bytes: bytes)
        } catch {
            throw .malformedInput(
                "nfctag ndef decode: malformed NDEF at byte \(error.offset)", error.description)
        }
        let rendered: [JSONValue]
        do {
            rendered = try message.records.map(RecordRendering.jsonChecked)
        } catch {
            throw .malformedInput("nfctag ndef decode: malformed record payload", "\(error)")
        }
        if output.json {
            output.document(.object([("records", .array(rendered))]))
        } else {
            let noun = message.records.count == 1 ? "record" : "records"
            output.line("NDEF message: \(message.records.count) \(noun), \(bytes.count) bytes")
            for line in RecordRendering.lines(message.records, indent: "  ") {
                output.line(line)
            }
        }
    }

    private static func readStandardInput() -> String {
        String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    }
}

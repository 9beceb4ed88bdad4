import Foundation
import NFCTagKit

/// `nfctag ndef encode RECORD…` and `nfctag ndef decode HEX|-`.
enum NDEFCommand {
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
        while let token = parser.nextToken() {
            if try parser.consumeGlobal(token) { continue }
            if try records.consume(token, from: &parser) { continue }
            throw .usage("nfctag ndef encode: unknown option '\(token)'", "Run 'nfctag ndef encode --help'.")
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(HelpText.ndefEncode)
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
        while let token = parser.nextToken() {
            if try parser.consumeGlobal(token) { continue }
            guard source == nil, !parser.isOption(token) else {
                throw .usage("nfctag ndef decode: unexpected '\(token)'", "Run 'nfctag ndef decode --help'.")
            }
            source = token
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(HelpText.ndefDecode)
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

import NFCTagKit

/// `nfctag raw HEX [--raw-frame]`: sends one command (without CRC) to the tag and prints
/// the answer: data as hex, `ACK`, or `NAK` with its code and meaning (exit 1). The
/// command goes the chip's way — a raw frame with CRC_A added and checked by nfctag for
/// Type 2 tags, the reader's data exchange for MIFARE Classic and Type 4; `--raw-frame`
/// forces the raw frame. `--password` authenticates first.
enum RawCommand {
    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var frame: [UInt8]?
        var forceRaw = false
        var tagOptions = TagOptions()
        while let token = parser.nextToken() {
            if try parser.consumeGlobal(token) { continue }
            if try tagOptions.consume(token, from: &parser) { continue }
            switch token {
            case "--raw-frame": forceRaw = true
            case _ where parser.isOption(token):
                throw .usage("nfctag raw: unknown option '\(token)'", "Run 'nfctag raw --help'.")
            default:
                guard frame == nil else { throw .usage("nfctag raw: one command only; write it as one HEX argument") }
                guard let bytes = Hex.decode(token), !bytes.isEmpty else {
                    throw .malformedInput("nfctag raw: '\(token)' is not a command in hex (e.g. 3004 for READ page 4)")
                }
                frame = bytes
            }
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(HelpText.raw)
            return
        }
        guard let frame else { throw .usage("nfctag raw: give the command as HEX, e.g. 'nfctag raw 3004'") }
        let printer = output
        try await ChipSession.run(parser.globals, command: "raw", pack: tagOptions.pack) { session throws(ToolError) in
            let answer: RawAnswer
            do throws(TagSessionError) {
                answer = try await session.send(frame, framing: forceRaw ? .raw : nil)
            } catch {
                guard let code = error.nakCode else { throw ChipSession.failure(error, command: "raw") }
                let meaning = NAKCode(rawValue: code)?.meaning
                if printer.json {
                    printer.document(
                        .object([("nak", .int(Int(code))), ("meaning", meaning.map(JSONValue.string) ?? .null)]))
                } else {
                    printer.line("NAK 0x\(String(code, radix: 16))\(meaning.map { ": \($0)" } ?? "")")
                }
                throw ToolError(
                    exitCode: .failure, summary: "nfctag raw: the tag answered NAK \(code)",
                    detail: [meaning ?? "", "The tag was selected again (it drops to IDLE after a NAK)."])
            }
            switch answer {
            case .ack:
                printer.json ? printer.document(.object([("ack", .bool(true))])) : printer.line("ACK")
            case .bytes(let bytes):
                printer.json
                    ? printer.document(
                        .object([("answer", .string(bytes.hexString())), ("length", .int(bytes.count))]))
                    : printer.line(bytes.hexString())
            }
        }
    }
}

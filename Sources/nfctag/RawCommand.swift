import NFCTagKit

/// `nfctag raw HEX [--raw-frame]`: sends one command (without CRC) to the tag and prints
/// the answer: data as hex, `ACK`, or `NAK` with its code and meaning (exit 1). The
/// command goes the chip's way — a raw frame with CRC_A added and checked by nfctag for
/// Type 2 tags, the reader's data exchange for MIFARE Classic and Type 4; `--raw-frame`
/// forces the raw frame. `--password` authenticates first.
enum RawCommand {
    static let spec = CommandSpec(
        "raw", "send one command to the tag", operands: "HEX",
        options: [OptionSpec("--raw-frame", help: "send a raw frame (CRC_A added and checked) whatever the chip")]
            + TagOptions.specs,
        discussion: """
            Sends the command bytes (without CRC) and prints the answer as hex, ACK, or the NAK
            with its code and meaning (a NAK exits 1). The command goes the chip's way: a raw
            frame with CRC_A added and checked by nfctag for Type 2 tags (4-bit ACK / NAK codes
            arrive), the reader's data exchange for MIFARE Classic and Type 4. --raw-frame forces
            the raw frame. --password authenticates first.
            With --json: {"answer": HEX, "length": N}, {"ack": true} or {"nak": N, "meaning": …}.

            \(HelpText.chipCommon)

            Examples:
              nfctag raw 3004          # READ page 4
              nfctag raw 60 --json     # GET_VERSION
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var frame: [UInt8]?
        var forceRaw = false
        var tagOptions = TagOptions()
        while let argument = try parser.next(of: spec) {
            let token = argument.token
            if try tagOptions.consume(argument) { continue }
            switch token {
            case "--raw-frame": forceRaw = true
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
            output.line(spec.help)
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

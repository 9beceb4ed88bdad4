import NFCTagKit

/// `nfctag st25tb read --block N[,N…]` and `nfctag st25tb write --block N --hex HEX8`:
/// Read_Block and Write_Block on an ST25TB or SRx card (a transit ticket), which holds no
/// NDEF. A write is read back, as the card never answers one.
enum ST25TBCommand {
    static let specs: [String: CommandSpec] = [
        "read": CommandSpec(
            "st25tb read", "Read_Block of an ST25TB or SRx card",
            options: [OptionSpec("--block", value: "N[,N…]", help: "block numbers, decimal or 0x hex (0xff: system)")],
            discussion: """
                Reads each block (4 bytes, as the card sends them). With --json: {"blocks":[HEX…]}.

                Example:
                  nfctag --device emulator:st25tb st25tb read --block 0,1,0xff
                """),
        "write": CommandSpec(
            "st25tb write", "Write_Block of one block, read back",
            options: [
                OptionSpec("--block", value: "N", help: "the block number, decimal or 0x hex"),
                OptionSpec("--hex", value: "HEX8", help: "the 4 bytes to write"),
            ],
            discussion: """
                Writes one block and reads it back: the card never answers a write, and keeps a
                locked block or a counter (blocks 5 and 6 of an ST25TB512) asked to count up;
                that exits 1. The system block (0xff) only ever clears bits: a cleared lock bit
                makes its block read-only for good. With --json: {"block": N, "written": HEX}.

                Example:
                  nfctag --device emulator:st25tb st25tb write --block 7 --hex 01020304
                """),
    ]

    /// The verbs in the order the help lists them.
    static let verbs = ["read", "write"]

    static let help = CommandSpec.familyHelp(
        "st25tb", title: "ST25TB and SRx cards: Read_Block and Write_Block", verbs: verbs, specs: specs)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        guard
            let (verb, spec) = try parser.verb(of: "st25tb", specs: specs, help: help, example: "read", output: &output)
        else { return }
        let values = try parser.optionValues(of: spec)
        if parser.helpRequested { return output.line(spec.help) }
        output.json = parser.globals.json
        let command = "nfctag st25tb \(verb)"
        guard let text = values["--block"] else { throw .usage("\(command): give --block") }
        let blocks = try text.split(separator: ",").map { part throws(ToolError) in
            let block = try ChipSession.integer(String(part), option: "--block")
            guard (0...0xFF).contains(block) else { throw .usage("\(command): a block is 0…255, not \(block)") }
            return block
        }
        var data: [UInt8] = []
        if verb == "write" {
            guard blocks.count == 1, let hex = values["--hex"], let bytes = Hex.decode(hex), bytes.count == 4 else {
                throw .usage("\(command): give one --block and its 4 bytes as --hex HEX8")
            }
            data = bytes
        }
        let printer = output
        let name = "st25tb \(verb)"
        try await ChipSession.run(parser.globals, command: name) { session throws(ToolError) in
            guard let card = session.ndefHandle as? NFCST25TBTag else {
                throw ToolError(
                    exitCode: .failure,
                    summary: "\(command): the tag is \(ChipSession.chipName(session)), not an ST25TB or SRx card")
            }
            do throws(TagSessionError) {
                if verb == "write" {
                    try await card.writeBlock(blocks[0], data: data)
                    if printer.json {
                        printer.document(.object([("block", .int(blocks[0])), ("written", .string(data.hexString()))]))
                    } else {
                        printer.line("wrote block \(blocks[0]): \(data.hexString())")
                    }
                    return
                }
                var read: [[UInt8]] = []
                for block in blocks { read.append(try await card.readBlock(block)) }
                if printer.json {
                    printer.document(.object([("blocks", .array(read.map { .string($0.hexString()) }))]))
                } else {
                    for (block, bytes) in zip(blocks, read) { printer.line("block \(block): \(bytes.hexString())") }
                }
            } catch {
                throw ChipSession.failure(error, command: name)
            }
        }
    }
}

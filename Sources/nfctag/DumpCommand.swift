import Foundation
import NFCTagKit

/// `nfctag dump [--out FILE] [--key HEX12]…`: the whole memory image as the documented
/// JSON dump format (``NFCTags/TagMemoryDump``), to FILE or stdout. MIFARE Classic sectors
/// are opened with the `--key` keys and the well-known keys from the tables. `--password`
/// authenticates first, for read-protected pages. Progress bar on a terminal only.
enum DumpCommand {
    static let spec = CommandSpec(
        "dump", "the whole memory image",
        options: [
            OptionSpec("--out", "-o", value: "FILE", help: "write the dump to FILE (stdout without it)"),
            OptionSpec("--key", value: "HEX12", help: "a MIFARE Classic key to try first (repeatable)"),
        ] + TagOptions.specs,
        discussion: """
            Reads every readable page (or every MIFARE Classic sector a key opens: the --key keys,
            then the well-known keys) into the JSON dump format; to FILE, or stdout without --out.
            --password authenticates first, for read-protected pages. Progress bar on a terminal only.

            \(HelpText.chipCommon)

            Examples:
              nfctag dump --out tag.json
              nfctag dump --key a0a1a2a3a4a5 > classic.json
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var file: String?
        var keys: [ClassicKey] = []
        var tagOptions = TagOptions()
        while let argument = try parser.next(of: spec) {
            if try tagOptions.consume(argument) { continue }
            switch argument.option {
            case "--out": file = argument.value
            case "--key":
                keys.append(
                    ClassicKey(uncheckedBytes: try ChipSession.bytes(argument.value, count: 6, option: "--key")))
            default: throw spec.unknown(argument.token)
            }
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        let printer = output
        let classicKeys = keys + ClassicKey.wellKnown.filter { !keys.contains($0) }
        try await ChipSession.run(parser.globals, command: "dump", pack: tagOptions.pack) { session throws(ToolError) in
            let bar = ProgressBar(label: "Reading", output: printer)
            let dump: TagMemoryDump
            let bytes: [UInt8]
            do throws(TagSessionError) {
                switch session.tag {
                case .miFareClassic(let classic):
                    dump = try await classic.dump(keys: classicKeys) { bar.update($0) }
                case .type2(let pages):
                    dump = try await pages.dump { bar.update($0) }
                default:
                    throw ChipSession.noMemoryImage(session, operation: .dump)
                }
            } catch {
                bar.clear()
                throw ChipSession.failure(error, command: "dump")
            }
            do throws(TagCommandError) {
                bytes = try dump.jsonBytes()
            } catch {
                throw ChipSession.failure(.command(operation: .dump, error), command: "dump")
            }
            guard let file else {
                printer.line(String(decoding: bytes, as: UTF8.self))
                return
            }
            do {
                try Data(bytes).write(to: URL(fileURLWithPath: file))
            } catch {
                throw ToolError(
                    exitCode: .failure, summary: "nfctag dump: cannot write \(file): \(error.localizedDescription)",
                    detail: ["The tag was only read."])
            }
            let unit = dump.pages != nil ? "pages" : "blocks"
            let count = dump.pages?.count ?? dump.blocks?.compactMap { $0 }.count ?? 0
            if printer.json {
                printer.document(
                    .object([
                        ("file", .string(file)), ("uid", .string(dump.uid.hexString())),
                        ("chip", .string(dump.chip.rawValue)), (unit, .int(count)),
                    ]))
            } else {
                printer.line("Dumped \(count) \(unit) of \(dump.chip.rawValue) \(dump.uid.hexString()) to \(file).")
            }
        }
    }
}

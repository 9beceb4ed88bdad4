import Foundation
import NFCTagKit

/// `nfctag dump [--out FILE] [--key HEX12]…`: the whole memory image as the documented
/// JSON dump format (``NFCTags/TagMemoryDump``), to FILE or stdout. MIFARE Classic sectors
/// are opened with the `--key` keys and the well-known keys from the tables. `--password`
/// authenticates first, for read-protected pages. Progress bar on a terminal only.
enum DumpCommand {
    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var file: String?
        var keys: [ClassicKey] = []
        var tagOptions = TagOptions()
        while let token = parser.nextToken() {
            if try parser.consumeGlobal(token) { continue }
            if try tagOptions.consume(token, from: &parser) { continue }
            switch token {
            case "--out", "-o": file = try parser.value(for: token)
            case "--key":
                keys.append(
                    ClassicKey(
                        uncheckedBytes: try ChipSession.bytes(try parser.value(for: token), count: 6, option: token)))
            default: throw .usage("nfctag dump: unknown option '\(token)'", "Run 'nfctag dump --help'.")
            }
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(HelpText.dump)
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
                case let tag:
                    guard let pages = tag.handle as? any NFCPageMemoryTag else {
                        throw ChipSession.noMemoryImage(session, operation: .dump)
                    }
                    dump = try await pages.dump { bar.update($0) }
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

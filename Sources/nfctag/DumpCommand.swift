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
            A Type 1 tag gives its header ROM and static blocks 00-0E (RALL); an ST25TB its blocks
            and the system block (FF); a FeliCa card the
            blocks a plain read reaches (a Lite-S's memory map, a Standard's keyless services).
            restore takes the NTAG, Ultralight and Classic images.
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
            let image: Image
            do throws(TagSessionError) {
                switch session.tag {
                case .miFareClassic(let classic):
                    image = .chip(try await classic.dump(keys: classicKeys) { bar.update($0) })
                case .type2(let pages):
                    image = .chip(try await pages.dump { bar.update($0) })
                case .feliCa(let card):
                    image = .card(try await card.dump())
                default:
                    if let type1 = session.ndefHandle as? NFCType1Tag {
                        image = .card(try await type1.dump())
                    } else if let card = session.ndefHandle as? NFCST25TBTag {
                        image = .card(try await card.dump())
                    } else {
                        throw ChipSession.noMemoryImage(session, operation: .dump)
                    }
                }
            } catch {
                bar.clear()
                throw ChipSession.failure(error, command: "dump")
            }
            let bytes: [UInt8]
            do throws(TagCommandError) {
                bytes = try image.jsonBytes()
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
            let (unit, count) = image.size
            if printer.json {
                printer.document(
                    .object([
                        ("file", .string(file)), ("uid", .string(image.uid.hexString())),
                        ("chip", .string(image.chip)), (unit, .int(count)),
                    ]))
            } else {
                printer.line("Dumped \(count) \(unit) of \(image.chip) \(image.uid.hexString()) to \(file).")
            }
        }
    }

    /// A chip's image (Type 2, Classic) or a card's (Type 1, FeliCa): one file format.
    enum Image {
        case chip(TagMemoryDump)
        case card(CardMemoryDump)

        func jsonBytes() throws(TagCommandError) -> [UInt8] {
            switch self {
            case .chip(let dump): try dump.jsonBytes()
            case .card(let dump): try dump.jsonBytes()
            }
        }

        var uid: [UInt8] {
            switch self {
            case .chip(let dump): dump.uid
            case .card(let dump): dump.uid
            }
        }

        var chip: String {
            switch self {
            case .chip(let dump): dump.chip.rawValue
            case .card(let dump): dump.chip
            }
        }

        /// `pages` or `blocks`, and how many were read.
        var size: (String, Int) {
            switch self {
            case .chip(let dump):
                dump.pages.map { ("pages", $0.count) } ?? ("blocks", dump.blocks?.compactMap { $0 }.count ?? 0)
            case .card(let dump): ("blocks", dump.blockCount)
            }
        }
    }
}

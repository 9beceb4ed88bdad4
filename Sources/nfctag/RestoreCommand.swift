import Foundation
import NFCTagKit

/// `nfctag restore FILE [--include-config] [--include-locks] [--include-trailers]
/// [--yes-irreversible]`: writes a dump back. User pages (data blocks) always, and only
/// those that differ; the configuration with `--include-config`; lock and OTP pages with
/// `--include-locks` (one-way bits: also `--yes-irreversible`); MIFARE Classic trailers
/// with `--include-trailers` (checked; a frozen one needs `--yes-irreversible`). UID,
/// passwords, keys and counters are never written.
enum RestoreCommand {
    static let spec = CommandSpec(
        "restore", "write a memory image back", operands: "FILE",
        options: [
            OptionSpec("--include-config", help: "the configuration fields too (never turns protection on)"),
            OptionSpec("--include-locks", help: "lock and OTP pages too (one-way bits: needs --yes-irreversible)"),
            OptionSpec("--include-trailers", help: "MIFARE Classic sector trailers too (checked)"),
            OptionSpec("--yes-irreversible", help: "accept one-way bits and frozen sector trailers"),
        ] + TagOptions.specs,
        discussion: """
            Writes the pages of a dump that differ from the tag: user memory (Classic data
            blocks) only, unless asked. UID, passwords, keys and counters are never written.
            A file that is not a dump exits 2; a dump of another chip is refused.

            \(HelpText.chipCommon)

            Examples:
              nfctag restore tag.json
              nfctag restore tag.json --include-config --json
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var file: String?
        var options: RestoreOptions = []
        var consent: IrreversibleConsent = []
        var tagOptions = TagOptions()
        while let argument = try parser.next(of: spec) {
            let token = argument.token
            if try tagOptions.consume(argument) { continue }
            switch token {
            case "--include-config": options.insert(.configuration)
            case "--include-locks": options.insert([.lockPages, .otpPages])
            case "--include-trailers": options.insert(.sectorTrailers)
            case "--yes-irreversible": consent = [.lockAndOTPBits, .frozenSectorTrailer]
            default:
                guard file == nil else { throw .usage("nfctag restore: one FILE only (got '\(token)' too)") }
                file = token
            }
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        guard let file else { throw .usage("nfctag restore: give the dump FILE (made by 'nfctag dump --out FILE')") }
        let dump = try load(file)
        let printer = output
        try await ChipSession.run(parser.globals, command: "restore", pack: tagOptions.pack) {
            session throws(ToolError) in
            guard session.chip == dump.chip else {
                throw ToolError(
                    exitCode: .failure,
                    summary:
                        "nfctag restore refused: the dump is of a \(dump.chip.rawValue), the tag is \(ChipSession.chipName(session)); nothing was written"
                )
            }
            let bar = ProgressBar(label: "Writing", output: printer)
            let written: [Int]
            do throws(TagSessionError) {
                switch session.tag {
                case .miFareClassic(let classic):
                    written = try await classic.restore(dump, options: options, consent: consent) { bar.update($0) }
                case .type2(let pages):
                    written = try await pages.restore(dump, options: options, consent: consent) { bar.update($0) }
                default:
                    throw ChipSession.noMemoryImage(session, operation: .restore)
                }
            } catch {
                bar.clear()
                var failure = ChipSession.failure(error, command: "restore")
                if failure.exitCode == .failure {
                    failure.detail.append(
                        "Some pages may already be written; run restore again to finish (it writes only the pages that differ)."
                    )
                }
                throw failure
            }
            let unit = dump.pages != nil ? "pages" : "blocks"
            if printer.json {
                printer.document(
                    .object([
                        ("uid", .string(session.uid.hexString())), ("chip", .string(dump.chip.rawValue)),
                        ("written", .array(written.map(JSONValue.int))), ("unit", .string(unit)),
                    ]))
            } else {
                let list = written.isEmpty ? "" : " (\(written.map(String.init).joined(separator: ", ")))"
                printer.line(
                    "Restored \(dump.chip.rawValue) \(session.uid.hexString()) from \(file): \(written.count) \(unit) written\(list)."
                )
            }
        }
    }

    /// Reads and checks the dump file (exit 2 when it is not a valid dump).
    private static func load(_ file: String) throws(ToolError) -> TagMemoryDump {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw .malformedInput("nfctag restore: cannot read \(file): \(error.localizedDescription)")
        }
        do throws(TagCommandError) {
            let dump = try TagMemoryDump(jsonBytes: Array(data))
            try dump.validate()
            return dump
        } catch {
            throw .malformedInput("nfctag restore: \(file) is not a valid memory dump", error.description)
        }
    }
}

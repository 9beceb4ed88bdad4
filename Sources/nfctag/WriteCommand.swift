#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NFCTagKit
import Locking

/// `nfctag write RECORD… [--hex HEX] [--no-verify] [--full]`: writes an NDEF message
/// tear-safely. The driver always reads the written pages back and compares them with the
/// message's bytes; unless `--no-verify` the tool also compares the message those bytes decode
/// to with the one asked for, record by record (with `--mirror` it reads the message again:
/// the chip's mirror shows only in a read). `--full` writes
/// every page instead of only those that change. A progress bar goes to stderr on a TTY.
enum WriteCommand {
    static let spec = CommandSpec(
        "write", "write an NDEF message (tear-safe, verified)", operands: "RECORD…",
        options: RecordArguments.specs + [
            OptionSpec("--hex", value: "HEX", help: "the encoded message, in place of records"),
            OptionSpec("--no-verify", help: "skip the record-by-record check of what was written"),
            OptionSpec("--full", help: "write every page, not only those that change"),
            OptionSpec("--mirror", help: "NTAG21x: the --uri holds {uid}, {counter} or {uid}x{counter}"),
        ] + TagOptions.specs,
        discussion: """
            Records as in 'ndef encode' (--uri, --text, --mime, --external, --smart-poster,
            --empty), or the encoded message with --hex. The write is tear-safe (NDEF length
            0 first, then the body, then the real length in a write of its own) and only pages
            that change are written unless --full. Written pages are always read back and compared
            byte for byte; the tool then checks, record by record, that those bytes decode to the
            message asked for (--no-verify skips that check; with --mirror it reads the message
            again, since the chip's mirror shows only in a read). A progress bar goes to stderr on
            a terminal.
            A message too big for the tag, or a read-only tag, is refused before anything is
            written. --json prints {"uid","chip","length","written","total","verified"}.
            --mirror (NTAG21x): the --uri holds {uid}, {counter} or {uid}x{counter}; the chip
            fills them in on every read (its ASCII mirror), and the NFC counter is turned on for
            {counter}. A layout the chip cannot mirror is refused before anything is written.
            \(HelpText.tagCommon)

            Examples:
              nfctag write --uri https://example.com
              nfctag write --uri "https://example.com/t?id={uid}x{counter}" --mirror
              nfctag write --text "Hallo" --lang de --full
              nfctag write --hex d1010c55046578616d706c652e636f6d
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var options = TagOptions()
        var records = RecordArguments()
        var hexMessage: [UInt8]?
        var verify = true
        var fullWrite = false
        var mirror = false
        while let argument = try parser.next(of: spec) {
            let token = argument.token
            if try options.consume(argument) { continue }
            if try records.consume(argument) { continue }
            switch token {
            case "--hex":
                let text = argument.value
                guard let bytes = Hex.decode(text) else {
                    throw .malformedInput("nfctag write: --hex: '\(text)' is not hex")
                }
                hexMessage = bytes
            case "--no-verify": verify = false
            case "--full": fullWrite = true
            case "--mirror": mirror = true
            default: throw spec.unknown(token)
            }
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        let message = try message(records: records, hex: hexMessage)
        let printer = output
        let showProgress = !printer.json && isatty(1) != 0 && isatty(2) != 0
        try await TagSelection.withSingleTag(parser.globals, options: options, command: "write") {
            connection, tag throws(ToolError) in
            let last = ProgressBox()
            let template = mirror ? try MirrorWriting.template(for: message, chip: tag.chip, command: "write") : nil
            do throws(NDEFSessionError) {
                let report: @Sendable (TagSessionProgress) -> Void = { progress in
                    last.set(progress)
                    if showProgress { drawProgress(progress) }
                }
                if let template {
                    guard let ntag = tag as? NFCType2Tag else {
                        throw .unsupportedTag(reason: "\(connection.detected.chipName) has no ASCII mirror")
                    }
                    try await ntag.writeNDEF(mirroring: template, progress: report)
                } else {
                    try await tag.writeNDEF(message, options: NDEFWriteOptions(fullWrite: fullWrite), progress: report)
                }
            } catch {
                if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
                throw TagSelection.failure(error, operation: "write", chip: tag.chip)
            }
            if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
            if verify {
                let back: NDEFMessage?
                if template != nil {
                    // The chip's mirror shows only in what a read returns: read the message again.
                    do throws(NDEFSessionError) {
                        back = try await tag.readNDEF()
                    } catch {
                        throw TagSelection.failure(error, operation: "verify", chip: tag.chip)
                    }
                } else {
                    // The write read back every page it wrote and compared it byte for byte with
                    // the message's bytes; the pages it left alone were read on this connection just
                    // before. Those bytes, decoded as a reader decodes them, are the message read
                    // back: reading them a second time would only repeat the same frames.
                    back = message.decodedAsStored
                }
                guard let back, template.map({ $0.isShown(in: back) }) ?? (back == message) else {
                    throw ToolError(
                        exitCode: .failure,
                        summary: "nfctag: verify failed: the message read back differs from the one written")
                }
            }
            let written = template?.message ?? message
            let length = written.records.isEmpty ? 0 : ((try? written.encoded().count) ?? 0)
            let progress = last.value
            if printer.json {
                printer.document(
                    .object(
                        [
                            ("uid", .string(tag.uid.hexString())), ("chip", .string(connection.detected.chipName)),
                            ("length", .int(length)), ("written", .int(progress?.completed ?? 0)),
                            ("total", .int(progress?.expected ?? 0)),
                            ("verified", .bool(verify)),
                        ] + (template.map { [("mirror", JSONValue.string(MirrorWriting.name($0)))] } ?? [])))
            } else {
                printer.line(
                    "Wrote \(length) bytes to \(connection.detected.chipName) \(tag.uid.hexString()) (\(progress?.completed ?? 0) \(connection.detected.chip.map { ChipTables.spec(for: $0).family } == .mifareClassic ? "blocks" : "pages"))\(verify ? ", verified" : "")\(template.map { "; mirrors its \(MirrorWriting.name($0)) live" } ?? "")"
                )
            }
        }
    }

    /// The message from the record options or `--hex` (exactly one of them).
    private static func message(records: RecordArguments, hex: [UInt8]?) throws(ToolError) -> NDEFMessage {
        switch (records.isEmpty, hex) {
        case (true, nil):
            throw .usage("nfctag write: give the message as records (e.g. --uri https://example.com) or --hex HEX")
        case (false, _?):
            throw .usage("nfctag write: give records or --hex, not both")
        case (true, let bytes?):
            do {
                return try NDEFMessage(bytes: bytes)
            } catch {
                throw .malformedInput(
                    "nfctag write: --hex is not an NDEF message: malformed at byte \(error.offset)", error.description)
            }
        case (false, nil):
            let message = NDEFMessage(records: try records.records())
            do {
                _ = try message.encoded()
            } catch {
                throw .malformedInput("nfctag write: cannot encode the message: \(error)")
            }
            return message
        }
    }

    private static func drawProgress(_ progress: TagSessionProgress) {
        let width = 30
        let filled = progress.expected == 0 ? width : width * progress.completed / progress.expected
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(progress.completed)/\(progress.expected) pages".utf8))
    }
}

/// The last progress report of a write (reported from the driver's task).
final class ProgressBox: Sendable {
    private let last = Locked<TagSessionProgress?>(nil)

    func set(_ progress: TagSessionProgress) {
        last.withLock { $0 = progress }
    }

    var value: TagSessionProgress? { last.withLock { $0 } }
}

import NFCTagKit
#if canImport(Glibc)
import Glibc
#endif

/// Builds NDEF records from the record options of `ndef encode` (and, later, `write` and
/// `provision`), in the order given. A modifier (`--lang`, `--utf16`, `--file`,
/// `--payload-hex`, `--title`) applies to the record just before it.
///
/// ```
/// --uri https://example.com --text "Hello" --lang en --smart-poster https://a.b --title Shop
/// ```
struct RecordArguments {
    private enum Pending {
        case uri(String)
        case text(String, lang: String, utf16: Bool)
        case mime(String, payload: [UInt8]?)
        case external(String, payload: [UInt8])
        case smartPoster(String, titles: [(String, lang: String)])
        case empty
    }

    private var pending: [Pending] = []

    var isEmpty: Bool { pending.isEmpty }

    /// The record options, in the order the help lists them.
    static let specs: [OptionSpec] = [
        OptionSpec("--uri", value: "URL", help: "URI record (the longest URI prefix is abbreviated)"),
        OptionSpec("--text", value: "TEXT", help: "Text record (UTF-8, language en unless --lang)"),
        OptionSpec("--lang", value: "L", help: "the language of the --text or --title before it"),
        OptionSpec("--utf16", help: "the --text before it in UTF-16"),
        OptionSpec("--mime", value: "TYPE", help: "MIME record, with --file PATH or --payload-hex HEX"),
        OptionSpec("--file", value: "PATH", help: "the payload of the --mime before it, from a file"),
        OptionSpec("--external", value: "DOMAIN:TYPE", help: "external-type record, with --payload-hex HEX"),
        OptionSpec("--payload-hex", value: "HEX", help: "the payload of the --external or --mime before it"),
        OptionSpec("--smart-poster", value: "URL", help: "Smart Poster record, with --title TEXT [--lang L]…"),
        OptionSpec("--title", value: "TEXT", help: "a title of the --smart-poster before it"),
        OptionSpec("--empty", help: "empty record"),
    ]

    /// Takes `argument` when it is a record option; false otherwise.
    mutating func consume(_ argument: ParsedArgument) throws(ToolError) -> Bool {
        guard let option = argument.option else { return false }
        let value = argument.value
        switch option {
        case "--uri":
            pending.append(.uri(value))
        case "--text":
            pending.append(.text(value, lang: "en", utf16: false))
        case "--mime":
            pending.append(.mime(value, payload: nil))
        case "--external":
            pending.append(.external(value, payload: []))
        case "--smart-poster":
            pending.append(.smartPoster(value, titles: []))
        case "--empty":
            pending.append(.empty)
        case "--lang":
            let lang = value
            switch pending.last {
            case .text(let text, _, let utf16)?:
                pending[pending.count - 1] = .text(text, lang: lang, utf16: utf16)
            case .smartPoster(let uri, var titles)? where !titles.isEmpty:
                titles[titles.count - 1].lang = lang
                pending[pending.count - 1] = .smartPoster(uri, titles: titles)
            default:
                throw .usage("nfctag: --lang must follow --text or --title")
            }
        case "--utf16":
            guard case .text(let text, let lang, _)? = pending.last else {
                throw .usage("nfctag: --utf16 must follow --text")
            }
            pending[pending.count - 1] = .text(text, lang: lang, utf16: true)
        case "--title":
            let title = value
            guard case .smartPoster(let uri, var titles)? = pending.last else {
                throw .usage("nfctag: --title must follow --smart-poster")
            }
            titles.append((title, lang: "en"))
            pending[pending.count - 1] = .smartPoster(uri, titles: titles)
        case "--file":
            let path = value
            guard case .mime(let type, _)? = pending.last else {
                throw .usage("nfctag: --file must follow --mime")
            }
            pending[pending.count - 1] = .mime(type, payload: try Self.readFile(path))
        case "--payload-hex":
            let text = value
            guard let bytes = Hex.decode(text) else {
                throw .malformedInput("nfctag: --payload-hex: '\(text)' is not hex")
            }
            switch pending.last {
            case .external(let type, _)?: pending[pending.count - 1] = .external(type, payload: bytes)
            case .mime(let type, _)?: pending[pending.count - 1] = .mime(type, payload: bytes)
            default: throw .usage("nfctag: --payload-hex must follow --external or --mime")
            }
        default:
            return false
        }
        return true
    }

    /// The records, validated.
    func records() throws(ToolError) -> [NDEFRecord] {
        var records: [NDEFRecord] = []
        for item in pending {
            do {
                switch item {
                case .uri(let uri):
                    records.append(NDEFURIRecord(uri: uri).record)
                case .text(let text, let lang, let utf16):
                    records.append(try Self.textRecord(text, lang: lang, utf16: utf16))
                case .mime(let type, let payload):
                    guard let payload else {
                        throw ToolError.usage("nfctag: --mime \(type) needs --file PATH or --payload-hex HEX")
                    }
                    records.append(try NDEFMediaRecord(mediaType: type, payload: payload).record)
                case .external(let type, let payload):
                    records.append(try NDEFExternalRecord(typeString: type, payload: payload).record)
                case .smartPoster(let uri, let titles):
                    var poster = NDEFSmartPosterRecord(uri: NDEFURIRecord(uri: uri))
                    for (title, lang) in titles {
                        poster.titles.append(NDEFTextRecord(text: title, languageCode: lang))
                    }
                    records.append(try poster.makeRecord())
                case .empty:
                    records.append(.empty)
                }
            } catch let error as ToolError {
                throw error
            } catch {
                throw .malformedInput("nfctag: cannot encode that record: \(error)")
            }
        }
        return records
    }

    private static func textRecord(_ text: String, lang: String, utf16: Bool) throws -> NDEFRecord {
        let record = NDEFTextRecord(text: text, languageCode: lang, encoding: utf16 ? .utf16 : .utf8)
        return try record.makeRecord()
    }

    private static func readFile(_ path: String) throws(ToolError) -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            throw ToolError(
                exitCode: .usage, summary: "nfctag: cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        if ferror(file) != 0 {
            throw ToolError(exitCode: .usage, summary: "nfctag: cannot read \(path)")
        }
        return bytes
    }
}

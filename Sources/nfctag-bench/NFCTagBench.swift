import Foundation
import NFCEmulator

/// `nfctag-bench`: NFCTagKit's operations on the emulated PN532 through real libnfc, each
/// next to its physical floor (`--json` for one JSON object), or the soak run (`--soak`).
@main
struct NFCTagBench {
    static let usage = """
        usage: nfctag-bench [--json] [--baud 115200|230400|460800] [--provision-tags N] [--tool PATH | --no-tool]
               nfctag-bench --reader acr122u|pn533 [--json] [--tool PATH]
               nfctag-bench --soak [--tags N] [--seed S]

        Runs each operation on an emulated PN532 through libnfc and prints PN532 frames, bytes
        each way, the modelled time, the physical floor, their ratio and host CPU per exchange,
        with the link at --baud (default 115200), then every floor on every host link. The
        nfctag beside nfctag-bench (or --tool) runs `write` then `read` as two processes, and
        the same nfctag commands run per USB reader kind (an emulated ACR122U and PN533, the
        host link priced as USB full-speed bulk transfers) beside their USB floors; --reader
        runs one USB kind's rows alone.
        --soak provisions many tags with random tears, reader unplugs and wrong passwords, and
        fails (exit 1) when any tag ends in an unknown or corrupt state.
        """

    static func main() async {
        let options: BenchOptions
        do {
            options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("nfctag-bench: \(error)\n\n\(usage)\n".utf8))
            exit(2)
        }
        if options.help {
            print(usage)
            return
        }
        do {
            if options.soak {
                let report = try await SoakRun(
                    tags: options.tags, seed: options.seed,
                    log: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
                ).run()
                print(options.json ? report.json : report.text)
                exit(report.isClean ? 0 : 1)
            }
            let json = options.json
            let tool = options.noTool ? nil : options.tool ?? Self.toolBesideExecutable()
            let suite = BenchSuite(
                provisioningTags: options.provisioningTags, baud: options.baud, tool: tool,
                announce: { name in
                    if !json { FileHandle.standardError.write(Data("running \(name)…\n".utf8)) }
                })
            var results: [BenchResult] = []
            if options.reader == nil { results = try await suite.run() }
            if let tool {
                for kind in options.reader.map({ [$0] }) ?? USBReaderEmulator.Kind.allCases {
                    results += try await USBReaderRun(tool: tool, kind: kind, announce: suite.announce).run()
                }
            } else if options.reader != nil {
                throw BenchFailure(
                    "--reader runs nfctag as child processes: no nfctag beside nfctag-bench (use --tool)")
            }
            let report = BenchReport(results: results, memory: ProcessMemory.now(), baud: options.baud)
            if json {
                print(report.json)
            } else {
                if !report.uartResults.isEmpty {
                    print(report.table)
                    print("\nFloors by host link (ms; a write's tear-safe floor after the slash):")
                    print(report.floorTable)
                }
                if !report.usbResults.isEmpty {
                    print(
                        "\nPer reader kind (nfctag processes on emulated USB readers, modelled ms; libnfc's 200 ms USB waits not counted):"
                    )
                    print(report.readerKindTable)
                }
                if let memory = report.memory {
                    print("\nResident memory at the end: \(memory.residentKiB) KiB (peak \(memory.peakKiB) KiB).")
                }
                print("\nCommands by code (PN532 command codes; tag command first bytes):")
                print(report.breakdown)
            }
        } catch {
            FileHandle.standardError.write(Data("nfctag-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    /// `nfctag` in the directory this program runs from, when it is there.
    static func toolBesideExecutable() -> String? {
        guard let executable = Bundle.main.executableURL else { return nil }
        let path = executable.deletingLastPathComponent().appendingPathComponent("nfctag").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
}

/// The command line.
struct BenchOptions: Equatable {
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    var json = false
    var help = false
    var soak = false
    var tags = 300
    var seed: UInt64 = 8
    var provisioningTags = 50
    var baud = 115_200
    var tool: String?
    var noTool = false
    /// One USB reader kind's rows alone (`--reader`); nil runs the UART suite and every kind.
    var reader: USBReaderEmulator.Kind?

    init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": json = true
            case "--help", "-h": help = true
            case "--soak": soak = true
            case "--tags": tags = try Self.number(rest.popFirst(), for: argument)
            case "--provision-tags": provisioningTags = try Self.number(rest.popFirst(), for: argument)
            case "--baud":
                baud = try Self.number(rest.popFirst(), for: argument)
                guard [115_200, 230_400, 460_800].contains(baud) else {
                    throw UsageError(description: "--baud takes 115200, 230400 or 460800 (what libnfc drives)")
                }
            case "--tool":
                guard let path = rest.popFirst() else { throw UsageError(description: "--tool needs a path") }
                tool = path
            case "--no-tool": noTool = true
            case "--reader":
                guard let text = rest.popFirst(), let kind = USBReaderEmulator.Kind(rawValue: text) else {
                    throw UsageError(description: "--reader takes acr122u or pn533 (the UART PN532 is the default run)")
                }
                reader = kind
            case "--seed":
                guard let text = rest.popFirst(), let value = UInt64(text) else {
                    throw UsageError(description: "--seed needs a number")
                }
                seed = value
            default: throw UsageError(description: "unknown argument '\(argument)'")
            }
        }
    }

    private static func number(_ text: String?, for option: String) throws(UsageError) -> Int {
        guard let text, let value = Int(text), value > 0 else {
            throw UsageError(description: "\(option) needs a positive number")
        }
        return value
    }
}

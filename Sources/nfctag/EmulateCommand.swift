import Foundation
import NFCEmulator
import NFCTagKit
#if canImport(Glibc)
import Glibc
#endif

/// `nfctag emulate --tag TAG… [--link PATH] [--state FILE] [--realtime] [--fault SPEC]
/// [--stats FILE] [--uid HEX] [--signature HEX] [--print-signing-key]`: serves an emulated
/// PN532 on a pseudo-terminal until SIGINT / SIGTERM.
enum EmulateCommand {
    struct Options {
        var tags: [String] = []
        var link: String?
        var statePath: String?
        var realTime = false
        var faults: [String] = []
        var statsPath: String?
        var uid: [UInt8]?
        var signature: [UInt8]?
        var printSigningKey = false
        /// `pn532` (UART, the default), `acr122u` or `pn533` (USB).
        var reader = "pn532"
    }

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        let options = try parse(&parser)
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        if options.printSigningKey {
            // With --tag ntag424dna or a DESFire with Read_Sig: the secp224r1 key; else the Type 2 one.
            let ntag424 = options.tags.contains {
                $0 == EmulatedTagFactory.ntag424Name
                    || Chip(rawValue: $0).flatMap { ChipTables.spec(for: $0).desfire }?.readSig == true
            }
            let key = (ntag424 ? EmulatorSigningKey.ntag424PublicKey : EmulatorSigningKey.publicKey).hexString()
            let curve = ntag424 ? NTAG424DNATable.signatureCurve : ChipTables.originalitySignatures.curve
            if output.json {
                output.document(.object([("public_key", .string(key)), ("curve", .string(curve))]))
            } else {
                output.line(key)
            }
            return
        }
        let faults: FaultPlan
        do { faults = try FaultPlan(parsing: options.faults) } catch { throw .usage("nfctag emulate: \(error)") }
        let tags = try makeTags(options)
        if options.reader != "pn532" {
            guard let kind = USBReaderEmulator.Kind(rawValue: options.reader) else {
                throw .usage("nfctag emulate: unknown reader '\(options.reader)'", "Readers: pn532 acr122u pn533")
            }
            return try await serveUSB(kind: kind, tags: tags, options: options, faults: faults, output: output)
        }
        try await serve(tags: tags, options: options, faults: faults, output: output)
    }

    private static func parse(_ parser: inout ArgumentParser) throws(ToolError) -> Options {
        var options = Options()
        var collectingTags = false
        while let argument = try parser.next(of: spec) {
            let token = argument.token
            switch argument.option {
            case "--tag":
                options.tags += argument.value.split(separator: ",").map(String.init)
                collectingTags = true
                continue
            case "--link": options.link = argument.value
            case "--reader": options.reader = argument.value
            case "--state": options.statePath = argument.value
            case "--realtime": options.realTime = true
            case "--fault": options.faults += argument.value.split(separator: ",").map(String.init)
            case "--stats": options.statsPath = argument.value
            case "--uid": options.uid = try hexValue(argument.value, option: token)
            case "--signature": options.signature = try hexValue(argument.value, option: token)
            case "--print-signing-key": options.printSigningKey = true
            case nil where collectingTags:
                options.tags += token.split(separator: ",").map(String.init)
                continue
            default:
                throw spec.unknown(token)
            }
            collectingTags = false
        }
        return options
    }

    private static func hexValue(_ text: String, option: String) throws(ToolError) -> [UInt8] {
        guard let bytes = Hex.decode(text), !bytes.isEmpty else {
            throw .usage("nfctag emulate: \(option) takes hex bytes, not '\(text)'")
        }
        return bytes
    }

    /// The tags from `--state` when the file exists, otherwise new ones from `--tag`.
    private static func makeTags(_ options: Options) throws(ToolError) -> [any EmulatedTag] {
        if let path = options.statePath, FileManager.default.fileExists(atPath: path) {
            let snapshots: [TagSnapshot]
            do {
                snapshots = try JSONDecoder().decode(StateFile.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
                    .tags
            } catch {
                throw .malformedInput("nfctag emulate: cannot read the state file \(path)", "\(error)")
            }
            if !options.tags.isEmpty, options.tags != snapshots.map(\.tag) {
                throw .usage(
                    "nfctag emulate: \(path) holds \(snapshots.map(\.tag).joined(separator: ",")), not \(options.tags.joined(separator: ","))",
                    "Give the same --tag list, or none, or another --state file.")
            }
            var tags: [any EmulatedTag] = []
            for snapshot in snapshots {
                do { tags.append(try snapshot.makeTag()) } catch {
                    throw .malformedInput("nfctag emulate: \(path): \(error)")
                }
            }
            return tags
        }
        guard !options.tags.isEmpty else {
            throw .usage(
                "nfctag emulate: give at least one --tag", "Tags: \(EmulatedTagFactory.tagNames.joined(separator: " "))"
            )
        }
        var tags: [any EmulatedTag] = []
        for (index, name) in options.tags.enumerated() {
            do {
                tags.append(
                    try EmulatedTagFactory.make(
                        name: name, uid: index == 0 ? options.uid : nil,
                        signature: index == 0 ? options.signature : nil, index: index))
            } catch {
                throw .usage("nfctag emulate: \(error)")
            }
        }
        if let signature = options.signature, signature.count != ChipTables.originalitySignatures.signatureLength {
            throw .usage(
                "nfctag emulate: --signature takes \(ChipTables.originalitySignatures.signatureLength) bytes, got \(signature.count)"
            )
        }
        return tags
    }

    private static func serve(tags: [any EmulatedTag], options: Options, faults: FaultPlan, output: Output)
        async throws(ToolError)
    {
        // Catch the stop signals before the emulator's thread starts, then wait for one.
        let (stopSignals, stop) = AsyncStream.makeStream(of: Void.self)
        let trap = SignalTrap(setsExitStatus: false) { _ in stop.yield() }
        defer { trap.release() }
        let emulator: PN532Emulator
        do {
            emulator = try PN532Emulator(tags: tags, link: options.link, faults: faults, realTime: options.realTime)
            try emulator.start()
        } catch {
            throw ToolError(
                exitCode: .failure, summary: "nfctag emulate: cannot open the pseudo-terminal", detail: ["\(error)"])
        }
        if let path = options.statePath {
            save(tags, to: path)
            emulator.observeTagChanges { tags in save(tags, to: path) }
        }
        output.line(emulator.connectionString)
        for await _ in stopSignals { break }
        let statistics = emulator.statistics
        emulator.stop()
        if let path = options.statePath { save(emulator.allTags, to: path) }
        if let path = options.statsPath { writeStatistics(statistics, to: path) }
    }

    /// The state file: the content of every tag the emulator served, rewritten after each
    /// change — a tag that left the field (torn away by `--fault tear-after`) included, as
    /// the tear left it; the next `emulate --state` puts every tag back into the field.
    struct StateFile: Codable {
        var tags: [TagSnapshot]
    }

    static func save(_ tags: [any EmulatedTag], to path: String) {
        guard let data = try? JSONEncoder().encode(StateFile(tags: tags.compactMap(TagSnapshot.init(of:)))) else {
            return
        }
        try? data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// `commands`, `bytes_to_reader` (host → emulated PN532), `bytes_from_reader`
    /// (PN532 → host), `modeled_ms` (the host link priced as the UART, or on a USB reader
    /// as full-speed bulk transfers, `usb_bulk_transfers` of them), and the frame counters.
    static func writeStatistics(_ statistics: EmulatorStatistics, to path: String) {
        let (seconds, attoseconds) = statistics.modelledTime.components
        let object: [String: Any] = [
            "commands": statistics.commands,
            "bytes_to_reader": statistics.bytesFromHost,
            "bytes_from_reader": statistics.bytesToHost,
            "frames_to_reader": statistics.framesFromHost,
            "frames_from_reader": statistics.framesToHost,
            "frames_to_tags": statistics.framesToTags,
            "frames_from_tags": statistics.framesFromTags,
            "modeled_ms": Double(seconds) * 1000 + Double(attoseconds) / 1e15,
            "usb_bulk_transfers": statistics.usbBulkTransfers,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        try? data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Every tag name the emulator knows (``EmulatedTagFactory/tagNames``), wrapped under `--tag`.
    static var tagNameLines: String {
        var lines: [String] = []
        var line = ""
        for name in EmulatedTagFactory.tagNames {
            if !line.isEmpty, line.count + 1 + name.count > 56 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + name
        }
        lines.append(line)
        return lines.map { "  " + $0 }.joined(separator: "\n")
    }

    static let spec = CommandSpec(
        "emulate", "an emulated PN532 reader with tags, on a pseudo-terminal", operands: "--tag TAG…",
        options: [
            OptionSpec(
                "--tag", value: "TAG…", help: "tags in the field (several: two are listed at once); names below"),
            OptionSpec(
                "--reader", value: "KIND",
                help: "pn532 (UART, default), acr122u or pn533 (USB: line 2 is the client's environment)"),
            OptionSpec(
                "--link", value: "PATH", help: "a stable symbolic link to the pseudo-terminal (USB: the socket)"),
            OptionSpec(
                "--state", value: "FILE", help: "load tag memory from FILE if it exists; save after every change"),
            OptionSpec("--realtime", help: "answer after the modelled time (115200 baud, 106 kbit/s, EEPROM)"),
            OptionSpec("--fault", value: "SPEC", help: "inject a fault (repeatable; the specs are below)"),
            OptionSpec(
                "--stats", value: "FILE",
                help: "on exit, JSON: commands, bytes_to_reader, bytes_from_reader, modeled_ms"),
            OptionSpec("--uid", value: "HEX", help: "the first tag's UID (to replay a real tag)"),
            OptionSpec("--signature", value: "HEX", help: "the first tag's READ_SIG answer (32 bytes)"),
            OptionSpec(
                "--print-signing-key",
                help: "print the emulator's signing key (secp128r1; secp224r1 with --tag ntag424dna)"),
        ],
        discussion: """
            Prints pn532_uart:PATH as its first line once ready, then serves until SIGINT or
            SIGTERM. Point libnfc at it with LIBNFC_DEVICE=pn532_uart:PATH (or --device).
            A USB reader prints its connection string, then the environment a client needs.

            Tags (--tag):
            \(tagNameLines)

            Faults (--fault): tear-after=N, tear-in-write=N[:SEED], nak-page=P, timeout-page=P,
            timeout-command=HEX, mute-command=HEX (the reader chip holds its answer: the host's
            wait runs out, an ACR122U answers ICC mute), eeprom-fail-page=P, garble-after=N,
            unplug-after=N, slow=MS, first-answer-delay=MS, max-baud=N. tear-after cuts between
            frames; tear-in-write cuts the Nth page write mid-cycle (the tag leaves without an
            answer, the page keeps seeded old/new bits, a tearing-protected page all old or all
            new); eeprom-fail-page leaves the tag in the field answering the EEPROM-error NAK.
            --stats prices a USB reader's link as full-speed bulk transfers.

            Examples:
              nfctag emulate --tag ntag215 --link "$XDG_RUNTIME_DIR/nfc0"
              nfctag emulate --tag ntag215 classic1k --stats stats.json --fault tear-after=40
              nfctag emulate --print-signing-key
            """)
}

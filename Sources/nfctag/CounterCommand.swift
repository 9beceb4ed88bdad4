import NFCTagKit

/// `nfctag counter [--enable]`: the NTAG21x NFC counter (`{"nfc_counter": N}`; `--enable`
/// turns NFC_CNT_EN on first) or the three Ultralight EV1 counters with their tearing
/// flags (`{"counters": [N, N, N]}`). `--password` authenticates first (for a
/// password-protected counter or configuration).
enum CounterCommand {
    static let spec = CommandSpec(
        "counter", "the tag's counters",
        options: [OptionSpec("--enable", help: "turn the NTAG NFC counter on first (NFC_CNT_EN)")] + TagOptions.specs,
        discussion: """
            NTAG21x: the NFC counter (reads of the tag in the field). Ultralight EV1: the three
            one-way counters and their tearing flags. --password authenticates first (a
            password-protected counter or configuration).
            With --json: {"nfc_counter": N} on NTAG, {"counters": [N, N, N], "tearing_valid": […]} on EV1.

            \(HelpText.chipCommon)

            Examples:
              nfctag counter --enable
              nfctag counter --json
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var enable = false
        var tagOptions = TagOptions()
        while let argument = try parser.next(of: spec) {
            if try tagOptions.consume(argument) { continue }
            switch argument.option {
            case "--enable": enable = true
            default: throw spec.unknown(argument.token)
            }
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        let printer = output
        try await ChipSession.run(parser.globals, command: "counter", pack: tagOptions.pack) {
            session throws(ToolError) in
            guard let chip = session.chip else {
                throw ChipSession.failure(.unknownChip(session.identification), command: "counter")
            }
            let kinds = Set(ChipTables.spec(for: chip).counters.map(\.kind))
            guard kinds.contains(.nfcReadCounter) || kinds.contains(.incrementCounters) else {
                throw ToolError(
                    exitCode: .failure, summary: "nfctag counter: \(chip.rawValue) has no counter that READ_CNT reads")
            }
            if enable, !kinds.contains(.nfcReadCounter) {
                throw .usage(
                    "nfctag counter: --enable is for the NTAG NFC counter; \(chip.rawValue) counters are always on")
            }
            let ntag: NFCType2Tag
            do throws(TagSessionError) {
                ntag = try session.type2Tag()
            } catch {
                throw ChipSession.failure(error, command: "counter")
            }
            if kinds.contains(.nfcReadCounter), !enable,
                let configuration = try? await ntag.readConfiguration(), configuration.isNFCCounterEnabled == false
            {
                throw ToolError(
                    exitCode: .failure,
                    summary: "nfctag counter: the NFC counter of this \(chip.rawValue) is disabled (NFC_CNT_EN = 0)",
                    detail: ["Turn it on with 'nfctag counter --enable'."])
            }
            do throws(TagSessionError) {
                if kinds.contains(.nfcReadCounter) {
                    try await nfcCounter(ntag, enable: enable, output: printer)
                } else {
                    try await oneWayCounters(ntag, output: printer)
                }
            } catch {
                throw ChipSession.failure(error, command: "counter")
            }
        }
    }

    /// NTAG21x: enables the counter when asked, then reads it.
    private static func nfcCounter(_ ntag: NFCType2Tag, enable: Bool, output: Output) async throws(TagSessionError) {
        if enable { try await ntag.setNFCCounter(enabled: true) }
        let value = try await ntag.readNFCCounter()
        if output.json {
            output.document(
                .object([
                    ("nfc_counter", .int(value)), ("uid", .string(ntag.uid.hexString())),
                    ("chip", .string(ChipSession.chipName(ntag.session))),
                ]))
        } else {
            output.line("NFC counter: \(value)\(enable ? " (counter enabled)" : "")")
        }
    }

    /// Ultralight EV1: the three counters and their tearing flags.
    private static func oneWayCounters(_ ntag: NFCType2Tag, output: Output) async throws(TagSessionError) {
        let values = try await ntag.readCounters()
        var tearing: [Bool] = []
        for address in ntag.counterAddresses { tearing.append(try await ntag.checkTearingEvent(address)) }
        if output.json {
            output.document(
                .object([
                    ("counters", .array(values.map(JSONValue.int))),
                    ("tearing_valid", .array(tearing.map(JSONValue.bool))),
                    ("uid", .string(ntag.uid.hexString())), ("chip", .string(ChipSession.chipName(ntag.session))),
                ]))
        } else {
            for (index, value) in values.enumerated() {
                let flag =
                    index < tearing.count ? (tearing[index] ? "" : " (tearing event: last increment incomplete)") : ""
                output.line("Counter \(index): \(value)\(flag)")
            }
        }
    }
}

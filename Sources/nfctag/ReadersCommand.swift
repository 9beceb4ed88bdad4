import NFCTagKit

/// `nfctag readers [--watch]`: the readers on this host (connstring, name, kind, serial,
/// firmware); `--watch` streams the list again whenever it changes.
enum ReadersCommand {
    static let spec = CommandSpec(
        "readers", "the NFC readers on this host",
        options: [OptionSpec("--watch", help: "keep running; print the list again whenever it changes")],
        discussion: """
            Lists each reader's connection string, name, kind, serial number (USB) and
            firmware; a reader held by the kernel's pn533 driver or by pcscd is shown with the
            fix. --device adds a reader that scanning cannot find (a UART reader, an emulator
            link). --watch keeps running and prints the list again whenever it changes.
            With --json: {"readers":[{"connstring","name","kind","serial","firmware"}]}.
            Exit code 3 when no reader is found.

            Examples:
              nfctag readers
              nfctag readers --device pn532_uart:/dev/ttyUSB0 --json
              nfctag readers --watch
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var watch = false
        while let argument = try parser.next(of: spec) {
            let token = argument.token
            guard token == "--watch" else {
                throw spec.unknown(token)
            }
            watch = true
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        var options = DiscoveryOptions()
        if let device = parser.globals.device {
            options.connectionStrings = [
                EmbeddedEmulator.isRequested(device) ? try EmbeddedEmulator.connectionString(for: device) : device
            ]
        }
        let globals = parser.globals
        let printer = output
        let watching = watch
        let sawReader = await Task {
            var sawReader = false
            let timeout: Duration? = watching ? nil : .seconds(globals.timeout)
            for await readers in NFCDevice.discoverReaders(timeout: timeout, options: options) {
                sawReader = sawReader || !readers.isEmpty
                if printer.json {
                    printer.document(.object([("readers", .array(readers.map(ReaderRendering.json)))]))
                } else {
                    if watching { printer.line("— \(readers.count) reader\(readers.count == 1 ? "" : "s")") }
                    readers.forEach { printer.line(ReaderRendering.line($0)) }
                }
                if !watching { break }
            }
            return sawReader
        }.valueCancellingOnSignal()
        if !sawReader && !watch {
            throw ReaderSelection.noReader()
        }
    }
}

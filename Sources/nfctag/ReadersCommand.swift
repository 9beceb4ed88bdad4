import NFCTagKit

/// `nfctag readers [--watch]`: the readers on this host (connstring, name, kind, serial,
/// firmware); `--watch` streams the list again whenever it changes.
enum ReadersCommand {
    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var watch = false
        while let token = parser.nextToken() {
            if try parser.consumeGlobal(token) { continue }
            guard token == "--watch" else {
                throw .usage("nfctag readers: unknown option '\(token)'", "Run 'nfctag readers --help'.")
            }
            watch = true
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(HelpText.readers)
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

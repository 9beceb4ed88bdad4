import NFCTagKit

/// `nfctag monitor`: connects and streams one line (with `--json`, one JSON object) per
/// reader event until interrupted: connected, disconnected (with reason),
/// reconnectStarted, reconnectSucceeded, reconnectFailed, tagDetected (uid, chip), tagRemoved.
enum MonitorCommand {
    static let spec = CommandSpec(
        "monitor", "stream reader and tag events until interrupted",
        options: [],
        discussion: """
            Connects (automatic reconnection on) and prints one line per event; with --json
            one object per line: {"event":"connected"}, {"event":"disconnected","reason":…},
            reconnectStarted, reconnectSucceeded, reconnectFailed,
            {"event":"tagDetected","uid":…,"chip":…}, {"event":"tagRemoved","uid":…}.

            Examples:
              nfctag monitor --device pn532_uart:/dev/ttyUSB0
              nfctag monitor --json | jq -c 'select(.event == "tagDetected")'
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        while let argument = try parser.next(of: spec) {
            throw spec.unknown(argument.token)
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        let globals = parser.globals
        let printer = output
        let device = NFCDevice()
        let events = device.events
        let printing = Task {
            for await event in events {
                if printer.json {
                    printer.document(ReaderRendering.json(event))
                } else {
                    printer.line(event.description)
                }
            }
        }
        let deadline = ContinuousClock.now + .seconds(globals.timeout)
        let connectionString = try await ReaderSelection.connectionString(for: globals)
        do throws(ToolError) {
            var configuration = ConnectionConfiguration()
            configuration.lastReaderStore = ReaderSelection.lastReaderStore(globals)
            _ = try await ReaderSelection.open(
                device, connectionString, configuration: configuration, timeout: globals.timeout,
                deadline: deadline)
        } catch {
            printing.cancel()
            throw error
        }
        let watching = Task { () -> NFCDeviceError? in
            do throws(NFCDeviceError) {
                try await device.watchTags()
                return nil
            } catch {
                return error
            }
        }
        let lost = await watching.valueCancellingOnSignal()
        await device.close()
        // Let the last events reach the printer.
        try? await Task.sleep(for: .milliseconds(50))
        printing.cancel()
        if let lost {
            throw ReaderSelection.failure(lost, connectionString: connectionString)
        }
    }
}

import NFCTagKit

/// `nfctag reset`: resets ("reboots") a wedged reader through the library's
/// `NFCDevice.reset()` — the chip powered down where it allows, the reader closed and
/// opened again — and reports its firmware after the reset and the time taken.
/// `--json`: `{"reset": true, "firmware": TEXT, "ms": N}`. A reader that cannot be reset
/// (gone, or not answering after the reset) exits 1 with the reason.
enum ResetCommand {
    static let spec = CommandSpec(
        "reset", "reset (\"reboot\") a wedged reader",
        options: [],
        discussion: """
            Powers the reader chip down where it allows, closes the reader and opens it again
            (NFCDevice.reset()), then prints the firmware it reports and the time taken. A reader
            that cannot be reset — gone, or silent after the reset — exits 1 with the reason.
            With --json: {"reset": true, "firmware": TEXT, "ms": N}.

            A PN532 on a serial port that a killed program left at a fast speed is found there
            and left at 115 200 baud, where libnfc's own tools (nfc-list) look for it.

            Examples:
              nfctag reset --device pn532_uart:/dev/ttyUSB0
              nfctag reset --json
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        while let argument = try parser.next(of: spec) {
            let token = argument.token
            throw spec.unknown(token)
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        var configuration = ConnectionConfiguration()
        // One shot: the reset reopens the reader itself; a reader that stays away is reported at once.
        configuration.reconnection.isEnabled = false
        configuration.livenessInterval = nil
        let (device, info) = try await ReaderSelection.connect(parser.globals, configuration: configuration)
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try await device.reset()
        } catch {
            await device.close()
            throw ToolError(
                exitCode: .failure, summary: "nfctag reset: \(info.connectionString) could not be reset: \(error)",
                detail: ["Unplug the reader and plug it in again; 'nfctag readers' shows whether it is back."])
        }
        let elapsed = clock.now - start
        let firmware = await device.readerInfo?.firmware
        await device.close()
        let milliseconds = Int((elapsed / .milliseconds(1)).rounded())
        let firmwareText = firmware?.description ?? "unknown"
        if output.json {
            output.document(
                .object([("reset", .bool(true)), ("firmware", .string(firmwareText)), ("ms", .int(milliseconds))]))
        } else {
            output.line("Reset \(info.connectionString) in \(milliseconds) ms; firmware \(firmwareText).")
        }
    }
}

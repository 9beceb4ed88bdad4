import NFCTagKit

/// `nfctag scan [--watch]`: the tags in the field — UID, ATQA, SAK, chip, NDEF status.
/// With `--json` one object per tag per line; `--watch` streams tags as they arrive
/// (`"event":"tagDetected"`) and leave (`"event":"tagRemoved"`) until Ctrl-C.
enum ScanCommand {
    static let spec = CommandSpec(
        "scan", "the tags in the field",
        options: [OptionSpec("--watch", help: "keep scanning until Ctrl-C; stream tags as they come and go")]
            + TagOptions.specs,
        discussion: """
            Waits up to --timeout for a tag, then prints each tag in the field: UID, chip,
            ATQA, SAK and NDEF status (status, length and capacity; queried only when one tag
            is alone in the field). With --json one object per tag per line:
            {"uid","chip","atqa","sak","ndef":{"status","capacity","length"}|null}.
            --watch keeps scanning until Ctrl-C and streams {"event":"tagDetected",…} and
            {"event":"tagRemoved","uid"} as tags come and go.
            Exit codes: 0, 3 no reader, 4 no tag within --timeout.

            Examples:
              nfctag scan --device pn532_uart:/dev/ttyUSB0
              nfctag scan --watch --json
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var watch = false
        var options = TagOptions()
        while let argument = try parser.next(of: spec) {
            let token = argument.token
            if try options.consume(argument) { continue }
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
        let globals = parser.globals
        let (device, session) = try await TagSelection.beginSession(globals, options: options)
        let printer = output
        if watch {
            let events = session.events
            await Task {
                var reported: Set<[UInt8]> = []
                for await event in events {
                    switch event {
                    case .tagsDetected(let tags):
                        for tag in tags where !reported.contains(tag.uid) {
                            reported.insert(tag.uid)
                            let status = tags.count == 1 ? await status(of: tag, session: session) : nil
                            report(tag, status: status, event: "tagDetected", printer: printer)
                        }
                    case .tagRemoved(let tag):
                        reported.remove(tag.uid)
                        if printer.json {
                            printer.document(
                                .object([("event", .string("tagRemoved")), ("uid", .string(tag.uid.hexString()))]))
                        } else {
                            printer.line("removed \(tag.uid.hexString())")
                        }
                    default:
                        continue
                    }
                }
            }.valueCancellingOnSignal()
            await session.invalidate()
            await device.close()
            return
        }
        do {
            let tags = try await TagSelection.waitForTags(session, globals: globals)
            for tag in tags {
                let status = tags.count == 1 ? await status(of: tag, session: session) : nil
                report(tag, status: status, event: nil, printer: printer)
            }
        } catch {
            await session.invalidate()
            await device.close()
            throw error
        }
        await session.invalidate()
        await device.close()
    }

    /// Connects to the tag alone in the field, queries its NDEF status, and polls again.
    private static func status(of tag: NDEFDetectedTag, session: NDEFSession) async -> NDEFStatus? {
        let connected: (any NFCNDEFTag)?
        do {
            connected = try await session.connect(to: tag)
        } catch .unsupportedTag {
            connected = nil
        } catch {
            return nil
        }
        let (status, _) = await TagRendering.status(of: connected)
        try? await session.restartPolling()
        return status
    }

    private static func report(_ tag: NDEFDetectedTag, status: NDEFStatus?, event: String?, printer: Output) {
        if printer.json {
            var fields: [(String, JSONValue)] = event.map { [("event", .string($0))] } ?? []
            fields += TagRendering.identity(tag)
            fields.append(("ndef", status.map(TagRendering.json) ?? .null))
            printer.document(.object(fields))
        } else {
            printer.line("\(TagRendering.line(tag))  \(TagRendering.line(status))")
        }
    }
}

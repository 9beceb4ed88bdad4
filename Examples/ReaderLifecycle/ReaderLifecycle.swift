import NFCTagKit
#if canImport(Glibc)
import Glibc
#endif

/// Discover a reader, connect to it, and follow its lifecycle: `connected`, a tag
/// presented, then — when the reader is unplugged and plugged back — `reconnectStarted`
/// and `reconnectSucceeded`, with no code of ours in between: the device reconnects by
/// itself.
///
/// Usage: `ReaderLifecycle [CONNSTRING] [--seconds N]` (CONNSTRING or `LIBNFC_DEVICE`;
/// neither: the first reader discovered). Ends after the reader came back, or after N
/// seconds (default 60).
@main
struct ReaderLifecycle {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let seconds =
            arguments.firstIndex(of: "--seconds").flatMap { index in
                index + 1 < arguments.count ? Int(arguments[index + 1]) : nil
            } ?? 60

        // 1. Which reader: the argument, LIBNFC_DEVICE, or discovery.
        guard let connectionString = await chooseReader(arguments) else {
            say("No NFC reader found. Plug one in, or name it: ReaderLifecycle pn532_uart:/dev/ttyUSB0")
            exit(3)
        }

        // 2. Subscribe to the events first, then connect: every event is seen, in order.
        let device = NFCDevice()
        let events = device.events
        let watcher = Task { () -> Bool in
            for await event in events {
                say("event: \(event)")
                switch event {
                case .reconnectSucceeded: return true
                case .disconnected: return false
                default: continue
                }
            }
            return false
        }
        do {
            let info = try await device.connect(toConnectionString: connectionString)
            say(
                "Connected to \(info.name) (\(info.connectionString)), firmware \(info.firmware?.description ?? "unknown")"
            )
        } catch {
            say("Cannot open \(connectionString): \(error)")
            exit(3)
        }

        // 3. A tag, if one comes within 5 s.
        say("Hold a tag to the reader (5 s)…")
        do {
            let target = try await device.waitForTarget(timeout: .seconds(5))
            say("Tag: \(target)")
        } catch {
            say("No tag: \(error)")
        }

        // 4. The reconnection: unplug the reader and plug it back.
        say("Unplug the reader and plug it back within \(seconds) s: the device reconnects by itself.")
        let reconnected = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await watcher.value }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            watcher.cancel()
            return first
        }
        say(
            reconnected
                ? "The reader is back: \(await device.status)." : "No reconnection seen; status \(await device.status)."
        )
        await device.close()
    }

    /// The first argument that is not an option, `LIBNFC_DEVICE`, or the first usable
    /// reader discovered within 5 s.
    static func chooseReader(_ arguments: [String]) async -> String? {
        var skipNext = false
        for argument in arguments {
            if skipNext {
                skipNext = false
                continue
            }
            if argument == "--seconds" {
                skipNext = true
                continue
            }
            if !argument.hasPrefix("--") { return argument }
        }
        if let variable = getenv("LIBNFC_DEVICE"), let value = String(validatingCString: variable), !value.isEmpty {
            return value
        }
        say("Discovering readers (up to 5 s)…")
        for await readers in NFCDevice.discoverReaders(timeout: .seconds(5)) {
            for reader in readers {
                say("  found \(reader)" + (reader.inUse.map { " — in use: \($0)" } ?? ""))
            }
            if let usable = readers.first(where: { $0.inUse == nil }) { return usable.connectionString }
        }
        return nil
    }

    /// Prints a line at once (`print` holds lines back when stdout is a pipe, and this
    /// program's lines are events that matter as they happen).
    static func say(_ text: String) {
        let line = Array((text + "\n").utf8)
        _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }
}

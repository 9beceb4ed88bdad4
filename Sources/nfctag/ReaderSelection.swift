import Foundation
import NFCTagKit

/// Which reader a command uses, in the contract's order: `--device`, then
/// `LIBNFC_DEVICE`, then the last reader this machine used, then the first reader
/// discovered within `--timeout`. No reader at all is exit code 3, with the usual causes.
enum ReaderSelection {
    /// The connection string to open.
    static func connectionString(for globals: GlobalOptions) async throws(ToolError) -> String {
        if let device = globals.device {
            return EmbeddedEmulator.isRequested(device) ? try EmbeddedEmulator.connectionString(for: device) : device
        }
        if let environment = ProcessInfo.processInfo.environment["LIBNFC_DEVICE"], !environment.isEmpty {
            return environment
        }
        if let last = LastReaderStore().load(), isStillPresent(last.connectionString) {
            return last.connectionString
        }
        for await readers in NFCDevice.discoverReaders(timeout: .seconds(globals.timeout)) {
            if let usable = readers.first(where: { $0.inUse == nil }) {
                return usable.connectionString
            }
            if let held = readers.first {
                throw ToolError(
                    exitCode: .noReader,
                    summary: "nfctag: the reader \(held.name) is in use",
                    detail: [held.inUse?.description ?? ""])
            }
        }
        throw noReader()
    }

    /// Opens the chosen reader on a new device actor.
    static func connect(
        _ globals: GlobalOptions,
        configuration: ConnectionConfiguration = ConnectionConfiguration()
    )
        async throws(ToolError) -> (NFCDevice, ReaderInfo)
    {
        let deadline = ContinuousClock.now + .seconds(globals.timeout)
        let connectionString = try await connectionString(for: globals)
        var configuration = configuration
        configuration.lastReaderStore = lastReaderStore(globals)
        let device = NFCDevice()
        let info = try await open(
            device, connectionString, configuration: configuration, timeout: globals.timeout, deadline: deadline)
        return (device, info)
    }

    /// Connects `device`, waiting until `deadline` (`--timeout` from the command's start: the
    /// contract's "wait for a reader") for a reader that is away for a moment — unplugged, not
    /// yet enumerated, still held by a process that is exiting — and saying once on stderr
    /// what it waits for. A signal ends the wait (the command stops as any other).
    static func open(
        _ device: NFCDevice, _ connectionString: String, configuration: ConnectionConfiguration, timeout: Double,
        deadline: ContinuousClock.Instant
    ) async throws(ToolError) -> ReaderInfo {
        var told = false
        while true {
            do {
                return try await device.connect(toConnectionString: connectionString, configuration: configuration)
            } catch {
                guard isWorthWaiting(error), ContinuousClock.now < deadline, !Task.isCancelled else {
                    if Task.isCancelled {
                        throw ToolError(
                            exitCode: .failure,
                            summary:
                                "nfctag: stopped while waiting for the reader \(connectionString); no tag was touched")
                    }
                    throw failure(error, connectionString: connectionString)
                }
                if !told {
                    told = true
                    Output().note(
                        "nfctag: waiting up to \(ChipSession.seconds(timeout)) s for the reader \(connectionString): \(error)"
                    )
                }
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    /// A reader that may come back within the wait: not one that can never open.
    private static func isWorthWaiting(_ error: NFCDeviceError) -> Bool {
        switch error {
        case .readerNotFound, .readerInUse, .connectionLost, .libnfc: true
        default: false
        }
    }

    /// Where the tool remembers the reader it used (the contract's third choice): the user's
    /// last-reader file, but for the embedded emulator, a pseudo-terminal that vanishes with
    /// this process and so no reader to come back to.
    static func lastReaderStore(_ globals: GlobalOptions) -> LastReaderStore? {
        if let device = globals.device, EmbeddedEmulator.isRequested(device) { return nil }
        return LastReaderStore()
    }

    /// False when the remembered reader is a serial device or link that no longer exists
    /// (an unplugged UART adapter, an emulator link from an earlier run): then discovery
    /// picks a reader instead of failing on a stale path.
    static func isStillPresent(_ connectionString: String) -> Bool {
        let parts = connectionString.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count >= 2, parts[1].hasPrefix("/") else { return true }
        return FileManager.default.fileExists(atPath: parts[1])
    }

    /// The exit-code-3 error, with what usually keeps a reader from being found.
    static func noReader() -> ToolError {
        ToolError(
            exitCode: .noReader, summary: "nfctag: no NFC reader found",
            detail: [
                "Name one with --device CONNSTRING (e.g. pn532_uart:/dev/ttyUSB0) or try --device emulator.",
                "A USB reader held by the kernel: sudo modprobe -r pn533_usb pn533 nfc (and blacklist them).",
                "A USB reader held by pcscd: sudo systemctl stop pcscd.socket pcscd.",
                "Permissions: add yourself to the dialout group (serial) or install a udev rule (USB).",
            ])
    }

    /// A device error as the tool reports it.
    static func failure(_ error: NFCDeviceError, connectionString: String) -> ToolError {
        switch error {
        case .readerInUse(let inUse):
            ToolError(
                exitCode: .noReader, summary: "nfctag: the reader \(connectionString) is in use",
                detail: [inUse.description])
        case .readerNotFound, .connectionLost, .libnfc:
            ToolError(
                exitCode: .noReader, summary: "nfctag: cannot open the reader \(connectionString)",
                detail: ["\(error)"] + noReader().detail)
        case .timeout:
            ToolError(exitCode: .noTag, summary: "nfctag: timed out", detail: ["\(error)"])
        default:
            ToolError(exitCode: .failure, summary: "nfctag: \(error)")
        }
    }
}

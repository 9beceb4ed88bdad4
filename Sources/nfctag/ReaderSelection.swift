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
        let connectionString = try await connectionString(for: globals)
        var configuration = configuration
        configuration.lastReaderStore = lastReaderStore(globals)
        let device = NFCDevice()
        do {
            let info = try await device.connect(toConnectionString: connectionString, configuration: configuration)
            return (device, info)
        } catch {
            throw failure(error, connectionString: connectionString)
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

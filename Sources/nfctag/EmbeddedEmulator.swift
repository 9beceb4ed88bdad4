import NFCEmulator
import Locking

/// `--device emulator[:TAG[,TAG…]]`: the embedded emulated PN532, started in this process
/// and reached through libnfc on its pseudo-terminal like any UART reader. It lives until
/// the tool exits.
enum EmbeddedEmulator {
    private static let running = Locked<PN532Emulator?>(nil)

    /// True for `emulator` and `emulator:TAG,…`.
    static func isRequested(_ device: String) -> Bool {
        device == "emulator" || device.hasPrefix("emulator:")
    }

    /// Starts the emulator that `device` names (once) and returns its connection string.
    static func connectionString(for device: String) throws(ToolError) -> String {
        let names = device.dropFirst("emulator".count).drop { $0 == ":" }
            .split(separator: ",").map(String.init)
        let tagNames = names.isEmpty ? ["ntag215"] : names
        let emulator: PN532Emulator
        do {
            emulator = try PN532Emulator.started(tagNames: tagNames)
        } catch {
            throw .usage("nfctag: --device \(device): \(error)",
                         "Tags: \(EmulatedTagFactory.tagNames.joined(separator: " "))")
        }
        running.withLock { $0 = emulator }
        return emulator.connectionString
    }
}

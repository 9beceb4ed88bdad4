import Foundation

/// A reader that is present but held by someone else, with who holds it and the fix.
/// Users of libnfc meet this as "Unable to claim USB interface"; NFCTagKit names the cause.
public struct ReaderInUse: Sendable, Hashable, CustomStringConvertible {
    /// Who holds the reader.
    @nonexhaustive
    public enum Holder: Sendable, Hashable {
        /// Linux's own NFC stack: these kernel modules (`pn533_usb`, `pn533`, `nfc`) bind the reader.
        case kernelModules([String])
        /// The PC/SC daemon claims the reader (ACR122U and others with a CCID interface).
        case pcscd
        /// Another program has the serial port open: an NFCTagKit program (its lock on the
        /// port) or another libnfc program (libnfc's "claimed" flag, on kernels that keep it).
        case otherProgram
    }

    /// Who holds the reader.
    public var holder: Holder
    /// What to run or change to free it.
    public var fix: String

    /// Creates a diagnosis.
    package init(holder: Holder, fix: String) {
        self.holder = holder
        self.fix = fix
    }

    /// One sentence naming the holder, then the fix.
    public var description: String {
        switch holder {
        case .kernelModules(let modules):
            "The reader is held by the kernel NFC driver (\(modules.joined(separator: ", "))). Fix: \(fix)"
        case .pcscd:
            "The reader is held by pcscd. Fix: \(fix)"
        case .otherProgram:
            "The reader's port is open in another program. Fix: \(fix)"
        }
    }

    /// Kernel modules that grab PN533-family and ACR122 readers.
    static let kernelModuleNames = ["pn533_usb", "pn533", "nfc"]

    /// The facts a diagnosis reads from the system, injectable for tests.
    struct SystemFacts: Sendable {
        /// Names of loaded kernel modules (first column of `/proc/modules`).
        var loadedModules: @Sendable () -> [String]
        /// Command names of running processes (`/proc/<pid>/comm`).
        var processNames: @Sendable () -> [String]
        /// True when a serial port carries libnfc's "claimed" flag (bit 31 of `c_iflag`).
        var portClaimed: @Sendable (String) -> Bool
        /// Other processes holding NFCTagKit's lock on a serial port, as "name (pid N)".
        var portLockHolders: @Sendable (String) -> [String] = { _ in [] }

        /// The live system.
        static let live = SystemFacts(
            loadedModules: {
                guard let text = try? String(contentsOfFile: "/proc/modules", encoding: .utf8) else { return [] }
                return text.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
            },
            processNames: {
                let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
                return entries.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
                    (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                }
            },
            portClaimed: { path in
                let descriptor = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
                guard descriptor >= 0 else { return false }
                defer { close(descriptor) }
                var settings = termios()
                guard tcgetattr(descriptor, &settings) == 0 else { return false }
                return settings.c_iflag & 0x8000_0000 != 0
            },
            portLockHolders: SerialPortLock.holders(ofPath:)
        )
    }

    /// Why `reader` could not be opened, when the cause is someone else holding it; nil
    /// when nothing points that way.
    static func diagnose(connectionString: String, facts: SystemFacts = .live) -> ReaderInUse? {
        let kind = ReaderKind(connectionString: connectionString)
        switch kind {
        case .pn53xUSB, .acr122USB:
            let loaded = Set(facts.loadedModules())
            let holding = kernelModuleNames.filter(loaded.contains)
            if !holding.isEmpty {
                return ReaderInUse(
                    holder: .kernelModules(holding),
                    fix: "sudo modprobe -r \(holding.joined(separator: " ")), then keep them out with "
                        + "`printf 'blacklist pn533_usb\\nblacklist pn533\\nblacklist nfc\\n' | sudo tee /etc/modprobe.d/blacklist-libnfc.conf`"
                )
            }
            if facts.processNames().contains("pcscd") {
                return ReaderInUse(
                    holder: .pcscd,
                    fix: "sudo systemctl stop pcscd.socket pcscd (or use the acr122_pcsc driver through PC/SC)")
            }
            return nil
        case .pn532UART, .arygon:
            guard let node = ReaderNode(connectionString: connectionString), node.exists,
                !OpenReaderRegistry.shared.contains(connectionString)
            else { return nil }
            let holders = facts.portLockHolders(node.path)
            if !holders.isEmpty {
                return ReaderInUse(
                    holder: .otherProgram, fix: "end \(holders.joined(separator: ", ")), which has \(node.path) open")
            }
            guard facts.portClaimed(node.path) else { return nil }
            return ReaderInUse(
                holder: .otherProgram,
                fix: "close the other program using \(node.path) (`fuser -v \(node.path)` names it; "
                    + "if none has it open, a program killed while it held the port left libnfc's flag set: "
                    + "unplug the adapter and plug it in again)")
        default:
            return nil
        }
    }
}

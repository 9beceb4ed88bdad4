import Foundation
import Glibc
import NFCEmulator
import Locking

/// An emulated PN532 that can misbehave the way a wedged chip does, to test what
/// libnfc's abort and our timeouts do with an answer that never comes:
/// - ``Mode/stallSelect``: InListPassiveTarget is ACKed but never answered (the chip is
///   "still looking"); only `nfc_abort_command` ends libnfc's wait.
/// - ``Mode/mute``: nothing is answered at all, not even the ACK.
final class StallingPN532: @unchecked Sendable {
    enum Mode: Sendable { case normal, stallSelect, mute }

    private static let ack: [UInt8] = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
    private static let inListPassiveTarget: [UInt8] = [0xD4, 0x4A]

    private let terminal: PseudoTerminal
    private let state: Locked<(controller: PN532Controller, mode: Mode, stalledSelects: Int, running: Bool)>
    private let finished = DispatchSemaphore(value: 0)

    init(link: String) throws {
        terminal = try PseudoTerminal(link: link)
        state = Locked((PN532Controller(), .normal, 0, true))
        let thread = Thread { [self] in loop() }
        thread.start()
    }

    var connectionString: String { "pn532_uart:" + terminal.clientPath }

    var mode: Mode {
        get { state.withLock { $0.mode } }
        set { state.withLock { $0.mode = newValue } }
    }

    /// InListPassiveTarget commands swallowed so far.
    var stalledSelects: Int { state.withLock { $0.stalledSelects } }

    func stop() {
        let wasRunning = state.withLock { state -> Bool in
            defer { state.running = false }
            return state.running
        }
        if wasRunning { finished.wait() }
        terminal.close()
    }

    private func loop() {
        defer { finished.signal() }
        while state.withLock({ $0.running }) {
            var descriptor = pollfd(fd: terminal.masterDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            guard let bytes = try? terminal.readAvailable(), !bytes.isEmpty else { continue }
            let output: [UInt8] = state.withLock { state in
                switch state.mode {
                case .mute:
                    return []
                case .stallSelect where Self.contains(bytes, Self.inListPassiveTarget):
                    state.stalledSelects += 1
                    return Self.ack
                default:
                    // Includes libnfc's abort ACK, which the controller takes as "drop the pending reply".
                    return state.controller.receive(bytes)
                }
            }
            if !output.isEmpty { try? terminal.write(output) }
        }
    }

    private static func contains(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
        guard bytes.count >= pattern.count else { return false }
        return (0...(bytes.count - pattern.count)).contains { Array(bytes[$0..<($0 + pattern.count)]) == pattern }
    }
}

import Foundation
import Glibc
import NFCChips
import Testing
@testable import NFCEmulator

/// A client that switches the PN532's speed and at once opens the port again at the new
/// speed, flushing it as it opens (`tcflush(TCIOFLUSH)`, as serial libraries do): the pty
/// discards whatever the client wrote that the emulator had not read yet — usually the
/// committing ACK — where a real UART had put it on the line.
@Suite("Bytes the host wrote before it closed the port are never lost", .serialized)
struct SerialFlushTests {
    /// One open of the port, 8N1 raw at `speed`, closed when dropped.
    private struct Port: ~Copyable {
        let descriptor: Int32

        init(path: String, speed: speed_t, flushOnOpen: Bool) throws {
            descriptor = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
            guard descriptor >= 0 else { throw POSIXError(.EIO) }
            var attributes = termios()
            tcgetattr(descriptor, &attributes)
            cfmakeraw(&attributes)
            attributes.c_cflag |= tcflag_t(CLOCAL | CREAD)
            cfsetispeed(&attributes, speed)
            cfsetospeed(&attributes, speed)
            tcsetattr(descriptor, TCSANOW, &attributes)
            if flushOnOpen { tcflush(descriptor, TCIOFLUSH) }
        }

        deinit { close(descriptor) }

        func send(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }

        /// Waits (bounded) until `expected` bytes have come.
        func receive(_ expected: Int) -> [UInt8] {
            var received: [UInt8] = []
            for _ in 0..<500 where received.count < expected {
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 10) > 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 64)
                let count = read(descriptor, &buffer, 64)
                if count > 0 { received += buffer.prefix(count) }
            }
            return received
        }
    }

    private static let spec = ChipTables.pn532
    /// Without the emulator reading the flush, some ACKs of 40 were lost in 5 runs of 6 on a
    /// loaded 2-core machine (3 to 23 each); 100 make a run without a loss unlikely.
    private static let rounds = 100
    private static let speeds: [(baud: Int, constant: speed_t)] = [
        (115_200, speed_t(B115200)), (460_800, speed_t(B460800)),
    ]

    /// `00 00 FF LEN LCS D4 10 code DCS 00`.
    private static func setSerialBaudRate(to baud: Int) throws -> [UInt8] {
        let code = try #require(spec.serialBaudRates.first { $0.baud == baud }?.code)
        let body: [UInt8] = [spec.frame.hostToChipTFI, spec.code(.setSerialBaudRate), code]
        let length = UInt8(body.count)
        return spec.frame.preamble + spec.frame.startCode + [length, PN532FrameSpec.lengthChecksum(length)] + body
            + [PN532FrameSpec.dataChecksum(body)] + spec.frame.postamble
    }

    /// Waits (bounded) until the emulated chip runs at `baud`.
    private static func chipReaches(_ baud: Int, _ emulator: PN532Emulator) -> Bool {
        for _ in 0..<200 {
            if emulator.statistics.uartBaud == baud { return true }
            usleep(1000)
        }
        return emulator.statistics.uartBaud == baud
    }

    @Test(
        "100 switches, each ACK followed at once by a close, a reopen at the new speed and a flush: the chip follows every one"
    )
    func ackBeforeReopenWithFlush() throws {
        let emulator = try PN532Emulator(tags: [])
        try emulator.start()
        defer { emulator.stop() }
        let answerBytes = Self.spec.frame.ackFrame.count + 9  // ACK, then D5 11 in a normal frame
        var missed = 0
        for round in 0..<Self.rounds {
            let (from, to) =
                round.isMultiple(of: 2) ? (Self.speeds[0], Self.speeds[1]) : (Self.speeds[1], Self.speeds[0])
            do {
                let port = try Port(path: emulator.devicePath, speed: from.constant, flushOnOpen: false)
                port.send(try Self.setSerialBaudRate(to: to.baud))
                let answer = port.receive(answerBytes)
                try #require(answer.count == answerBytes, "round \(round): \(answer)")
                port.send(Self.spec.frame.ackFrame)  // commits the switch; the port closes right after
            }
            _ = try Port(path: emulator.devicePath, speed: to.constant, flushOnOpen: true)
            if !Self.chipReaches(to.baud, emulator) {
                missed += 1
                // Put the chip where the next round expects it, as a fresh start would.
                let port = try Port(path: emulator.devicePath, speed: from.constant, flushOnOpen: false)
                port.send(try Self.setSerialBaudRate(to: to.baud))
                _ = port.receive(answerBytes)
                port.send(Self.spec.frame.ackFrame)
                usleep(20_000)
            }
        }
        #expect(missed == 0, "\(missed) of \(Self.rounds) committing ACKs lost")
        #expect(emulator.statistics.commandsByCode[Self.spec.code(.setSerialBaudRate)] == Self.rounds + missed)
    }
}

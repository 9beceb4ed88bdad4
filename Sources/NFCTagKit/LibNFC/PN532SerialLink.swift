import Glibc
import NFCChips

/// Why a PN532 UART speed switch did not happen. Internal: a failed switch falls back to
/// the speed the chip is at, it never reaches the app.
struct PN532SerialLinkError: Error, Equatable, Sendable, CustomStringConvertible {
    enum Reason: Equatable, Sendable {
        /// A system call on the port failed (`operation`, `errno`).
        case system(String, Int32)
        /// Another program has claimed the port (libnfc's claim flag is set).
        case claimed
        /// The chip sent nothing recognisable within the answer timeout.
        case noAnswer
        /// The chip answered with an error frame: it does not take that speed.
        case refused
        /// libnfc's serial layer cannot drive this speed.
        case speedNotDriven(Int)
    }

    var path: String
    var reason: Reason

    var description: String {
        switch reason {
        case let .system(operation, code): "\(path): \(operation): \(String(cString: strerror(code)))"
        case .claimed: "\(path) is claimed by another program"
        case .noAnswer: "\(path): the PN532 did not answer"
        case .refused: "\(path): the PN532 refused the speed"
        case let .speedNotDriven(speed): "\(path): libnfc cannot drive \(speed) baud"
        }
    }
}

/// The PN532's serial speed (SetSerialBaudRate, UM0701-02 §7.2.8), switched on a port
/// libnfc does not hold: libnfc 1.8.0 has no public call that sends a chip command, and
/// `pn532_uart:PATH:SPEED` only sets the host's side. The port is opened here as libnfc's
/// `uart.c` opens it (8N1 raw, its claim flag set), the exchange is made, and the port is
/// closed again before libnfc opens it at the new speed.
enum PN532SerialLink {
    /// The speed a PN532 starts at and libnfc's `pn532_uart` opens at by default.
    static let standardSpeed = ChipTables.pn532.timing.uartBaud

    /// The speeds libnfc's `uart_set_speed` maps (`libnfc/buses/uart.c`); any other speed
    /// is refused there and the port left as it was.
    private static let libnfcSpeeds: [Int: speed_t] = [
        9_600: speed_t(B9600), 19_200: speed_t(B19200), 38_400: speed_t(B38400), 57_600: speed_t(B57600),
        115_200: speed_t(B115200), 230_400: speed_t(B230400), 460_800: speed_t(B460800),
    ]

    /// Speeds above the standard one that both the chip and libnfc handle, fastest first.
    static var fasterSpeeds: [Int] {
        ChipTables.pn532.serialBaudRates.map(\.baud)
            .filter { $0 > standardSpeed && libnfcSpeeds[$0] != nil }
            .sorted(by: >)
    }

    /// libnfc's "port claimed" bit of `c_iflag` (`CCLAIMED` in `uart.c`).
    private static let claimedFlag: tcflag_t = 0x8000_0000
    /// How long the chip may take to answer one command on this link.
    static let answerTimeoutMilliseconds: Int32 = 200

    /// Switches the PN532 on `path` to `target` baud and returns the speed it runs at
    /// afterwards: `target`, or the speed it was found at when it refuses `target`.
    ///
    /// The chip keeps the speed it was last given until a reset or power-off, so a program
    /// that died without switching it back leaves it anywhere. It is looked for at `likely`
    /// first, then at 115 200, then at the faster speeds (fastest first): at each one the HSU
    /// wake-up and SAMConfiguration (it may be powered down or in LowVbat); silence means
    /// the wrong speed. Where it answers, SetSerialBaudRate, its answer at that speed, then
    /// the host ACK that commits the switch, drained onto the line before the port is closed.
    @discardableResult
    static func switchSpeed(path: String, from likely: Int, to target: Int) throws(PN532SerialLinkError) -> Int {
        let spec = ChipTables.pn532
        guard let code = spec.serialBaudRates.first(where: { $0.baud == target })?.code, libnfcSpeeds[target] != nil
        else {
            throw PN532SerialLinkError(path: path, reason: .speedNotDriven(target))
        }
        var candidates = [likely, standardSpeed] + fasterSpeeds
        candidates = candidates.enumerated().filter { !candidates[..<$0.offset].contains($0.element) }.map(\.element)
        let port = try Port(path: path, speed: candidates[0])
        var found: Int?
        for speed in candidates where libnfcSpeeds[speed] != nil {
            try port.setSpeed(speed)
            // libnfc's HSU wake-up: the preamble, then zeros while the chip wakes.
            try port.write(spec.frame.wakeUpPreamble + [UInt8](repeating: 0, count: 14))
            do {
                try port.exchange(.samConfiguration, [spec.samModes[.normal].code])
                found = speed
                break
            } catch  where error.reason == .noAnswer {
                continue
            }
        }
        guard let current = found else { throw PN532SerialLinkError(path: path, reason: .noAnswer) }
        guard current != target else { return target }
        do {
            try port.exchange(.setSerialBaudRate, [code])
        } catch  where error.reason == .refused {
            return current
        }
        try port.write(spec.frame.ackFrame)
        return target
    }

    /// One open port, closed (and its settings restored) when dropped.
    private struct Port: ~Copyable {
        let path: String
        let descriptor: Int32
        let saved: termios

        init(path: String, speed: Int) throws(PN532SerialLinkError) {
            self.path = path
            let descriptor = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { throw PN532SerialLinkError(path: path, reason: .system("open", errno)) }
            var saved = termios()
            guard tcgetattr(descriptor, &saved) == 0 else {
                let error = PN532SerialLinkError(path: path, reason: .system("tcgetattr", errno))
                close(descriptor)
                throw error
            }
            guard saved.c_iflag & PN532SerialLink.claimedFlag == 0 else {
                close(descriptor)
                throw PN532SerialLinkError(path: path, reason: .claimed)
            }
            var raw = saved
            cfmakeraw(&raw)
            raw.c_cflag |= tcflag_t(CLOCAL | CREAD)
            raw.c_iflag = PN532SerialLink.claimedFlag | tcflag_t(IGNPAR)
            let baud = PN532SerialLink.libnfcSpeeds[speed] ?? speed_t(B115200)
            cfsetispeed(&raw, baud)
            cfsetospeed(&raw, baud)
            guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else {
                let error = PN532SerialLinkError(path: path, reason: .system("tcsetattr", errno))
                close(descriptor)
                throw error
            }
            tcflush(descriptor, TCIFLUSH)
            self.descriptor = descriptor
            self.saved = saved
        }

        deinit {
            var saved = saved
            tcsetattr(descriptor, TCSANOW, &saved)
            close(descriptor)
        }

        /// Runs the host's side at `speed` from now on; what arrived before is thrown away.
        func setSpeed(_ speed: Int) throws(PN532SerialLinkError) {
            var settings = termios()
            guard tcgetattr(descriptor, &settings) == 0 else {
                throw PN532SerialLinkError(path: path, reason: .system("tcgetattr", errno))
            }
            let baud = PN532SerialLink.libnfcSpeeds[speed] ?? speed_t(B115200)
            if cfgetospeed(&settings) != baud {
                cfsetispeed(&settings, baud)
                cfsetospeed(&settings, baud)
                guard tcsetattr(descriptor, TCSADRAIN, &settings) == 0 else {
                    throw PN532SerialLinkError(path: path, reason: .system("tcsetattr", errno))
                }
            }
            tcflush(descriptor, TCIFLUSH)
        }

        /// Writes all of `bytes` and waits until they have left the host.
        func write(_ bytes: [UInt8]) throws(PN532SerialLinkError) {
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes {
                    Glibc.write(descriptor, $0.baseAddress! + offset, bytes.count - offset)
                }
                if written < 0 {
                    guard errno == EAGAIN || errno == EINTR else {
                        throw PN532SerialLinkError(path: path, reason: .system("write", errno))
                    }
                    var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&entry, 1, PN532SerialLink.answerTimeoutMilliseconds)
                    continue
                }
                offset += written
            }
            tcdrain(descriptor)
        }

        /// Sends `command` and waits for the chip's ACK and its answer (or its error frame).
        func exchange(_ command: PN532CommandName, _ data: [UInt8]) throws(PN532SerialLinkError) {
            let spec = ChipTables.pn532
            let code = spec.code(command)
            try write(Self.informationFrame([spec.frame.hostToChipTFI, code] + data))
            let answer =
                spec.frame.ackFrame
                + Self.informationFrame([
                    spec.frame.chipToHostTFI, code &+ UInt8(truncatingIfNeeded: spec.frame.answerCodeIncrement),
                ])
            var received: [UInt8] = []
            var clock = ContinuousClock.now
            let deadline = clock.advanced(by: .milliseconds(Int(PN532SerialLink.answerTimeoutMilliseconds)))
            while clock < deadline {
                if received.contains(answer) { return }
                if received.contains(spec.frame.errorFrame) { throw PN532SerialLinkError(path: path, reason: .refused) }
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let left = Int32(max(1, ((deadline - clock) / .milliseconds(1)).rounded(.up)))
                if poll(&entry, 1, left) > 0 {
                    var buffer = [UInt8](repeating: 0, count: 64)
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 64) }
                    if count > 0 { received += buffer.prefix(count) }
                }
                clock = .now
            }
            if received.contains(answer) { return }
            throw PN532SerialLinkError(
                path: path, reason: received.contains(spec.frame.errorFrame) ? .refused : .noAnswer)
        }

        /// A normal information frame around `body` (TFI, command code, data).
        private static func informationFrame(_ body: [UInt8]) -> [UInt8] {
            let frame = ChipTables.pn532.frame
            let length = UInt8(body.count)
            return frame.preamble + frame.startCode + [length, PN532FrameSpec.lengthChecksum(length)] + body
                + [PN532FrameSpec.dataChecksum(body)] + frame.postamble
        }
    }
}

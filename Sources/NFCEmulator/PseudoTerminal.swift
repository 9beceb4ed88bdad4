import Foundation
import Glibc

/// An error from the operating system while opening or driving a pseudo-terminal.
///
/// ```swift
/// do { let pty = try PseudoTerminal(link: nil) } catch { print(error) }   // "posix_openpt: Too many open files (errno 24)"
/// ```
public struct PseudoTerminalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system call that failed, such as `posix_openpt` or `symlink`.
    public var operation: String
    /// The `errno` value the call left behind.
    public var code: Int32

    /// Captures the current `errno` (or `code`) for `operation`.
    init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    /// The failing call, the `strerror` text and the number.
    public var description: String {
        "\(operation): \(String(cString: strerror(code))) (errno \(code))"
    }
}

/// One pseudo-terminal pair, opened for an emulated serial device.
///
/// The master side is where the emulator reads and writes; the slave side (`/dev/pts/N`) is
/// what a client such as libnfc opens as its serial port. The slave is put in raw mode and
/// one slave descriptor stays open for the whole life of the pair, so that the master never
/// reads `EIO` when a client closes its port. An optional symbolic link gives the slave a
/// stable name across unplug / plug cycles.
///
/// The master runs in packet mode (`TIOCPKT`), so that the emulator learns when a client
/// flushes its output queue: a pty then discards the bytes the client wrote that the
/// emulator has not read yet — even bytes written before the client closed the port and
/// opened it again — where a real UART had already put them on the line.
///
/// ```swift
/// let pty = try PseudoTerminal(link: nil)
/// print(pty.slavePath)    // "/dev/pts/7"
/// pty.close()
/// ```
public final class PseudoTerminal {
    // Swift's Glibc module hides the XSI pseudo-terminal calls (they need _XOPEN_SOURCE),
    // so they are looked up once in the C library that is already loaded.
    private typealias OpenFunction = @convention(c) (Int32) -> Int32
    private typealias DescriptorFunction = @convention(c) (Int32) -> Int32
    private typealias NameFunction = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
    private static func libc<Function>(_ name: String, as type: Function.Type) -> Function {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            preconditionFailure("the C library has no \(name)")
        }
        return unsafeBitCast(symbol, to: type)
    }
    private static let posixOpenpt = libc("posix_openpt", as: OpenFunction.self)
    private static let grantpt = libc("grantpt", as: DescriptorFunction.self)
    private static let unlockpt = libc("unlockpt", as: DescriptorFunction.self)
    private static let ptsnameR = libc("ptsname_r", as: NameFunction.self)

    /// Bit 31 of `c_iflag`: libnfc's "port claimed" flag (`CCLAIMED` in libnfc's `uart.c`).
    /// A libnfc convention, not a chip constant, so it lives here.
    static let libnfcClaimedFlag: tcflag_t = 0x8000_0000

    /// The master descriptor: read what the client writes, write what it should read.
    public private(set) var masterDescriptor: Int32
    /// The descriptor of the slave side held open by the emulator itself.
    private var slaveDescriptor: Int32
    /// The path of the slave device, such as `/dev/pts/7`.
    public let slavePath: String
    /// The symbolic link pointing at `slavePath`, when one was asked for.
    public let linkPath: String?

    /// Opens a new pair in raw mode and, when `link` is given, points that path at the slave
    /// (replacing an older symbolic link there, never a regular file).
    public init(link: String?) throws(PseudoTerminalError) {
        let master = Self.posixOpenpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw PseudoTerminalError("posix_openpt") }
        var opened = [master]
        func fail(_ operation: String, code: Int32 = errno) -> PseudoTerminalError {
            let error = PseudoTerminalError(operation, code: code)
            for descriptor in opened { Glibc.close(descriptor) }
            return error
        }
        guard Self.grantpt(master) == 0 else { throw fail("grantpt") }
        guard Self.unlockpt(master) == 0 else { throw fail("unlockpt") }
        var nameBuffer = [CChar](repeating: 0, count: 128)
        guard Self.ptsnameR(master, &nameBuffer, nameBuffer.count) == 0 else { throw fail("ptsname_r") }
        let path = String(decoding: nameBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw fail("open slave") }
        opened.append(slave)
        var attributes = termios()
        guard tcgetattr(slave, &attributes) == 0 else { throw fail("tcgetattr") }
        cfmakeraw(&attributes)
        guard tcsetattr(slave, TCSANOW, &attributes) == 0 else { throw fail("tcsetattr") }
        let flags = fcntl(master, F_GETFL)
        guard flags >= 0, fcntl(master, F_SETFL, flags | O_NONBLOCK) == 0 else { throw fail("fcntl") }
        var packetMode: Int32 = 1
        guard ioctl(master, UInt(TIOCPKT), &packetMode) == 0 else { throw fail("ioctl TIOCPKT") }
        if let link {
            var status = stat()
            if lstat(link, &status) == 0 {
                guard (status.st_mode & S_IFMT) == S_IFLNK else { throw fail("symlink over a non-link", code: EEXIST) }
                unlink(link)
            }
            guard symlink(path, link) == 0 else { throw fail("symlink") }
        }
        masterDescriptor = master
        slaveDescriptor = slave
        slavePath = path
        linkPath = link
    }

    deinit { close() }

    /// The name a client should open: the link when there is one, else the slave path.
    public var clientPath: String { linkPath ?? slavePath }

    /// Whether `close()` has already run.
    public var isClosed: Bool { masterDescriptor < 0 }

    /// Clears libnfc's "claimed" bit on the slave, left behind by a client that died
    /// without restoring the port — never while a client still has the slave open; returns
    /// whether it was cleared.
    @discardableResult
    public func releaseClaim() -> Bool {
        guard slaveDescriptor >= 0 else { return false }
        var attributes = termios()
        guard tcgetattr(slaveDescriptor, &attributes) == 0 else { return false }
        guard attributes.c_iflag & Self.libnfcClaimedFlag != 0, !isOpenByClient else { return false }
        attributes.c_iflag &= ~Self.libnfcClaimedFlag
        return tcsetattr(slaveDescriptor, TCSANOW, &attributes) == 0
    }

    /// Whether a descriptor other than the emulator's own has the slave open, in any
    /// process this user can see (`/proc/*/fd`).
    var isOpenByClient: Bool {
        var slave = stat()
        guard fstat(slaveDescriptor, &slave) == 0 else { return false }
        var found = 0
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for pid in processes where pid.allSatisfy(\.isNumber) {
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            for descriptor in descriptors {
                var node = stat()
                guard stat("/proc/\(pid)/fd/\(descriptor)", &node) == 0, node.st_mode & S_IFMT == S_IFCHR,
                    node.st_rdev == slave.st_rdev
                else { continue }
                found += 1
                if found > 1 { return true }
            }
        }
        return false
    }

    /// One read of the master: the client's bytes, and whether the client flushed its
    /// output queue since the last read (bytes it wrote and the emulator had not read are
    /// then gone).
    public struct Chunk: Sendable, Equatable {
        /// Bytes the client wrote.
        public var bytes: [UInt8] = []
        /// The client flushed its output (`tcflush` with `TCOFLUSH` or `TCIOFLUSH`).
        public var clientDiscardedOutput = false
    }

    /// Packet-mode status bit: the slave flushed its output (`TIOCPKT_FLUSHWRITE`, Linux `<asm-generic/ioctls.h>`).
    static let packetFlushWrite: UInt8 = 0x02

    /// Reads what is available on the master without blocking: the data, or the news of a
    /// flush. Throws when the pair is unusable.
    public func readChunk(maximum: Int = 4096) throws(PseudoTerminalError) -> Chunk {
        var buffer = [UInt8](repeating: 0, count: maximum + 1)
        let count = buffer.withUnsafeMutableBytes { read(masterDescriptor, $0.baseAddress, maximum + 1) }
        if count < 0 {
            if errno == EAGAIN || errno == EINTR { return Chunk() }
            throw PseudoTerminalError("read")
        }
        guard count > 0 else { return Chunk() }
        // Packet mode: a zero byte before data, or one status byte alone.
        if buffer[0] == 0 { return Chunk(bytes: Array(buffer[1..<count])) }
        return Chunk(clientDiscardedOutput: buffer[0] & Self.packetFlushWrite != 0)
    }

    /// Reads the client's bytes available on the master without blocking; an empty array
    /// means nothing is there yet. Throws when the pair is unusable.
    public func readAvailable(maximum: Int = 4096) throws(PseudoTerminalError) -> [UInt8] {
        try readChunk(maximum: maximum).bytes
    }

    /// The speed the client set on its port (`cfgetospeed` of the slave's settings), when
    /// it is one of the standard UART speeds.
    public var clientSpeed: Int? {
        guard slaveDescriptor >= 0 else { return nil }
        var attributes = termios()
        guard tcgetattr(slaveDescriptor, &attributes) == 0 else { return nil }
        return Self.speeds[cfgetospeed(&attributes)]
    }

    private static let speeds: [speed_t: Int] = [
        speed_t(B9600): 9_600, speed_t(B19200): 19_200, speed_t(B38400): 38_400, speed_t(B57600): 57_600,
        speed_t(B115200): 115_200, speed_t(B230400): 230_400, speed_t(B460800): 460_800, speed_t(B921600): 921_600,
        speed_t(B1000000): 1_000_000,
    ]

    /// Writes all of `bytes` to the master, waiting with `poll` while the terminal buffer is full.
    public func write(_ bytes: [UInt8]) throws(PseudoTerminalError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.write(masterDescriptor, $0.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                guard errno == EAGAIN || errno == EINTR else { throw PseudoTerminalError("write") }
                var entry = pollfd(fd: masterDescriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&entry, 1, 100)
                continue
            }
            offset += written
        }
    }

    /// Closes both sides and removes the link — once, and only while it points at this
    /// slave: a later pair may have taken the link over (the reader plugged in again, often
    /// on the very slave number this pair freed), and this pair closed again after that (its
    /// `deinit`, which may run late) must not unplug the new one. A client still holding the
    /// slave sees a hang-up.
    public func close() {
        let open = masterDescriptor >= 0 || slaveDescriptor >= 0
        if open, let linkPath, Self.linkTarget(linkPath) == slavePath { unlink(linkPath) }
        if slaveDescriptor >= 0 {
            Glibc.close(slaveDescriptor)
            slaveDescriptor = -1
        }
        if masterDescriptor >= 0 {
            Glibc.close(masterDescriptor)
            masterDescriptor = -1
        }
    }

    /// Where the symbolic link at `path` points; nil when there is no link.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

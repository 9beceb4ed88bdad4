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
    /// without restoring the port; returns whether it was set.
    @discardableResult
    public func releaseClaim() -> Bool {
        guard slaveDescriptor >= 0 else { return false }
        var attributes = termios()
        guard tcgetattr(slaveDescriptor, &attributes) == 0 else { return false }
        guard attributes.c_iflag & Self.libnfcClaimedFlag != 0 else { return false }
        attributes.c_iflag &= ~Self.libnfcClaimedFlag
        return tcsetattr(slaveDescriptor, TCSANOW, &attributes) == 0
    }

    /// Reads what is available on the master without blocking; an empty array means
    /// nothing is there yet. Throws when the pair is unusable.
    public func readAvailable(maximum: Int = 4096) throws(PseudoTerminalError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let count = buffer.withUnsafeMutableBytes { read(masterDescriptor, $0.baseAddress, maximum) }
        if count < 0 {
            if errno == EAGAIN || errno == EINTR { return [] }
            throw PseudoTerminalError("read")
        }
        return Array(buffer.prefix(count))
    }

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
        if slaveDescriptor >= 0 { Glibc.close(slaveDescriptor); slaveDescriptor = -1 }
        if masterDescriptor >= 0 { Glibc.close(masterDescriptor); masterDescriptor = -1 }
    }

    /// Where the symbolic link at `path` points; nil when there is no link.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

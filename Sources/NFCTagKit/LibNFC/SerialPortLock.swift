import Glibc
internal import Locking

/// NFCTagKit's own claim on a serial reader: an advisory `flock` on the port's device node,
/// taken before the first byte is sent and held while the reader is open.
///
/// libnfc's claim (bit 31 of the port's `c_iflag`) does not hold on recent Linux kernels,
/// which drop unknown `c_iflag` bits (6.18 does, on a pseudo-terminal): a second program
/// opens the port, sends its wake-up and sets its own speed, and both programs' frames are
/// lost. The lock keeps a second NFCTagKit process (and any program that honours `flock`
/// on a serial port, as picocom does) out; the kernel drops it when its process ends, however
/// it ends, so a killed program leaves no stale lock behind.
final class SerialPortLock: Sendable {
    private let descriptor: Locked<Int32>
    private let path: String
    /// The ports this process holds a lock on, by path: a discovery probe's or an open device's.
    private static let heldHere = Locked<[String: Int]>([:])

    /// Why a lock could not be taken.
    enum Failure: Error, Equatable {
        /// Another process holds it; who, as far as `/proc/locks` tells.
        case held(by: [String])
    }

    private init(descriptor: Int32, path: String) {
        self.descriptor = Locked(descriptor)
        self.path = path
        Self.heldHere.withLock { $0[path, default: 0] += 1 }
    }

    /// Takes the lock of `connectionString`'s port; nil when it names no serial port, or
    /// one that cannot be opened (libnfc's open then says why). Another process's lock fails
    /// at once; one this process holds — a discovery probe still opening the reader, which
    /// ends within its open — is waited for up to `patience` (blocking: the caller's thread
    /// is the device's or the discovery's).
    static func acquire(
        connectionString: String, patience: Duration = .zero, onWait: (@Sendable () -> Void)? = nil
    ) throws(Failure) -> SerialPortLock? {
        guard let port = UARTConnection(connectionString: connectionString) else { return nil }
        let deadline = ContinuousClock.now + patience
        while true {
            let descriptor = open(port.path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                return SerialPortLock(descriptor: descriptor, path: port.path)
            }
            let holders = holders(of: descriptor)
            close(descriptor)
            let ownProbe = heldHere.withLock { $0[port.path, default: 0] > 0 }
            guard ownProbe, ContinuousClock.now < deadline else { throw .held(by: holders) }
            onWait?()
            usleep(10_000)
        }
    }

    /// Lets the port go (closing the descriptor drops the lock). Idempotent.
    func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
            Self.heldHere.withLock { held in
                held[path, default: 1] -= 1
                if held[path] == 0 { held[path] = nil }
            }
        }
    }

    deinit {
        release()
    }

    /// The processes holding a `flock` on `path`, as "name (pid N)".
    static func holders(ofPath path: String) -> [String] {
        let descriptor = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        return holders(of: descriptor)
    }

    /// `/proc/locks` names each lock's process and file as `MAJOR:MINOR:INODE` (hex, hex,
    /// decimal) of the file system holding the node.
    private static func holders(of descriptor: Int32) -> [String] {
        var node = stat()
        guard fstat(descriptor, &node) == 0 else { return [] }
        let device = UInt64(node.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        let file =
            String(major, radix: 16, uppercase: false).leftPadded(to: 2) + ":"
            + String(minor, radix: 16, uppercase: false).leftPadded(to: 2) + ":" + String(node.st_ino)
        guard let locks = readText("/proc/locks") else { return [] }
        var pids: [Int32] = []
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == file, let pid = Int32(fields[4]),
                pid != getpid(), !pids.contains(pid)
            else { continue }
            pids.append(pid)
        }
        return pids.map { pid in
            let name = readText("/proc/\(pid)/comm").map { $0.filter { $0 != "\n" } } ?? "a process"
            return "\(name) (pid \(pid))"
        }
    }

    private static func readText(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

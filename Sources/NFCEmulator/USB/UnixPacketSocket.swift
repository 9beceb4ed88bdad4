import Glibc

/// The few socket calls the USB emulator needs, on `SOCK_SEQPACKET` Unix-domain sockets
/// (one message per USB transfer). All the unsafe C of the USB emulator is here.
enum UnixPacketSocket {
    struct Failure: Error, CustomStringConvertible {
        var call: String
        var code: Int32
        var description: String { "\(call): \(String(cString: strerror(code)))" }
    }

    /// A listening socket bound at `path` (a stale socket file there is replaced).
    static func listen(at path: String) throws(Failure) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let bytes = Array(path.utf8)
        guard bytes.count < capacity else { throw Failure(call: "socket path too long", code: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK { unlink(path) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, Glibc.listen(descriptor, 8) == 0 else {
            let failure = Failure(call: "bind \(path)", code: errno)
            close(descriptor)
            throw failure
        }
        return descriptor
    }

    static func accept(_ listener: Int32) -> Int32? {
        let descriptor = Glibc.accept(listener, nil, nil)
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }

    /// One message, or nil when the peer closed or failed.
    static func receive(_ descriptor: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            return count > 0 ? Array(buffer.prefix(count)) : nil
        }
    }

    @discardableResult
    static func send(_ descriptor: Int32, _ message: [UInt8]) -> Bool {
        message.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            == message.count
    }

    /// Waits up to `milliseconds` for input on `descriptors`; returns those readable or closed.
    static func poll(_ descriptors: [Int32], milliseconds: Int32) -> [Int32] {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = Glibc.poll(&entries, nfds_t(entries.count), milliseconds)
        guard ready > 0 else { return [] }
        return entries.filter { $0.revents != 0 }.map(\.fd)
    }
}

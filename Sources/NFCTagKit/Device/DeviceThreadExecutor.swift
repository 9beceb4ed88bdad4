import Foundation

/// A serial executor backed by one dedicated thread: every job of the ``NFCDevice`` actor
/// that owns it runs there, so blocking libnfc calls never occupy Swift's cooperative
/// thread pool and libnfc always sees the same thread for one device.
///
/// Jobs wait in a FIFO queue guarded by a condition variable. ``shutdown(after:)`` runs a
/// last block (closing the device) after every queued job, then ends the thread.
final class DeviceThreadExecutor: SerialExecutor, @unchecked Sendable {
    private enum Work {
        case job(UnownedJob)
        case block(@Sendable () -> Void)
    }

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [Work] = []
    private var head = 0
    private var stopping = false
    private var thread: Thread?

    /// Starts the thread, named after the reader it serves.
    init(name: String) {
        let thread = Thread { [self] in self.runLoop() }
        thread.name = name
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
    }

    /// True when called on this executor's thread.
    var isCurrent: Bool {
        condition.lock()
        defer { condition.unlock() }
        return thread.map { Thread.current == $0 } ?? false
    }

    func enqueue(_ job: consuming ExecutorJob) {
        append(.job(UnownedJob(job)))
    }

    /// Runs a plain block on the thread (used by `deinit`, which cannot await).
    func submit(_ block: @escaping @Sendable () -> Void) {
        append(.block(block))
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func checkIsolated() {
        precondition(isCurrent, "not on the NFCDevice thread")
    }

    /// Runs `last` after every job already queued, then lets the thread end.
    func shutdown(after last: @escaping @Sendable () -> Void) {
        condition.lock()
        queue.append(.block(last))
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func append(_ work: Work) {
        condition.lock()
        queue.append(work)
        condition.signal()
        condition.unlock()
    }

    private func runLoop() {
        while true {
            condition.lock()
            while head == queue.count && !stopping {
                condition.wait()
            }
            if head == queue.count {
                // Stopping and drained.
                queue.removeAll()
                thread = nil
                condition.unlock()
                return
            }
            let work = queue[head]
            head += 1
            if head > 64 && head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            condition.unlock()
            switch work {
            case .job(let job):
                job.runSynchronously(on: asUnownedSerialExecutor())
            case .block(let block):
                block()
            }
        }
    }
}

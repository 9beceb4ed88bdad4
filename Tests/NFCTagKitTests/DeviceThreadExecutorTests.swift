@testable import NFCTagKit
import Foundation
import Locking
import Testing

/// An actor on a ``DeviceThreadExecutor``, as ``NFCDevice`` is, with a blocking method.
actor BlockingWorker {
    nonisolated let executor = DeviceThreadExecutor(name: "BlockingWorker")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private var order: [Int] = []

    func block(on semaphore: DispatchSemaphore) -> Bool {
        semaphore.wait()
        return executor.isCurrent
    }

    func record(_ value: Int) { order.append(value) }
    func recorded() -> [Int] { order }
    func isOnOwnThread() -> Bool { executor.isCurrent && !Thread.isMainThread }

    deinit { executor.shutdown {} }
}

@Suite("Device thread executor")
struct DeviceThreadExecutorTests {
    @Test("actor methods run on the executor's own thread, never on the caller's")
    func ownThread() async throws {
        let worker = BlockingWorker()
        #expect(await worker.isOnOwnThread())
        #expect(!worker.executor.isCurrent)
    }

    @Test("blocking calls on more devices than cores leave the cooperative pool free")
    func blockingLeavesPoolFree() async throws {
        // With the workers' blocking calls on the cooperative pool, the task that releases
        // them could never run and the time limit would end the test.
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let workers = (0..<count).map { _ in BlockingWorker() }
        let semaphores = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        let results = try await withTimeLimit(seconds: 20) {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<count {
                    let worker = workers[index]
                    let semaphore = semaphores[index]
                    group.addTask { await worker.block(on: semaphore) }
                }
                group.addTask {
                    // Runs on the pool while every worker thread is blocked.
                    for semaphore in semaphores { semaphore.signal() }
                    return true
                }
                var all: [Bool] = []
                for try await value in group { all.append(value) }
                return all
            }
        }
        #expect(results.count == count + 1)
        #expect(results.allSatisfy { $0 })
    }

    @Test("jobs run in the order they were enqueued by one caller")
    func fifo() async {
        let worker = BlockingWorker()
        for value in 0..<200 { await worker.record(value) }
        #expect(await worker.recorded() == Array(0..<200))
    }

    @Test("shutdown runs the last block after queued work, on the thread")
    func shutdownRunsLastBlock() async throws {
        let executor = DeviceThreadExecutor(name: "shutdown-test")
        let ran = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        executor.submit { ran.withLock { $0.append("work") } }
        executor.shutdown {
            ran.withLock { $0.append(executor.isCurrent ? "last-on-thread" : "last-elsewhere") }
            done.signal()
        }
        let signalled = try await withTimeLimit(seconds: 10) { done.wait(timeout: .now() + 10) == .success }
        #expect(signalled)
        #expect(ran.withLock { $0 } == ["work", "last-on-thread"])
    }
}

@Suite("Abort switch")
struct AbortSwitchTests {
    @Test("an abort without a device or a call in flight is remembered, not sent")
    func abortWithoutCall() {
        let abortSwitch = AbortSwitch()
        #expect(!abortSwitch.isAbortRequested)
        abortSwitch.requestAbort()
        #expect(abortSwitch.isAbortRequested)
        abortSwitch.reset()
        #expect(!abortSwitch.isAbortRequested)
        let value = abortSwitch.abortable { () -> Int in 42 }
        #expect(value == 42)
    }
}

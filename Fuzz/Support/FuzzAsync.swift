// Running async code under test from the synchronous `LLVMFuzzerTestOneInput`.
import Dispatch
import Synchronization

/// Runs `body` in a new task and blocks the calling thread until it returns.
///
/// Safe here, and only here: libFuzzer calls `LLVMFuzzerTestOneInput` on its own thread,
/// which is not one of the Swift concurrency pool's threads, so blocking it takes nothing
/// away from the pool. The task is unstructured and created from a synchronous context,
/// so it inherits no actor and runs on the global concurrent executor; the code under
/// test (the NDEF drivers are actors, the harness transports are plain `Sendable` values)
/// never needs the main actor or the blocked thread, so it cannot wait on us. The
/// semaphore's signal / wait pair orders the task's write of the result before our read.
func fuzzRunBlocking<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
    let finished = DispatchSemaphore(value: 0)
    let result = FuzzResultBox<Value>()
    Task {
        let value = await body()
        result.value.withLock { $0 = value }
        finished.signal()
    }
    finished.wait()
    guard let value = result.value.withLock({ $0 }) else { fatalError("the task finished without a result") }
    return value
}

/// The result of a blocking run, handed from the task to the waiting thread.
private final class FuzzResultBox<Value: Sendable>: Sendable {
    let value = Mutex<Value?>(nil)
}

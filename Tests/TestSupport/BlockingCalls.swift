import Dispatch
import Testing

/// Runs a suite's tests on threads outside Swift's cooperative pool.
///
/// The pool has one thread per core (two here). A test that waits for a process
/// (`waitUntilExit`, a semaphore, a pipe read to its end) or computes for seconds holds one
/// of them for all that time; two such tests side by side stop every other test's awaits,
/// hang guards included, until one of them ends. Suites that run tools, examples or long
/// synchronous loops carry this trait, so that their waiting costs a thread of their own.
public struct BlockingCallsTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(BlockingCallsExecutor.shared) { try await function() }
    }
}

extension Trait where Self == BlockingCallsTrait {
    /// The suite's tests may block their thread: they run outside the cooperative pool.
    public static var blockingCalls: Self { BlockingCallsTrait() }
}

/// A task executor with a thread for each job that needs one: every job goes to a serial
/// queue of its own, and serial queues draw from libdispatch's overcommitting pool, which
/// starts a thread whenever the ones it has are busy.
final class BlockingCallsExecutor: TaskExecutor {
    static let shared = BlockingCallsExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        DispatchQueue(label: "nfctagkit.tests.blocking-calls").async { job.runSynchronously(on: executor) }
    }
}

import Glibc

/// A value that several threads share, guarded by a POSIX mutex: the shape of
/// `Synchronization.Mutex` (`Locked(State())`, `withLock { … }`), on a lock that
/// ThreadSanitizer understands.
///
/// With the Swift 6.3 toolchain on Linux, `Synchronization.Mutex` takes its lock inside the
/// uninstrumented Synchronization module with futex calls, so ThreadSanitizer sees no order
/// between two `withLock` bodies and reports their accesses as races — the sanitizer then
/// needed suppressions for every type of ours that keeps state in a `Mutex`, and checked
/// nothing in them. `pthread_mutex_lock` and `pthread_mutex_unlock` are intercepted by
/// ThreadSanitizer, so the same code is checked in the sanitizer build and runs in the
/// release build. An uncontended lock and unlock costs the same two atomic operations as
/// `Mutex`; the benchmark's CPU time per PN532 exchange did not change (BENCHMARKS.md).
///
/// ```swift
/// final class Counter: Sendable {
///     private let count = Locked(0)
///     func increment() -> Int { count.withLock { $0 += 1; return $0 } }
/// }
/// ```
///
/// `Sendable` for any value, as `Mutex` is: the value goes in as `sending` and is reached
/// only inside `withLock`, one thread at a time.
///
/// Keep a closure in a struct, never as the value itself (`Locked<(() -> Void)?>`): the
/// value is generic, so a closure read or written through `withLock` at its concrete type
/// is wrapped in a reabstraction thunk each time, and the wrapped closure is what goes
/// back into the lock — one more heap box per access, all kept until the lock goes away.
package final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock around `initialValue`.
    package init(_ initialValue: consuming sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed (\(status))")
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held. Not reentrant: calling `withLock` again
    /// on the same lock inside `body` deadlocks, as with `Mutex`.
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

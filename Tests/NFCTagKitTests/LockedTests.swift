import Foundation
import Locking
import Testing

/// `Locked`, the lock every room with threads uses: under ThreadSanitizer (`make sanitize`)
/// these bodies are also checked for order, which `Synchronization.Mutex` could not give.
@Suite("Locked: one thread at a time inside withLock")
struct LockedTests {
    @Test("threads that increment one counter inside withLock lose no increment")
    func noLostUpdates() {
        let counter = Locked(0)
        let threads = 4
        let increments = 20_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<increments {
                // A read and a write that another thread may not split.
                counter.withLock { value in
                    let seen = value
                    value = seen + 1
                }
            }
        }
        #expect(counter.withLock { $0 } == threads * increments)
    }

    @Test("withLock returns the body's result and rethrows its typed error, the value unchanged by a throw")
    func resultAndError() {
        struct Refused: Error, Equatable {}
        let names = Locked(["a"])
        let count = names.withLock { names -> Int in
            names.append("b")
            return names.count
        }
        #expect(count == 2)
        #expect(throws: Refused()) {
            try names.withLock { (names: inout [String]) throws(Refused) in
                if names.count == 2 { throw Refused() }
                names.append("c")
            }
        }
        #expect(names.withLock { $0 } == ["a", "b"])
    }
}

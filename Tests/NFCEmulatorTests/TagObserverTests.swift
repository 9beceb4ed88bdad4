import Foundation
import Locking
import Testing
@testable import NFCEmulator

@Suite("The emulator's tag observer is kept as given, not rewrapped on every read")
struct TagObserverTests {
    /// Frames on the calling thread's stack, from the caller's.
    private static func stackDepth() -> Int {
        Thread.callStackReturnAddresses.count
    }

    /// The emulator reads the observer after every command that touched a tag. Kept as a bare
    /// function type in the generic lock, each read stored back the closure wrapped in one more
    /// reabstraction thunk: a chain of heap boxes growing with every command, and one stack
    /// frame per box when the observer is called (issue 15 part 5). So the observer, called
    /// after a thousand reads, must run at the same stack depth as before them.
    @Test("a thousand reads of the observer add nothing to it: it runs at the same stack depth")
    func observerReadsStoreNothingBack() throws {
        let emulator = try PN532Emulator(tags: [])
        let depth = Locked(0)
        emulator.observeTagChanges { _ in depth.withLock { $0 = Self.stackDepth() } }
        let first = try #require(emulator.currentTagObserver)
        first([])
        let before = depth.withLock { $0 }
        for _ in 0..<1000 {
            _ = try #require(emulator.currentTagObserver)
        }
        let last = try #require(emulator.currentTagObserver)
        last([])
        let after = depth.withLock { $0 }
        #expect(before > 0)
        #expect(after == before, "the observer ran \(after - before) frames deeper after 1000 reads")
    }
}

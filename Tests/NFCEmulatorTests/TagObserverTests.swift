import Locking
import Testing
@testable import NFCEmulator

@Suite("The emulator's tag observer is kept as given, not rewrapped on every read")
struct TagObserverTests {
    /// The closure context of `observer`: the same heap box while it is the same closure.
    private static func context(_ observer: @escaping @Sendable ([any EmulatedTag]) -> Void) -> Int {
        unsafeBitCast(observer, to: (Int, Int).self).1
    }

    @Test("a thousand reads of the observer leave the stored closure as it was")
    func observerReadsStoreNothingBack() throws {
        let emulator = try PN532Emulator(tags: [])
        emulator.observeTagChanges { _ in }
        let stored = try #require(emulator.tagObserver.withLock { $0 })
        // The emulator reads the observer after every command that touched a tag. Kept as a
        // bare function type in the generic lock, each read stored back a closure wrapped in
        // one more thunk: a chain of boxes growing with every command (issue 15 part 5).
        for _ in 0..<1000 {
            _ = try #require(emulator.currentTagObserver)
        }
        let after = try #require(emulator.tagObserver.withLock { $0 })
        #expect(Self.context(after.notify) == Self.context(stored.notify))
    }
}

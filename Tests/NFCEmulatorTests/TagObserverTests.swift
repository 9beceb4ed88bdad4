import Testing
@testable import NFCEmulator

@Suite("The emulator's tag observer is kept as given, not rewrapped on every read")
struct TagObserverTests {
    /// The closure context of `observer`: the same box when it is the same closure.
    private static func context(_ observer: @escaping @Sendable ([any EmulatedTag]) -> Void) -> Int {
        unsafeBitCast(observer, to: (Int, Int).self).1
    }

    @Test("reading the observer a thousand times gives back one closure context")
    func observerReadsAllocateNothing() throws {
        let emulator = try PN532Emulator(tags: [])
        emulator.observeTagChanges { _ in }
        // The emulator reads the observer after every command that touched a tag. Kept as a
        // bare function type in the generic lock, each read wrapped it in a new thunk that
        // was stored back: a chain of boxes growing with every command (issue 15 part 5).
        let first = try #require(emulator.currentTagObserver)
        var contexts: Set<Int> = [Self.context(first)]
        for _ in 0..<1000 {
            contexts.insert(Self.context(try #require(emulator.currentTagObserver)))
        }
        #expect(contexts.count == 1)
    }
}

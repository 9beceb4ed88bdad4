@testable import NFCTagKit
import Testing

@Suite("Broadcast fans values out in order")
struct BroadcastTests {
    @Test("every listener gets every value in order; a replaying broadcast starts with the latest")
    func fanOut() async throws {
        let broadcast = Broadcast<Int>(initial: 0)
        let first = broadcast.stream()
        broadcast.send(1)
        let second = broadcast.stream()
        broadcast.send(2)
        broadcast.send(3)
        broadcast.finish()
        var a: [Int] = []
        for await value in first { a.append(value) }
        var b: [Int] = []
        for await value in second { b.append(value) }
        #expect(a == [0, 1, 2, 3])
        #expect(b == [1, 2, 3])
        #expect(broadcast.latest == 3)
        var late: [Int] = []
        for await value in broadcast.stream() { late.append(value) }
        #expect(late.isEmpty)
    }

    @Test("a non-replaying broadcast sends only later values")
    func noReplay() async {
        let broadcast = Broadcast<String>(initial: nil)
        broadcast.send("before")
        let stream = broadcast.stream()
        broadcast.send("after")
        broadcast.finish()
        var values: [String] = []
        for await value in stream { values.append(value) }
        #expect(values == ["after"])
    }
}

import Locking
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// A caller waiting for the reader never hangs: cancelling it ends the wait at once, and a
/// holder that keeps the reader past the wait limit is named in the error. Waits end on
/// events (the gate's own queue), never on a sleep of the test's.
@Suite("Waiting for the reader: cancellable, limited, first come first served")
struct TagAccessGateWaitTests {
    /// Waits until `count` callers are queued behind the holder.
    private func waitForQueue(_ gate: TagAccessGate, count: Int) async {
        while gate.occupancy.waiters < count { await Task.yield() }
    }

    @Test("waiters are served in arrival order; a cancelled one is skipped and never holds the gate")
    func fifoAndCancellation() async throws {
        let gate = TagAccessGate(waitLimit: nil)
        let order = Locked<[Int]>([])
        try await gate.acquire(owner: nil, purpose: "the test")
        var tasks: [Task<Bool, Never>] = []
        for index in 0..<4 {
            tasks.append(
                Task {
                    do throws(TagAccessGate.WaitFailure) {
                        try await gate.acquire(owner: nil, purpose: "waiter \(index)")
                    } catch {
                        #expect(error == .cancelled)
                        return false
                    }
                    order.withLock { $0.append(index) }
                    gate.release()
                    return true
                })
            await waitForQueue(gate, count: index + 1)
        }
        tasks[2].cancel()
        #expect(await tasks[2].value == false)
        #expect(gate.occupancy == (true, 3))
        gate.release()
        for index in [0, 1, 3] { #expect(await tasks[index].value) }
        #expect(order.withLock { $0 } == [0, 1, 3])
        #expect(gate.occupancy == (false, 0))
    }

    @Test("a task cancelled before it asks gets .cancelled and leaves the gate free")
    func cancelledBeforeAsking() async throws {
        let gate = TagAccessGate(waitLimit: nil)
        let task = Task { () async -> TagAccessGate.WaitFailure? in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(TagAccessGate.WaitFailure) {
                try await gate.acquire(owner: nil, purpose: "late")
                return nil
            } catch {
                return error
            }
        }
        guard await task.value == .cancelled else {
            Issue.record("expected .cancelled")
            return
        }
        #expect(gate.occupancy == (false, 0))
    }

    @Test("past the wait limit the error names the holder; the holder keeps the gate, the next waiter gets it after")
    func timeoutNamesHolder() async throws {
        let gate = TagAccessGate(waitLimit: .milliseconds(50))
        try await gate.acquire(owner: nil, purpose: "a stuck dump")
        do {
            try await gate.acquire(owner: nil, purpose: "a poll")
            Issue.record("the wait did not time out")
        } catch {
            guard case .timedOut(let holder) = error else {
                Issue.record("expected .timedOut, got \(error)")
                return
            }
            #expect(holder.hasPrefix("held by a stuck dump for "))
        }
        #expect(gate.occupancy == (true, 0))
        // A wait that is not limited (a polling loop) outlasts the limit and gets the gate.
        let poll = Task { try await gate.acquire(owner: nil, purpose: "a poll", limited: false) }
        await waitForQueue(gate, count: 1)
        gate.release()
        _ = try await poll.value
        #expect(gate.holderDescription.hasPrefix("held by a poll"))
        gate.release()
    }

    @Test("a second owner sees that the field was used since its own last turn")
    func fieldUsedElsewhere() async throws {
        let gate = TagAccessGate()
        let first = NSObjectLike()
        let second = NSObjectLike()
        #expect(try await gate.acquire(owner: first, purpose: "first") == false)
        gate.release()
        #expect(try await gate.acquire(owner: first, purpose: "first") == false)
        gate.release()
        #expect(try await gate.acquire(owner: second, purpose: "second") == true)
        gate.release()
        #expect(try await gate.acquire(owner: first, purpose: "first") == true)
        gate.release()
    }
}

private final class NSObjectLike {}

/// The same through libnfc and the emulated PN532: a tag session waiting for a tag that
/// never comes holds the reader; other callers wait, and get a typed error when cancelled
/// or when the wait limit passes.
@Suite("Waiting behind a tag session that waits for a tag", .tags(.reader), .timeLimit(.minutes(1)))
struct TagAccessGateDeviceTests {
    @Test("TagSession and NDEFSession callers: cancelled → .cancelled, limit → readerBusy naming the holder")
    func waitersBehindAConnect() async throws {
        let fixture = try EmulatorFixture(tags: [])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 45) {
            let device = NFCDevice()
            _ = try await device.connect(
                to: fixture.reader, configuration: fixture.configuration(reconnect: false, liveness: nil))
            let holder = Task { try await TagSession.connect(on: device, timeout: nil) }
            while !device.tagAccess.occupancy.held { await Task.yield() }

            // Cancelled while waiting: at once, with nothing sent.
            let waiter = Task { () async -> TagSessionError? in
                do throws(TagSessionError) {
                    _ = try await TagSession.connect(on: device, timeout: nil)
                    return nil
                } catch {
                    return error
                }
            }
            while device.tagAccess.occupancy.waiters < 1 { await Task.yield() }
            waiter.cancel()
            guard await waiter.value == .cancelled else {
                Issue.record("expected .cancelled")
                return
            }

            // Past the limit: the error names the holder.
            device.tagAccess.waitLimit = .milliseconds(100)
            let session = NDEFSession(device: device)
            do throws(NDEFSessionError) {
                try await session.acquireGate(for: "a test write")
                await session.releaseGate()
                Issue.record("the NDEF session got the reader while a tag session held it")
            } catch {
                guard case .readerBusy(let heldBy) = error else {
                    Issue.record("expected readerBusy, got \(error)")
                    return
                }
                #expect(heldBy.hasPrefix("held by a tag session waiting for a tag for "))
                #expect(error.description.contains("nothing was sent"))
            }
            #expect(device.tagAccess.occupancy == (true, 0))

            holder.cancel()
            _ = await holder.result
            #expect(device.tagAccess.occupancy == (false, 0))
            await device.close()
        }
    }
}

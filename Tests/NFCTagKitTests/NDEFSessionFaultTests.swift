import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// The reader pulled out in the middle of a write, and a session sharing its device with
/// raw transceives from another task.
@Suite("NDEFSession faults and sharing", .tags(.reader), .serialized, .timeLimit(.minutes(4)))
struct NDEFSessionFaultTests {
    /// Whether `message` is what `state` allows the tag to hold after an interrupted write.
    static func consistent(_ message: NDEFMessage, with state: NDEFTagContentState) -> Bool {
        switch state {
        case .previousMessageIntact: message == SessionMessages.old
        case .emptyMessage: message == SessionMessages.empty
        case .newMessageUnverified: message == SessionMessages.new
        case .unknown: [SessionMessages.old, SessionMessages.new, SessionMessages.empty].contains(message)
        }
    }

    @Test(
        "reader unplugged before each frame k of a write: connectionLost with the state; after reconnection the tag reads as that state says"
    )
    func unplugMatrix() async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: .ntag215, uid: SessionUID.first)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 200) {
            var k = 0
            var statesSeen: Set<String> = []
            while true {
                let fault = UnplugBeforeFrame(unplugAt: k, emulator: harness.emulator)
                await harness.session.setTransportDecorator(nil)
                var mark = harness.log.all.count
                var tag = try await harness.connectToOnlyTag(from: 0)
                try await tag.writeNDEF(SessionMessages.old)
                await harness.session.setTransportDecorator { fault.decorate($0) }
                try await harness.session.restartPolling()
                mark = harness.log.all.count
                tag = try await harness.connectToOnlyTag(from: mark, seconds: 120)
                fault.arm()
                let failure: NDEFSessionError
                do throws(NDEFSessionError) {
                    try await tag.writeNDEF(SessionMessages.new)
                    #expect(!fault.fired, "the write succeeded although the reader was unplugged at frame \(k)")
                    break
                } catch {
                    failure = error
                }
                guard case .connectionLost(let step, let state, let loss) = failure else {
                    Issue.record("frame \(k): expected connectionLost, got \(failure)")
                    return
                }
                #expect(step != nil && loss != nil, "frame \(k): \(failure)")
                statesSeen.insert("\(state)")
                #expect(await harness.session.state == .polling, "frame \(k)")
                // The tags are forgotten with the reader, so the tag is reported afresh after
                // the reconnection even if the device is back before the next polling round.
                #expect(await harness.session.detectedTags.isEmpty, "frame \(k)")
                await harness.session.setTransportDecorator(nil)
                mark = harness.log.all.count
                try harness.emulator.plug()
                // Polling and reconnection run on the real clock: on two busy cores, beside the
                // whole suite, a wait here took longer than the usual 45 s (a CI run of 2026-12-07).
                let again = try await harness.connectToOnlyTag(from: mark, seconds: 120)
                let message = try await again.readNDEF()
                #expect(
                    Self.consistent(message, with: state), "frame \(k): state \(state) but the tag reads \(message)")
                k += 1
            }
            #expect(k > 3, "the write took only \(k) frames")
            #expect(statesSeen.contains("\(NDEFTagContentState.previousMessageIntact)"), "\(statesSeen)")
            #expect(statesSeen.count >= 2, "\(statesSeen)")
            await harness.stop()
        }
    }

    @Test("an NDEF write and raw transceives from another task on one device stay correct, one libnfc call at a time")
    func sharedDevice() async throws {
        let harness = try await SessionHarness.start(tags: [try Type2Tag(chip: .ntag216, uid: SessionUID.first)])
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            let tag = try await harness.connectToOnlyTag()
            let message = try SessionMessages.sized(600)
            let device = harness.device
            let readCode = try #require(ChipTables.spec(for: .ntag216).command(.read)?.code)
            let raw = Task { () -> (good: Int, wrong: Int) in
                var good = 0
                var wrong = 0
                for _ in 0..<40 {
                    // READ page 0: the UID's first three bytes, whatever the session is doing.
                    if let answer = try? await device.transceive([readCode, 0x00]) {
                        if Array(answer.bytes.prefix(3)) == Array(SessionUID.first.prefix(3)) {
                            good += 1
                        } else {
                            wrong += 1
                        }
                    }
                    await Task.yield()
                }
                return (good, wrong)
            }
            try await tag.writeNDEF(message)
            let counts = await raw.value
            #expect(try await tag.readNDEF() == message)
            #expect(counts.good > 0)
            #expect(counts.wrong == 0)
            #expect(await device.link.mostCallsInFlight == 1)
            await harness.stop()
        }
    }
}

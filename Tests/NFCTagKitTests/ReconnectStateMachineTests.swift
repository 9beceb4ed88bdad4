@testable import NFCTagKit
import TestSupport
import Testing

@Suite("Reconnection state machine")
struct ReconnectStateMachineTests {
    func connectedMachine(_ configure: (inout ReconnectionPolicy) -> Void = { _ in }) -> ReconnectStateMachine {
        var policy = ReconnectionPolicy()
        configure(&policy)
        var machine = ReconnectStateMachine(policy: policy)
        _ = machine.connected()
        return machine
    }

    @Test("a loss with reconnection on starts reconnecting at once, status connecting")
    func lossStartsReconnection() {
        var machine = connectedMachine()
        let step = machine.lost(.unplugged)
        #expect(step.outputs == [.reconnectStarted(.unplugged)])
        #expect(step.status == .connecting)
        #expect(step.next == .attempt(after: .zero))
        #expect(machine.state == .reconnecting(reason: .unplugged, attempt: 1))
    }

    @Test("a loss with reconnection off reports disconnected and stops")
    func lossWithoutReconnection() {
        var machine = connectedMachine { $0.isEnabled = false }
        let step = machine.lost(.notResponding)
        #expect(step.outputs == [.disconnected(.notResponding)])
        #expect(step.status == .notConnected)
        #expect(step.next == .none)
        #expect(machine.state == .idle)
    }

    @Test("a success after failures reports reconnectSucceeded once")
    func successAfterFailures() {
        var machine = connectedMachine()
        _ = machine.lost(.unplugged)
        let first = machine.attemptFailed(elapsed: .milliseconds(10))
        #expect(first.outputs.isEmpty)
        #expect(first.next == .attempt(after: .milliseconds(200)))
        let second = machine.attemptFailed(elapsed: .milliseconds(300))
        #expect(second.next == .attempt(after: .milliseconds(400)))
        let success = machine.attemptSucceeded()
        #expect(success.outputs == [.reconnectSucceeded])
        #expect(success.status == .connected)
        #expect(machine.state == .connected)
        #expect(machine.attemptSucceeded() == .init())
    }

    @Test("running out of attempts reports reconnectFailed then disconnected with the first reason")
    func attemptsExhausted() {
        var machine = connectedMachine { $0.maximumAttempts = 3 }
        _ = machine.lost(.ioError(LibNFCError(code: .io, operation: "op", message: "m")))
        _ = machine.attemptFailed(elapsed: .zero)
        _ = machine.attemptFailed(elapsed: .zero)
        let last = machine.attemptFailed(elapsed: .zero)
        #expect(
            last.outputs == [
                .reconnectFailed, .disconnected(.ioError(LibNFCError(code: .io, operation: "op", message: "m"))),
            ])
        #expect(last.status == .notConnected)
        #expect(last.next == .stopAttempts)
        #expect(machine.state == .idle)
    }

    @Test(
        "attempts that find no reader node do not use up the attempts: a slow return within the time limit is waited for"
    )
    func absentReaderWaitsForTimeLimit() {
        var machine = connectedMachine {
            $0.maximumAttempts = 3
            $0.timeout = .seconds(10)
            $0.maximumDelay = .milliseconds(200)
        }
        _ = machine.lost(.unplugged)
        for attempt in 1...40 {
            let step = machine.attemptFailed(elapsed: .milliseconds(Int64(attempt) * 200), readerPresent: false)
            #expect(step.outputs.isEmpty, "attempt \(attempt)")
            #expect(step.next == .attempt(after: machine.policy.delay(beforeAttempt: attempt + 1)))
        }
        // Back, but refusing: now the attempts count.
        _ = machine.attemptFailed(elapsed: .milliseconds(8_300))
        _ = machine.attemptFailed(elapsed: .milliseconds(8_500))
        let last = machine.attemptFailed(elapsed: .milliseconds(8_700))
        #expect(last.outputs == [.reconnectFailed, .disconnected(.unplugged)])
        // The time limit still ends a wait for a reader that never comes back.
        var gone = connectedMachine {
            $0.maximumAttempts = 3
            $0.timeout = .seconds(1)
        }
        _ = gone.lost(.unplugged)
        #expect(gone.attemptFailed(elapsed: .milliseconds(100), readerPresent: false).outputs.isEmpty)
        #expect(
            gone.attemptFailed(elapsed: .milliseconds(900), readerPresent: false).outputs == [
                .reconnectFailed, .disconnected(.unplugged),
            ])
    }

    @Test("the time limit ends reconnection even with attempts left")
    func timeLimit() {
        var machine = connectedMachine {
            $0.timeout = .seconds(1)
            $0.maximumAttempts = 100
        }
        _ = machine.lost(.unplugged)
        let step = machine.attemptFailed(elapsed: .milliseconds(900))
        #expect(step.outputs == [.reconnectFailed, .disconnected(.unplugged)])
    }

    @Test("cancel during reconnection reports reconnectFailed then disconnected; later inputs do nothing")
    func cancel() {
        var machine = connectedMachine()
        _ = machine.lost(.unplugged)
        let step = machine.cancel()
        #expect(step.outputs == [.reconnectFailed, .disconnected(.unplugged)])
        #expect(step.next == .stopAttempts)
        #expect(machine.cancel() == .init())
        #expect(machine.attemptFailed(elapsed: .zero) == .init())
        #expect(machine.attemptSucceeded() == .init())
    }

    @Test("a second loss while reconnecting, or a loss while idle, is ignored")
    func repeatedLoss() {
        var machine = connectedMachine()
        _ = machine.lost(.unplugged)
        #expect(machine.lost(.notResponding) == .init())
        var idle = ReconnectStateMachine(policy: ReconnectionPolicy())
        #expect(idle.lost(.unplugged) == .init())
    }

    @Test("closing stops attempts silently")
    func closeStopsAttempts() {
        var machine = connectedMachine()
        _ = machine.lost(.unplugged)
        let step = machine.closed()
        #expect(step.outputs.isEmpty)
        #expect(step.next == .stopAttempts)
        #expect(step.status == .notConnected)
    }

    @Test("random input sequences keep the event grammar: started, then succeeded or failed+disconnected")
    func randomSequencesKeepGrammar() {
        let seed: UInt64 = 0x5EED_0004
        var random = SplitMix64(seed: seed)
        for round in 0..<500 {
            var machine = connectedMachine { $0.maximumAttempts = Int(random.next() % 5) + 1 }
            var outputs: [Recorded] = []
            for _ in 0..<20 {
                let step: ReconnectStateMachine.Step
                switch random.next() % 6 {
                case 0: step = machine.lost(.unplugged)
                case 1, 2: step = machine.attemptFailed(elapsed: .milliseconds(Int64(random.next() % 1000)))
                case 3: step = machine.attemptSucceeded()
                case 4: step = machine.cancel()
                default:
                    // What connect(to:) does: close silently, then connect.
                    _ = machine.closed()
                    outputs.append(.closed)
                    step = machine.connected()
                }
                outputs += step.outputs.map(Recorded.output)
            }
            #expect(Self.grammarHolds(outputs), "seed \(seed) round \(round): \(outputs)")
        }
    }

    enum Recorded: Equatable {
        case output(ReconnectStateMachine.Output)
        case closed
    }

    /// started (succeeded | failed disconnected) … ; a silent close ends any reconnection.
    static func grammarHolds(_ outputs: [Recorded]) -> Bool {
        var reconnecting = false
        var index = 0
        while index < outputs.count {
            guard case .output(let output) = outputs[index] else {
                reconnecting = false
                index += 1
                continue
            }
            switch output {
            case .reconnectStarted:
                if reconnecting { return false }
                reconnecting = true
            case .reconnectSucceeded:
                if !reconnecting { return false }
                reconnecting = false
            case .reconnectFailed:
                if !reconnecting { return false }
                guard index + 1 < outputs.count, case .output(.disconnected) = outputs[index + 1] else { return false }
                reconnecting = false
                index += 1
            case .disconnected:
                if reconnecting { return false }
            }
            index += 1
        }
        return true
    }
}

@Suite("Reconnection back-off")
struct ReconnectionPolicyTests {
    @Test("the first attempt is immediate, later waits double up to the ceiling")
    func backoff() {
        let policy = ReconnectionPolicy()
        #expect(policy.delay(beforeAttempt: 1) == .zero)
        #expect(policy.delay(beforeAttempt: 2) == .milliseconds(200))
        #expect(policy.delay(beforeAttempt: 3) == .milliseconds(400))
        #expect(policy.delay(beforeAttempt: 4) == .milliseconds(800))
        #expect(policy.delay(beforeAttempt: 5) == .milliseconds(1600))
        #expect(policy.delay(beforeAttempt: 6) == .seconds(2))
        #expect(policy.delay(beforeAttempt: 60) == .seconds(2))
    }
}

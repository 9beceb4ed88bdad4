import Foundation
import NFCEmulator
@testable import NFCTagKit
import Testing
import TestSupport

@Suite("Losing the reader and getting it back, through the emulated PN532", .tags(.reader))
struct NFCDeviceReconnectionTests {
    @Test(
        "unplugged mid-session then plugged back at the same link: the call fails with connectionLost, reconnection succeeds, events in order"
    )
    func unplugThenPlugBack() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = NFCDevice()
            let log = EventLog(device)
            let clock = ManualClock()
            try await device.connect(
                to: fixture.reader, configuration: fixture.configuration(liveness: nil, clock: clock))
            try await device.selectTarget()
            fixture.emulator.unplug()
            do {
                _ = try await device.transceive([0x30, 0x00])
                Issue.record("a transceive on an unplugged reader succeeded")
            } catch let error as NFCDeviceError {
                guard case .connectionLost(let reason) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(reason == .unplugged)
            }
            #expect(await device.status == .connecting)
            // Calls during the reconnection fail at once with the same reason.
            await #expect(throws: NFCDeviceError.connectionLost(.unplugged)) { try await device.selectTarget() }
            // Two attempts find no reader; the reader comes back before the third.
            await clock.run(by: .milliseconds(200)) { clock.elapsed >= .milliseconds(400) }
            try fixture.emulator.plug()
            await clock.run(by: .milliseconds(200)) { log.names.contains("reconnectSucceeded") }
            #expect(log.names == ["connected", "reconnectStarted", "reconnectSucceeded"])
            #expect(log.all[1].reason == .unplugged)
            #expect(await device.status == .connected)
            // Sessions re-select after a loss; the tag is there again.
            #expect(try await device.selectTarget()?.uid == TestUID.first)
            #expect(try await device.transceive([0x30, 0x00]).bytes == Array(0..<16))
            await device.close()
        }
    }

    @Test("an idle reader unplugged is noticed by the liveness check")
    func idleUnplugNoticed() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = NFCDevice()
            let log = EventLog(device)
            let clock = ManualClock()
            try await device.connect(
                to: fixture.reader, configuration: fixture.configuration(liveness: .milliseconds(100), clock: clock))
            fixture.emulator.unplug()
            // Nothing is sent: only the liveness check, on the clock, notices.
            await clock.run(by: .milliseconds(100)) { log.names.contains("reconnectStarted") }
            try fixture.emulator.plug()
            await clock.run(by: .milliseconds(200)) { log.names.contains("reconnectSucceeded") }
            #expect(log.names == ["connected", "reconnectStarted", "reconnectSucceeded"])
            await device.close()
        }
    }

    @Test("unplugged for good: reconnectStarted, reconnectFailed at the time limit, then disconnected with the reason")
    func unpluggedForGood() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = NFCDevice()
            let log = EventLog(device)
            // Attempts that find no device node do not count: the time limit ends the wait.
            let clock = ManualClock()
            var configuration = fixture.configuration(attempts: 3, liveness: nil, clock: clock)
            configuration.reconnection.timeout = .seconds(2)
            try await device.connect(to: fixture.reader, configuration: configuration)
            fixture.emulator.unplug()
            await #expect(throws: NFCDeviceError.connectionLost(.unplugged)) { try await device.listTargets() }
            await clock.run(by: .milliseconds(200)) { log.names.contains("disconnected") }
            // It gives up when the next attempt (200 ms on) would fall past the 2 s limit.
            #expect(
                clock.elapsed + .milliseconds(200) >= .seconds(2) && clock.elapsed <= .seconds(2),
                "given up at \(clock.elapsed)")
            #expect(log.names == ["connected", "reconnectStarted", "reconnectFailed", "disconnected"])
            #expect(log.all.last?.reason == .unplugged)
            #expect(await device.status == .notConnected)
            await #expect(throws: NFCDeviceError.connectionLost(.unplugged)) { try await device.listTargets() }
            await device.close()
        }
    }

    @Test("cancelling the reconnection through the event's handle ends it: reconnectFailed, disconnected")
    func cancelReconnection() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = NFCDevice()
            let log = EventLog(device)
            let clock = ManualClock()
            try await device.connect(
                to: fixture.reader, configuration: fixture.configuration(attempts: 1000, liveness: nil, clock: clock))
            fixture.emulator.unplug()
            _ = try? await device.listTargets()
            try await log.wait(for: "reconnectStarted")
            guard case .reconnectStarted(_, let cancel) = log.all[1] else {
                Issue.record("no handle")
                return
            }
            cancel.cancel()
            try await log.wait(for: "disconnected")
            // No attempt is left on the clock: plugging back after the cancel does not reconnect.
            #expect(clock.sleepers == 0)
            try fixture.emulator.plug()
            clock.advance(by: .seconds(60))
            #expect(log.names == ["connected", "reconnectStarted", "reconnectFailed", "disconnected"])
            #expect(await device.status == .notConnected)
            cancel.cancel()
            await device.close()
        }
    }

    @Test("with automatic reconnection off the app gets disconnected and reconnects itself")
    func reconnectionOff() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = NFCDevice()
            let log = EventLog(device)
            let configuration = fixture.configuration(reconnect: false, liveness: nil)
            try await device.connect(to: fixture.reader, configuration: configuration)
            fixture.emulator.unplug()
            await #expect(throws: NFCDeviceError.connectionLost(.unplugged)) { try await device.listTargets() }
            try await log.wait(for: "disconnected")
            #expect(await device.status == .notConnected)
            try fixture.emulator.plug()
            try await device.connect(to: fixture.reader, configuration: configuration)
            #expect(log.names == ["connected", "disconnected", "connected"])
            #expect(try await device.selectTarget()?.uid == TestUID.first)
            await device.close()
        }
    }

    @Test("reset reopens the reader; with reconnection on the app sees reconnectStarted(reset), reconnectSucceeded")
    func resetWithReconnection() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = NFCDevice()
            let log = EventLog(device)
            try await device.connect(to: fixture.reader, configuration: fixture.configuration(liveness: nil))
            try await device.selectTarget()
            try await device.reset()
            #expect(await device.status == .connected)
            #expect(await device.selectedTarget == nil)
            try await log.wait(for: "reconnectSucceeded")
            #expect(log.names == ["connected", "reconnectStarted", "reconnectSucceeded"])
            #expect(log.all[1].reason == .reset)
            #expect(try await device.selectTarget()?.uid == TestUID.first)
            await device.close()
        }
    }

    @Test("reset with reconnection off: disconnected(reset), then connected")
    func resetWithoutReconnection() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = NFCDevice()
            let log = EventLog(device)
            try await device.connect(
                to: fixture.reader, configuration: fixture.configuration(reconnect: false, liveness: nil))
            try await device.reset()
            try await log.wait(for: "connected", count: 2)
            #expect(log.names == ["connected", "disconnected", "connected"])
            #expect(log.all[1].reason == .reset)
            #expect(try await device.selectTarget()?.uid == TestUID.first)
            await device.close()
        }
    }

    @Test("events also reach the configuration's handler, in the same order")
    func eventHandler() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let (stream, continuation) = AsyncStream<ReaderEvent>.makeStream()
            let handled = EventLog(stream)
            let device = NFCDevice()
            let clock = ManualClock()
            try await device.connect(
                to: fixture.reader,
                configuration: fixture.configuration(liveness: nil, events: { continuation.yield($0) }, clock: clock))
            fixture.emulator.unplug()
            _ = try? await device.listTargets()
            try fixture.emulator.plug()
            await clock.run(by: .milliseconds(200)) { handled.names.contains("reconnectSucceeded") }
            #expect(handled.names == ["connected", "reconnectStarted", "reconnectSucceeded"])
            await device.close()
        }
    }
}

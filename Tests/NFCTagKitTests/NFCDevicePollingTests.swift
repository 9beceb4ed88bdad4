import Foundation
import NFCEmulator
@testable import NFCTagKit
import Testing
import TestSupport

@Suite("Polling for a tag through the emulated PN532", .tags(.reader))
struct NFCDevicePollingTests {
    /// InListPassiveTarget commands the reader has answered so far.
    private static func selects(_ fixture: EmulatorFixture) -> Int {
        fixture.emulator.statistics.commandsByCode[0x4A] ?? 0
    }

    /// Waits until `count` more selects than `before` have reached the reader: the poll is
    /// running and has found the field empty that many times.
    private static func waitForSelects(_ fixture: EmulatorFixture, after before: Int, count: Int) async throws {
        try await withTimeLimit(seconds: 20) {
            while selects(fixture) < before + count { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test("a poll on an empty field returns the tag once it enters")
    func pollFindsArrivingTag() async throws {
        let fixture = try EmulatorFixture(tags: [])
        defer { fixture.stop() }
        try await withTimeLimit {
            let device = try await fixture.connectedDevice()
            let before = Self.selects(fixture)
            let poll = Task { try await device.waitForTarget(timeout: .seconds(10), pollInterval: .milliseconds(20)) }
            // Let a few empty selects go by, then bring the tag.
            try await Self.waitForSelects(fixture, after: before, count: 3)
            fixture.emulator.insert(PageTag(uid: TestUID.second))
            let target = try await poll.value
            #expect(target.uid == TestUID.second)
            #expect(await device.selectedTarget == target)
            #expect(try await device.transceive([0x30, 0x00]).bytes == Array(0..<16))
            await device.close()
        }
    }

    @Test("a poll on an empty field ends with timeout")
    func pollTimesOut() async throws {
        let fixture = try EmulatorFixture(tags: [])
        defer { fixture.stop() }
        try await withTimeLimit {
            let device = try await fixture.connectedDevice()
            await #expect(throws: NFCDeviceError.timeout) {
                try await device.waitForTarget(timeout: .milliseconds(300), pollInterval: .milliseconds(20))
            }
            #expect(await device.status == .connected)
            await device.close()
        }
    }

    @Test("cancelling the polling task ends the poll with cancelled, and the device keeps working")
    func cancelPoll() async throws {
        let fixture = try EmulatorFixture(tags: [])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 10) {
            let device = try await fixture.connectedDevice()
            let before = Self.selects(fixture)
            let poll = Task { try await device.waitForTarget(timeout: nil, pollInterval: .milliseconds(5)) }
            try await Self.waitForSelects(fixture, after: before, count: 2)
            poll.cancel()
            await #expect(throws: NFCDeviceError.cancelled) { try await poll.value }
            // The device is still usable after the abort.
            fixture.emulator.insert(PageTag(uid: TestUID.first))
            let target = try await device.waitForTarget(timeout: .seconds(5), pollInterval: .milliseconds(20))
            #expect(target.uid == TestUID.first)
            #expect(try await device.transceive([0x30, 0x00]).bytes == Array(0..<16))
            await device.close()
        }
    }

    @Test("other calls run between poll attempts")
    func callsInterleaveWithPoll() async throws {
        let fixture = try EmulatorFixture(tags: [])
        defer { fixture.stop() }
        try await withTimeLimit {
            let device = try await fixture.connectedDevice()
            let before = Self.selects(fixture)
            let poll = Task { try await device.waitForTarget(timeout: nil, pollInterval: .milliseconds(50)) }
            try await Self.waitForSelects(fixture, after: before, count: 1)
            // Not blocked behind the endless poll.
            #expect(try await device.listTargets().isEmpty)
            poll.cancel()
            _ = await poll.result
            #expect(await device.link.mostCallsInFlight == 1)
            await device.close()
        }
    }
}

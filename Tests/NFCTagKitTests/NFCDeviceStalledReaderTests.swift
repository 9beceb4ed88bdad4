import Foundation
@testable import NFCTagKit
import Testing

@Suite("A reader chip that stops answering")
struct NFCDeviceStalledReaderTests {
    func configuration(_ directory: TemporaryDirectory, reconnect: Bool = false) -> ConnectionConfiguration {
        var configuration = ConnectionConfiguration()
        configuration.lastReaderStore = LastReaderStore(path: directory.file("last-reader.json"))
        configuration.reconnection.isEnabled = reconnect
        configuration.livenessInterval = nil
        return configuration
    }

    @Test("cancelling a poll whose select the chip never answers aborts it with nfc_abort_command")
    func abortInFlightSelect() async throws {
        LibNFCTestEnvironment.prepare()
        let directory = try TemporaryDirectory()
        let reader = try StallingPN532(link: directory.file("reader"))
        defer {
            reader.stop()
            directory.cleanUp()
        }
        try await withTimeLimit(seconds: 15) {
            let device = NFCDevice()
            try await device.connect(
                toConnectionString: reader.connectionString, configuration: configuration(directory))
            reader.mode = .stallSelect
            let poll = Task { try await device.waitForTarget(timeout: nil) }
            // libnfc now waits without a timeout for the InListPassiveTarget answer.
            while reader.stalledSelects == 0 { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .milliseconds(100))
            poll.cancel()
            await #expect(throws: NFCDeviceError.cancelled) { try await poll.value }
            // The chip was told to drop the command; the device goes on working.
            reader.mode = .normal
            #expect(try await device.listTargets().isEmpty)
            #expect(await device.status == .connected)
            await device.close()
        }
    }

    @Test("a chip that answers nothing at all ends the call with connectionLost(notResponding), not a hang")
    func muteChip() async throws {
        LibNFCTestEnvironment.prepare()
        let directory = try TemporaryDirectory()
        let reader = try StallingPN532(link: directory.file("reader"))
        defer {
            reader.stop()
            directory.cleanUp()
        }
        try await withTimeLimit(seconds: 20) {
            let device = NFCDevice()
            let log = EventLog(device)
            try await device.connect(
                toConnectionString: reader.connectionString, configuration: configuration(directory))
            reader.mode = .mute
            await #expect(throws: NFCDeviceError.connectionLost(.notResponding)) {
                try await device.transceive([0x30, 0x00], timeout: .milliseconds(200))
            }
            try await log.wait(for: "disconnected")
            #expect(log.names == ["connected", "disconnected"])
            #expect(await device.status == .notConnected)
            await device.close()
        }
    }
}

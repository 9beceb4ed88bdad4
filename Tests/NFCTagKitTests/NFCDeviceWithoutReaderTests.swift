@testable import NFCTagKit
import Testing

@Suite("NFCDevice without a reader")
struct NFCDeviceWithoutReaderTests {
    init() { LibNFCTestEnvironment.prepare() }

    @Test("every call before connecting fails with notConnected")
    func callsBeforeConnect() async {
        let device = NFCDevice()
        #expect(await device.status == .notConnected)
        await #expect(throws: NFCDeviceError.notConnected) { try await device.transceive([0x30, 0x00]) }
        await #expect(throws: NFCDeviceError.notConnected) { try await device.selectTarget() }
        await #expect(throws: NFCDeviceError.notConnected) { try await device.listTargets() }
        await #expect(throws: NFCDeviceError.notConnected) { try await device.reset() }
        await #expect(throws: NFCDeviceError.noTargetSelected) { try await device.isTargetPresent() }
    }

    @Test("connecting to a serial port that does not exist says the reader was not found")
    func missingPort() async throws {
        let device = NFCDevice()
        var configuration = ConnectionConfiguration()
        configuration.lastReaderStore = nil
        let statuses = device.statusUpdates
        await #expect(throws: NFCDeviceError.readerNotFound("pn532_uart:/dev/no-such-reader")) {
            try await device.connect(toConnectionString: "pn532_uart:/dev/no-such-reader", configuration: configuration)
        }
        #expect(await device.status == .notConnected)
        #expect(await !device.isConnected)
        await device.close()
        var seen: [ConnectionStatus] = []
        for await status in statuses {
            seen.append(status)
            if seen.count == 3 { break }
        }
        #expect(seen == [.notConnected, .connecting, .notConnected])
    }

    @Test("close is idempotent")
    func closeTwice() async {
        let device = NFCDevice()
        await device.close()
        await device.close()
        #expect(await device.status == .notConnected)
    }

    @Test("argument checks come before any libnfc call")
    func argumentChecks() async {
        let device = NFCDevice()
        await #expect(throws: NFCDeviceError.invalidArgument("a command has at least one byte")) {
            try await device.transceive([])
        }
        await #expect(throws: NFCDeviceError.invalidArgument("a UID has 4, 7 or 10 bytes, not 3")) {
            try await device.selectTarget(uid: [1, 2, 3])
        }
        await #expect(throws: NFCDeviceError.invalidArgument("maximum must be 1…16, not 0")) {
            try await device.listTargets(maximum: 0)
        }
    }

    @Test("durations become whole milliseconds for libnfc, never 0 (which means forever)")
    func milliseconds() {
        #expect(NFCDevice.milliseconds(.seconds(2)) == 2000)
        #expect(NFCDevice.milliseconds(.microseconds(10)) == 1)
        #expect(NFCDevice.milliseconds(.zero) == 1)
        #expect(NFCDevice.milliseconds(.seconds(1) * 10_000_000) == Int32.max)
    }
}

@Suite("LibNFC wrapper against the system libnfc")
struct LibNFCWrapperTests {
    init() { LibNFCTestEnvironment.prepare() }

    @Test("a missing reader is NFC_ENOTSUCHDEV from nfc_open")
    func openMissing() throws {
        #expect(LibNFC.version.hasPrefix("1."))
        #expect(
            throws: LibNFCError(
                code: .noSuchDevice, operation: "nfc_open",
                message: "libnfc could not open pn532_uart:/dev/no-such-reader")
        ) {
            try LibNFC.open(connectionString: "pn532_uart:/dev/no-such-reader")
        }
        // The scan must come back (empty here: no reader, no auto-scan) without crashing.
        _ = try LibNFC.listDevices(maximum: 4)
    }
}

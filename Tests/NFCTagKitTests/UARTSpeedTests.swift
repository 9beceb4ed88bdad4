import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport
@testable import NFCTagKit

@Suite(
    "PN532 UART speed: switched up at connect, back at close, through libnfc and the emulated PN532", .serialized,
    .blockingCalls)
struct UARTSpeedTests {
    private static let setSerialBaudRate = ChipTables.pn532.code(.setSerialBaudRate)
    private static let fastest = PN532SerialLink.fasterSpeeds[0]
    private static let standard = PN532SerialLink.standardSpeed

    /// Waits (bounded) until the emulated chip runs at `baud`.
    private static func chipReaches(_ baud: Int, _ emulator: PN532Emulator) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while emulator.statistics.uartBaud != baud, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        return emulator.statistics.uartBaud == baud
    }

    /// libnfc's `nfc-list` on `connectionString`: its exit status and output; nil when it is
    /// not installed.
    private static func nfcList(_ connectionString: String) throws -> (status: Int32, output: String)? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard
            path.split(separator: ":").contains(where: {
                FileManager.default.isExecutableFile(atPath: "\($0)/nfc-list")
            })
        else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["nfc-list"]
        var environment = ProcessInfo.processInfo.environment
        environment["LIBNFC_DEVICE"] = connectionString
        environment["LIBNFC_AUTO_SCAN"] = "false"
        environment["LIBNFC_LOG_LEVEL"] = "0"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test("connect switches chip and port to 460 800 baud; ReaderInfo says so; tags answer there")
    func switchesUp() async throws {
        let fixture = try EmulatorFixture(kind: .pn532)
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = try await fixture.connectedDevice()
            #expect(Self.fastest == 460_800)
            #expect(await device.readerInfo?.serialSpeed == Self.fastest)
            #expect(fixture.uart.statistics.uartBaud == Self.fastest)
            let target = try await device.selectTarget()
            #expect(target?.uid == TestUID.first)
            await device.close()
        }
    }

    @Test("close switches back to 115 200: libnfc's nfc-list with the plain connection string works afterwards")
    func switchesBackAtClose() async throws {
        let fixture = try EmulatorFixture(kind: .pn532)
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = try await fixture.connectedDevice()
            await device.close()
            #expect(try await Self.chipReaches(Self.standard, fixture.uart))
            #expect(fixture.uart.statistics.commandsByCode[Self.setSerialBaudRate] == 2)
            guard let (status, output) = try Self.nfcList(fixture.connectionString) else { return }
            #expect(status == 0, "\(output)")
            #expect(output.contains("ISO/IEC 14443A"), "\(output)")
        }
    }

    @Test("an automatic reconnection after an unplug switches up again")
    func reconnectionSwitchesUp() async throws {
        let fixture = try EmulatorFixture(kind: .pn532)
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = NFCDevice()
            let log = EventLog(device)
            try await device.connect(
                to: fixture.reader, configuration: fixture.configuration(liveness: .milliseconds(100)))
            fixture.uart.unplug()
            try await log.wait(for: "reconnectStarted")
            try fixture.uart.plug()  // a new chip: 115 200 baud again
            try await log.wait(for: "reconnectSucceeded")
            #expect(fixture.uart.statistics.uartBaud == Self.fastest)
            #expect(await device.readerInfo?.serialSpeed == Self.fastest)
            await device.close()
        }
    }

    @Test("a speed in the connection string is left alone")
    func writtenSpeedIsKept() async throws {
        let fixture = try EmulatorFixture(kind: .pn532)
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = NFCDevice()
            try await device.connect(
                toConnectionString: fixture.connectionString + ":115200",
                configuration: fixture.configuration(liveness: nil))
            #expect(await device.readerInfo?.serialSpeed == Self.standard)
            await device.close()
            #expect(fixture.uart.statistics.commandsByCode[Self.setSerialBaudRate] == nil)
        }
    }

    @Test("a chip that refuses a speed gets the next slower one, or stays at 115 200", arguments: [230_400, 115_200])
    func refusedSpeedFallsBack(maximum: Int) async throws {
        let fixture = try EmulatorFixture(faults: FaultPlan(parsing: ["max-baud=\(maximum)"]), kind: .pn532)
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = try await fixture.connectedDevice()
            #expect(await device.readerInfo?.serialSpeed == maximum)
            #expect(fixture.uart.statistics.uartBaud == maximum)
            #expect(try await device.selectTarget()?.uid == TestUID.first)
            await device.close()
            #expect(try await Self.chipReaches(Self.standard, fixture.uart))
        }
    }

    @Test("the first connect survives an adapter that delivers the first answer a second late")
    func slowFirstAnswer() async throws {
        let fixture = try EmulatorFixture(faults: FaultPlan(parsing: ["first-answer-delay=1000"]), kind: .pn532)
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = try await fixture.connectedDevice()
            #expect(try await device.selectTarget()?.uid == TestUID.first)
            await device.close()
        }
    }

    @Test("the committing ACK is never lost: 100 switches up and down in a row, each one seen by the chip")
    func ackNeverLost() async throws {
        let fixture = try EmulatorFixture(kind: .pn532)
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            for _ in 0..<50 {
                try PN532SerialLink.switchSpeed(path: fixture.uart.devicePath, from: Self.standard, to: Self.fastest)
                #expect(try await Self.chipReaches(Self.fastest, fixture.uart))
                try PN532SerialLink.switchSpeed(path: fixture.uart.devicePath, from: Self.fastest, to: Self.standard)
                #expect(try await Self.chipReaches(Self.standard, fixture.uart))
            }
            #expect(fixture.uart.statistics.commandsByCode[Self.setSerialBaudRate] == 100)
        }
    }

    @Test(
        "a chip a killed program left at 460 800 or 230 400: nfc-list gets no answer, connect finds it, close brings it back",
        arguments: [460_800, 230_400])
    func chipLeftAtAnotherSpeed(speed: Int) async throws {
        let fixture = try EmulatorFixture(kind: .pn532)
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            // What a program killed while it held the reader leaves behind: the switch without the switch back.
            try PN532SerialLink.switchSpeed(path: fixture.uart.devicePath, from: Self.standard, to: speed)
            #expect(try await Self.chipReaches(speed, fixture.uart))
            if let (status, output) = try Self.nfcList(fixture.connectionString) {
                #expect(
                    !output.contains("opened"), "nfc-list at 115 200 reached a chip at \(speed): \(status) \(output)")
                #expect(fixture.uart.statistics.bytesAtWrongSpeed > 0)
            }
            let device = try await fixture.connectedDevice()
            #expect(await device.readerInfo?.serialSpeed == Self.fastest)
            #expect(try await device.selectTarget()?.uid == TestUID.first)
            await device.close()
            #expect(try await Self.chipReaches(Self.standard, fixture.uart))
            if let (status, output) = try Self.nfcList(fixture.connectionString) {
                #expect(status == 0, "\(output)")
                #expect(output.contains("ISO/IEC 14443A"), "\(output)")
            }
        }
    }

    @Test("a device released without close() switches the chip back to 115 200 on its thread")
    func releasedDeviceSwitchesBack() async throws {
        let fixture = try EmulatorFixture(kind: .pn532)
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            var device: NFCDevice? = try await fixture.connectedDevice()
            #expect(await device?.readerInfo?.serialSpeed == Self.fastest)
            device = nil
            #expect(device == nil)
            #expect(try await Self.chipReaches(Self.standard, fixture.uart))
        }
    }

    @Test("a power cycle brings a chip left at 460 800 back to 115 200")
    func powerCycleRestoresStandardSpeed() async throws {
        let fixture = try EmulatorFixture(kind: .pn532)
        defer { fixture.stop() }
        try PN532SerialLink.switchSpeed(path: fixture.uart.devicePath, from: Self.standard, to: Self.fastest)
        #expect(try await Self.chipReaches(Self.fastest, fixture.uart))
        fixture.uart.unplug()
        try fixture.uart.plug()
        #expect(fixture.uart.statistics.uartBaud == Self.standard)
        if let (status, output) = try Self.nfcList(fixture.connectionString) {
            #expect(status == 0, "\(output)")
        }
    }
}

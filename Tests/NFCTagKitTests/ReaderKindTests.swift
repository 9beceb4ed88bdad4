import Foundation
import NFCEmulator
@testable import NFCTagKit
import Testing
import TestSupport

/// The reader kind this process runs on (`NFCTAGKIT_TEST_READER`, set by
/// scripts/test-reader-kinds) is the one libnfc opens: the suites that follow it prove
/// something about that reader, never silently about the PN532 UART.
@Suite("The reader kind under test", .tags(.reader), .serialized, .timeLimit(.minutes(1)))
struct ReaderKindTests {
    @Test("the fixture's reader is the kind asked for, opened through its own libnfc driver, with its tag selectable")
    func fixtureIsTheKindAskedFor() async throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        let kind = ReaderUnderTest.current
        let driver =
            switch kind {
            case .pn532: "pn532_uart"
            case .acr122u: "acr122_usb"
            case .pn533: "pn53x_usb"
            }
        #expect(fixture.connectionString.hasPrefix(driver + ":"), "\(fixture.connectionString)")
        try await withTimeLimit(seconds: 20) {
            let device = try await fixture.connectedDevice()
            let info = try #require(await device.readerInfo)
            #expect(info.connectionString == fixture.connectionString)
            #expect(info.serialSpeed == nil || kind == .pn532)
            #expect(try await device.selectTarget()?.uid == TestUID.first)
            await device.close()
        }
        #expect(fixture.emulator.statistics.commandsByCode.values.reduce(0, +) > 0)
    }

    @Test("a USB reader pulled and plugged in again comes back at a new device number with the same tags")
    func replugMovesAUSBReader() throws {
        let fixture = try EmulatorFixture()
        defer { fixture.stop() }
        let before = fixture.connectionString
        fixture.emulator.unplug()
        try fixture.emulator.plug()
        #expect(fixture.emulator.tags.count == 1)
        if ReaderUnderTest.current.isUSB {
            #expect(fixture.connectionString != before)
            #expect(fixture.connectionString.prefix(11) == before.prefix(11))
        }
    }
}

import Testing
import NFCChips
@testable import NFCEmulator

/// The emulated USB readers price their host link as full-speed bulk transfers
/// (`datasheets/readers.json`, `usbFullSpeed`: 12 Mbit/s, 64-byte packets, 13 bytes of
/// overhead per transaction), never as the PN532's UART; air and EEPROM time stay.
/// Expected figures are worked out by hand in bits on the wire.
struct USBLinkPricingTests {
    /// Seconds of `bits` at 12 Mbit/s.
    static func fullSpeed(bits: Int) -> Duration { .seconds(Double(bits) / 12_000_000) }

    static func close(_ a: Duration, _ b: Duration) -> Bool {
        abs((a - b) / .nanoseconds(1)) < 1
    }

    @Test("a bulk transfer costs its bytes plus 13 per 64-byte transaction, at 12 Mbit/s")
    func bulkTransferSeconds() {
        let bus = ChipTables.readers.usbFullSpeed
        // (bytes + 13 × transactions) × 8 bits
        let cases: [(bytes: Int, bits: Int)] = [
            (0, 13 * 8), (9, 22 * 8), (64, 77 * 8), (65, 91 * 8), (100, 126 * 8), (128, 154 * 8),
        ]
        for (bytes, bits) in cases {
            #expect(
                Self.close(
                    .seconds(bus.bulkTransferSeconds(bytes: bytes, maximumPacketSize: 64)), Self.fullSpeed(bits: bits)),
                "\(bytes) bytes")
        }
        #expect(bus.bulkTransactions(bytes: 129, maximumPacketSize: 64) == 3)
    }

    @Test("PN533: GetFirmwareVersion is three transfers (9-byte command, 6-byte ACK, 13-byte answer), no UART time")
    func pn533Command() {
        var reader = PN533Reader(controller: PN532Controller(), serialNumber: "1")
        let command = reader.controller.encoder.informationFrame([0xD4, 0x02])
        #expect(command.count == 9)
        let answers = reader.transfer(command)
        #expect(answers.map(\.count) == [6, 13])
        // (9 + 13) + (6 + 13) + (13 + 13) = 67 bytes = 536 bits
        let statistics = reader.controller.statistics
        #expect(Self.close(statistics.modelledTime, Self.fullSpeed(bits: 536)), "\(statistics.modelledTime)")
        #expect(Self.close(statistics.modelledTimeByCode[0x02] ?? .zero, Self.fullSpeed(bits: 536)))
        #expect(statistics.usbBulkTransfers == 3)
        #expect(statistics.uartBaud == 0)
    }

    @Test(
        "ACR122U: one CCID transfer out (17 bytes) and one back (18 bytes) for a Direct Transmit; a firmware pseudo-APDU too"
    )
    func acr122uCommand() {
        var reader = ACR122UReader(controller: PN532Controller())
        func xfr(_ apdu: [UInt8]) -> [[UInt8]] {
            reader.transfer([0x6F, UInt8(apdu.count), 0, 0, 0, 0, 7, 0, 0, 0] + apdu)
        }
        // GetFirmwareVersion: 10 + FF 00 00 00 02 + D4 02 = 17 out; 10 + D5 03 + 4 + 90 00 = 18 back.
        #expect(xfr([0xFF, 0x00, 0x00, 0x00, 0x02, 0xD4, 0x02]).map(\.count) == [18])
        let afterCommand = reader.controller.statistics
        // (17 + 13) + (18 + 13) = 61 bytes = 488 bits; no ACK crosses the bus.
        #expect(Self.close(afterCommand.modelledTime, Self.fullSpeed(bits: 488)), "\(afterCommand.modelledTime)")
        #expect(Self.close(afterCommand.modelledTimeByCode[0x02] ?? .zero, Self.fullSpeed(bits: 488)))
        #expect(afterCommand.usbBulkTransfers == 2)
        // The firmware string: 10 + 5 = 15 out, 10 + 10 back = 20: (28 + 33) × 8 = 488 bits more,
        // not counted against the PN532 command before it.
        #expect(xfr([0xFF, 0x00, 0x48, 0x00, 0x00]).map(\.count) == [20])
        let afterFirmware = reader.controller.statistics
        #expect(Self.close(afterFirmware.modelledTime, Self.fullSpeed(bits: 976)))
        #expect(afterFirmware.modelledTimeByCode[0x02] == afterCommand.modelledTimeByCode[0x02])
        #expect(afterFirmware.commands == afterCommand.commands)
    }

    @Test("PN533: a tag's activation keeps its air time; only the link is priced as USB instead of the UART")
    func activationKeepsAirTime() throws {
        func tags() throws -> [any EmulatedTag] { [try EmulatedTagFactory.make(name: "ntag215", index: 0)] }
        var uart = PN532Controller(field: Field(tags: try tags()))
        var reader = PN533Reader(controller: PN532Controller(field: Field(tags: try tags())), serialNumber: "1")
        // InListPassiveTarget, 1 target, 106 kbps A
        let command = uart.encoder.informationFrame([0xD4, 0x4A, 0x01, 0x00])
        let uartOutput = uart.receive(command)
        let answers = reader.transfer(command)
        #expect(answers.flatMap { $0 } == uartOutput)
        let byteSeconds = 10.0 / Double(ChipTables.pn532.timing.uartBaud)
        let air = uart.statistics.modelledTime - .seconds(Double(command.count + uartOutput.count) * byteSeconds)
        #expect(air > .zero)
        // 11-byte command (00 00 FF 04 FC D4 4A 01 00 DCS 00); ACK 6; answer 00 00 FF 0F F1 D5 4B 01 01 00 44 00 07 + 7-byte UID + DCS 00 = 22.
        #expect(command.count == 11 && answers.map(\.count) == [6, 22])
        let bus = Self.fullSpeed(bits: (11 + 13 + 6 + 13 + 22 + 13) * 8)
        #expect(
            Self.close(reader.controller.statistics.modelledTime, air + bus),
            "\(reader.controller.statistics.modelledTime)")
    }
}

extension USBLinkPricingTests {
    @Test("a USB port reset (libnfc's close) restarts the chip but keeps the counters and modelled time")
    func portResetKeepsStatistics() {
        var reader = ACR122UReader(controller: PN532Controller())
        _ = reader.transfer([0x6F, 7, 0, 0, 0, 0, 7, 0, 0, 0, 0xFF, 0x00, 0x00, 0x00, 0x02, 0xD4, 0x02])
        let before = reader.controller.statistics
        #expect(before.commands == 1)
        reader.portReset()
        #expect(reader.controller.statistics == before)
        #expect(!reader.controller.hostLinkIsUART)
        _ = reader.transfer([0x6F, 7, 0, 0, 0, 0, 8, 0, 0, 0, 0xFF, 0x00, 0x00, 0x00, 0x02, 0xD4, 0x02])
        #expect(reader.controller.statistics.commands == 2)
        #expect(Self.close(reader.controller.statistics.modelledTime, Self.fullSpeed(bits: 2 * 488)))
    }
}

import NFCChips
import NFCEmulator
@testable import NFCTagKit
import Testing
import TestSupport

/// Raw exchanges with the CRC on the host cost one PN532 command each: no register read
/// after the exchange to learn the bit count (the benchmark found every tag command
/// followed by a ReadRegister).
@Suite("Raw transceive frame count", .serialized)
struct RawTransceiveFrameCountTests {
    static let readRegister = ChipTables.pn532.code(.readRegister)
    static let communicateThru = ChipTables.pn532.code(.inCommunicateThru)

    @Test("a READ and a WRITE with host CRC are one InCommunicateThru each; ACK and NAK still come back as 4 bits")
    func oneCommandPerExchange() async throws {
        let fixture = try EmulatorFixture(kind: .pn532)
        defer { fixture.stop() }
        try await withTimeLimit {
            let device = try await fixture.connectedDevice()
            try await device.selectTarget()
            // Warm the framing settings (CRC off is one register write, once).
            let warm: [UInt8] = [0x30, 0x00]
            _ = try await device.transceive(warm + crcA(warm), framing: .raw(crc: .byHost))
            let before = fixture.emulator.statistics

            let read: [UInt8] = [0x30, 0x04]
            let answer = try await device.transceive(read + crcA(read), framing: .raw(crc: .byHost))
            #expect(answer.bytes == Array(16..<32) + crcA(Array(16..<32)))
            #expect(answer.bitCount == 18 * 8 && !answer.isShortFrame)

            let write: [UInt8] = [0xA2, 0x05, 0xDE, 0xAD, 0xBE, 0xEF]
            let ack = try await device.transceive(write + crcA(write), framing: .raw(crc: .byHost))
            #expect(ack.bitCount == 4 && ack.shortFrameValue == PageTag.ackCode)

            let badWrite: [UInt8] = [0xA2, 0x40, 0x00, 0x00, 0x00, 0x00]  // past the PageTag's 16 pages
            let nak = try await device.transceive(badWrite + crcA(badWrite), framing: .raw(crc: .byHost))
            #expect(nak.bitCount == 4 && nak.shortFrameValue == 0x0)

            let after = fixture.emulator.statistics
            #expect(after.commands - before.commands == 3)
            #expect(
                (after.commandsByCode[Self.communicateThru] ?? 0) - (before.commandsByCode[Self.communicateThru] ?? 0)
                    == 3)
            #expect(after.commandsByCode[Self.readRegister] == before.commandsByCode[Self.readRegister])
            await device.close()
        }
    }
}

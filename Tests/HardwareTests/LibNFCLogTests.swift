import Testing
import TestSupport

/// How P1 and U8 read libnfc's `LIBNFC_LOG_LEVEL=3` log: a UART driver logs an answer in
/// the pieces it reads, a USB driver whole, the ACR122U inside CCID and a pseudo-APDU.
@Suite("libnfc's log read as PN53x commands and answers", .blockingCalls)
struct LibNFCLogTests {
    @Test("a UART answer in pieces, after the ACK, is one answer; the command's own data comes back without framing")
    func uartPieces() throws {
        let log = """
            debug\tlibnfc.bus.uart\tTX: 00 00 ff 0c f4 d4 06 63 02 63 03 63 0d 63 38 63 3d b0 00
            debug\tlibnfc.bus.uart\tRX: 00 00 ff 00 ff 00
            debug\tlibnfc.chip.pn53x\tsomething else
            debug\tlibnfc.bus.uart\tRX: 00 00 ff 07 f9
            debug\tlibnfc.bus.uart\tRX: d5 07
            debug\tlibnfc.bus.uart\tRX: 80 80 00 00 00
            debug\tlibnfc.bus.uart\tRX: 24 00
            debug\tlibnfc.bus.uart\tTX: 00 00 ff 03 fd d4 06 63 05 bc 00
            """
        let read = try #require(LibNFCLog(log).firstAnswer(toCommand: 0x06))
        #expect(read.command == [0x63, 0x02, 0x63, 0x03, 0x63, 0x0D, 0x63, 0x38, 0x63, 0x3D])
        #expect(read.answer == [0x80, 0x80, 0x00, 0x00, 0x00])
        #expect(LibNFCLog(log).firstAnswer(toCommand: 0x4A) == nil)
    }

    @Test("an ACR122U answer: a CCID DataBlock around D5 07 and the status word")
    func acr122uAPDU() throws {
        let log = """
            debug\tlibnfc.driver.acr122_usb\tTX: 6f 09 00 00 00 00 00 00 00 00 ff 00 00 00 04 d4 06 63 02
            debug\tlibnfc.driver.acr122_usb\tRX: 80 05 00 00 00 00 00 00 00 00 d5 07 80 90 00
            """
        #expect(
            LibNFCLog(log).firstAnswer(toCommand: 0x06) == LibNFCLog.Exchange(command: [0x63, 0x02], answer: [0x80]))
    }
}

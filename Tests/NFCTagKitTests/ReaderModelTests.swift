import Foundation
import NFCEmulator
@testable import NFCTagKit
import Testing
import TestSupport

/// The per-reader decisions the device makes from `datasheets/readers.json`: the alone
/// check, frame limits, the USB wait pass, and what a silence may look like.
@Suite("Reader models: per-reader waits, limits and the alone check", .serialized)
struct ReaderModelTests {
    @Test("each USB and UART kind finds its table entry; InAutoPoll is trusted on pn532_uart only")
    func modelsByKind() throws {
        let uart = try #require(ReaderKind.pn532UART.model)
        let acr = try #require(ReaderKind.acr122USB.model)
        let pn533 = try #require(ReaderKind.pn53xUSB.model)
        #expect(uart.countsTagsInOnePoll)
        #expect(!acr.countsTagsInOnePoll)
        #expect(!pn533.countsTagsInOnePoll)
        #expect(uart.hostWaitPassMs == 0 && acr.hostWaitPassMs == 200 && pn533.hostWaitPassMs == 200)
        #expect(ReaderKind.pcsc.model == nil)
    }

    @Test("the ACR122U's frames are shorter: 252 / 253 bytes out (InDataExchange / InCommunicateThru), 250 back")
    func frameLimits() throws {
        let acr = try #require(ReaderKind.acr122USB.model)
        #expect(acr.maximumTagCommand(easyFraming: true) == 252)
        #expect(acr.maximumTagCommand(easyFraming: false) == 253)
        #expect(acr.maximumTagAnswer == 250)
        let uart = try #require(ReaderKind.pn532UART.model)
        #expect(uart.maximumTagCommand(easyFraming: true) == 262)
        #expect(uart.maximumTagAnswer == 262)
    }

    @Test("NFC_EIO may be a silence only on the ACR122U (upstream libnfc's ICC mute); a timeout always may")
    func silenceCandidates() throws {
        let io = LibNFCError(code: .io, operation: "nfc_initiator_transceive_bytes", message: "Input / Output Error")
        let timeout = LibNFCError(code: .timeout, operation: "nfc_initiator_transceive_bytes", message: "Timeout")
        let acr = ReaderKind.acr122USB.model
        #expect(NFCDevice.silenceCandidate(io, reader: acr)?.code == .timeout)
        #expect(NFCDevice.silenceCandidate(io, reader: ReaderKind.pn53xUSB.model) == nil)
        #expect(NFCDevice.silenceCandidate(io, reader: ReaderKind.pn532UART.model) == nil)
        #expect(NFCDevice.silenceCandidate(io, reader: nil) == nil)
        #expect(NFCDevice.silenceCandidate(timeout, reader: ReaderKind.pn532UART.model) == timeout)
        let gone = LibNFCError(code: .noSuchDevice, operation: "nfc_open", message: "")
        #expect(NFCDevice.silenceCandidate(gone, reader: acr) == nil)
    }

    @Test("pn53x_usb hands libusb's -ENODEV up unchanged: on that driver it is an I/O error, a lost reader")
    func usbErrorNumbers() throws {
        let unplugged = LibNFCError(code: .unknown(-ENODEV), operation: "nfc_device_set_property_bool", message: "")
        let mapped = NFCDevice.libnfcError(unplugged, reader: ReaderKind.pn53xUSB.model)
        #expect(mapped.code == .io)
        #expect(mapped.code.meansReaderLost)
        #expect(NFCDevice.libnfcError(unplugged, reader: ReaderKind.acr122USB.model).code == .unknown(-ENODEV))
        #expect(NFCDevice.libnfcError(unplugged, reader: ReaderKind.pn532UART.model).code == .unknown(-ENODEV))
        let timeout = LibNFCError(code: .timeout, operation: "x", message: "")
        #expect(NFCDevice.libnfcError(timeout, reader: ReaderKind.pn53xUSB.model) == timeout)
    }

    @Test("a command longer than the reader's frame is refused, typed, before anything is sent")
    func commandTooLong() async throws {
        let fixture = try EmulatorFixture(kind: .pn532)
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = try await fixture.connectedDevice()
            _ = try #require(try await device.selectTarget())
            let maximum = try #require(ReaderKind.pn532UART.model).maximumTagCommand(easyFraming: false)
            let before = fixture.emulator.statistics.commands
            await #expect(throws: NFCDeviceError.commandTooLong(length: maximum + 1, maximum: maximum)) {
                try await device.transceive([UInt8](repeating: 0x30, count: maximum + 1), framing: .raw(crc: .byHost))
            }
            #expect(fixture.emulator.statistics.commands == before)
            #expect(await device.maximumTagFrame == 260)
            await device.close()
        }
    }
}

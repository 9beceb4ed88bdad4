import Testing
import NFCChips

@Suite("PN532 table")
struct PN532SpecTests {
    let pn532 = ChipTables.pn532

    @Test("every command name has exactly one entry and codes are unique")
    func commandsComplete() {
        for name in PN532CommandName.allCases {
            #expect(pn532.commands.filter { $0.name == name }.count == 1, "\(name.rawValue)")
        }
        #expect(Set(pn532.commands.map(\.code)).count == pn532.commands.count)
    }

    @Test("command codes match UM0701 / libnfc")
    func commandCodes() {
        let expected: [PN532CommandName: UInt8] = [
            .diagnose: 0x00, .getFirmwareVersion: 0x02, .getGeneralStatus: 0x04, .readRegister: 0x06,
            .writeRegister: 0x08, .readGPIO: 0x0C, .writeGPIO: 0x0E, .setSerialBaudRate: 0x10,
            .setParameters: 0x12, .samConfiguration: 0x14, .powerDown: 0x16, .rfConfiguration: 0x32,
            .inDataExchange: 0x40, .inCommunicateThru: 0x42, .inDeselect: 0x44, .inJumpForDEP: 0x56,
            .inJumpForPSL: 0x46, .inListPassiveTarget: 0x4A, .inATR: 0x50, .inRelease: 0x52,
            .inSelect: 0x54, .inPSL: 0x4E, .inAutoPoll: 0x60, .tgInitAsTarget: 0x8C,
        ]
        for (name, code) in expected {
            #expect(pn532.code(name) == code, "\(name.rawValue)")
        }
        #expect(pn532.command(code: 0x4A)?.name == .inListPassiveTarget)
        #expect(pn532.command(code: 0x4A)?.answerCode == 0x4B)
        #expect(pn532.command(code: 0xFE) == nil)
    }

    @Test("frame constants")
    func frames() {
        let frame = pn532.frame
        #expect(frame.ackFrame == [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00])
        #expect(frame.nackFrame == [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00])
        #expect(frame.errorFrame == [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00])
        #expect(frame.startCode == [0x00, 0xFF])
        #expect(frame.hostToChipTFI == 0xD4 && frame.chipToHostTFI == 0xD5)
        #expect(frame.maximumDataLength == 263, "LEN 265: TFI, command code, 263 data bytes")
        #expect(pn532.firmwareVersion == [0x32, 0x01, 0x06, 0x07])
    }

    @Test("checksums of the GetFirmwareVersion frame `00 00 FF 02 FE D4 02 2A 00`")
    func checksums() {
        #expect(PN532FrameSpec.lengthChecksum(0x02) == 0xFE)
        #expect(PN532FrameSpec.dataChecksum([0xD4, 0x02]) == 0x2A)
        // The error frame's own LEN/LCS/TFI/DCS are consistent with the rule.
        let error = pn532.frame.errorFrame
        #expect(PN532FrameSpec.lengthChecksum(error[3]) == error[4])
        #expect(PN532FrameSpec.dataChecksum([error[5]]) == error[6])
    }

    @Test("status codes, names and libnfc errors")
    func statuses() {
        let names = [
            "success", "timeout", "crcError", "parityError", "bitCountError", "framingError", "bitCollision",
            "bufferTooSmall", "bufferOverflow", "rfTimeout", "rfProtocolError", "temperatureError",
            "internalBufferOverflow", "invalidParameter", "depUnsupportedCommand", "depInvalidFormat",
            "mifareAuthenticationError", "uidCheckByteWrong", "depInvalidDeviceState", "operationNotAllowed",
            "commandNotAcceptable", "targetReleased", "cardIdMismatch", "cardDisappeared", "nfcid3Mismatch",
            "overCurrent", "nadMissing",
        ]
        #expect(pn532.statuses.map(\.name.rawValue) == names)
        #expect(Set(pn532.statuses.map(\.code)).count == names.count)
        #expect(pn532.statuses[.timeout].code == 0x01)
        #expect(pn532.statuses[.timeout].libnfcError == "NFC_ERFTRANS")
        let auth = pn532.statuses[.mifareAuthenticationError]
        #expect(auth.code == 0x14 && auth.libnfcError == "NFC_EMFCAUTHFAIL" && auth.libnfcErrorCode == -30)
        #expect(pn532.status(code: 0x29)?.libnfcError == "NFC_ETGRELEASED")
        #expect(pn532.status(code: 0x2B)?.libnfcError == "NFC_ETGRELEASED")
        // Status bytes never use bit 7 (libnfc aborts) or bit 6 (MI chaining).
        for status in pn532.statuses { #expect(status.code & 0xC0 == 0, "\(status.name)") }
    }

    @Test("registers that change behaviour")
    func registers() {
        let expected: [(UInt16, PN532RegisterBitName, UInt8)] = [
            (0x6302, .txCRCEn, 0x80), (0x6303, .rxCRCEn, 0x80), (0x630D, .parityDisable, 0x10),
            (0x6338, .mfCrypto1On, 0x08), (0x633C, .rxLastBits, 0x07), (0x633D, .txLastBits, 0x07),
        ]
        for (address, bit, mask) in expected {
            let register = pn532.registers[bit.register]
            #expect(register.address == address)
            #expect(register.bits[bit].mask == mask, "\(bit.register.rawValue).\(bit.rawValue)")
            #expect(pn532.registerCache.addresses.contains(address))
        }
        #expect(pn532.registerCache.addresses == 0x6301...0x633E)
        #expect(pn532.registers[.control].bits[.rxLastBits].value(in: 0x14) == 4)
        #expect(pn532.registers[.bitFraming].bits[.rxAlign].value(in: 0x70) == 7)
    }

    @Test("command options")
    func options() {
        #expect(pn532.listPassiveTargetModulations.option(code: 0x00)?.name == .iso14443A106)
        #expect(pn532.rfConfigurationItems[.rfField].code == 0x01)
        #expect(pn532.rfConfigurationItems[.maxRetries].code == 0x05)
        #expect(pn532.samModes[.normal].code == 0x01)
        #expect(pn532.parameterFlags[.automaticRATS].code == 0x10)
        #expect(pn532.diagnoseTests[.attentionRequest].code == 0x06)
    }

    @Test("timing model constants")
    func timing() {
        let timing = pn532.timing
        #expect(timing.uartByteSeconds == 10.0 / 115_200.0)
        #expect(abs(timing.airBitSeconds - 9.4395e-6) < 1e-9)
        // READ answer: 16 data + 2 CRC bytes ≈ 1548 µs on air (NTAG213F §10.2).
        #expect(abs(timing.airFrameSeconds(byteCount: 18) - 1548e-6) < 5e-6)
        #expect(abs(timing.frameDelayTimeSeconds - 91.15e-6) < 0.1e-6)
    }
}

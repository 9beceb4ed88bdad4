import NFCChips
import Testing
@testable import NFCEmulator

/// Frames for tests, written as the data sheet writes them.
enum NTAG {
    static func read(_ page: UInt8) -> [UInt8] { [0x30, page] }
    static func write(_ page: UInt8, _ data: [UInt8]) -> [UInt8] { [0xA2, page] + data }
    static func auth(_ password: [UInt8]) -> [UInt8] { [0x1B] + password }
    static let ack = TagAnswer.Reply.acknowledge(0x0A)
    static let nak0 = TagAnswer.nak(0x00)
    static let nak4 = TagAnswer.nak(0x04)
}

func freshNTAG215() throws -> Type2Tag { try Type2Tag(chip: .ntag215, uid: ntagUID) }

@Suite("NTAG21x model follows the data sheet")
struct Type2TagTests {
    @Test("factory image: UID, BCC0/BCC1, internal byte, CC and factory TLV on NTAG215")
    func factoryImage() throws {
        var tag = try freshNTAG215()
        #expect(
            tag.receive(NTAG.read(0))
                == .bytes([
                    0x04, 0x47, 0x5E, 0x95, 0xD2, 0x9C, 0x39, 0x80,
                    0xF7, 0x48, 0x00, 0x00, 0xE1, 0x10, 0x3E, 0x00,
                ]))
        #expect(tag.receive([0x60]) == .bytes([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03]))
        #expect(tag.page(0x83) == [0x04, 0x00, 0x00, 0xFF])
    }

    @Test("READ rolls over to page 0 past the end; PWD and PACK read as zeros; past the end is NAK 0")
    func readRollOver() throws {
        var tag = try freshNTAG215()
        let answer = tag.receive(NTAG.read(0x85))
        #expect(answer == .bytes([UInt8](repeating: 0, count: 8) + [0x04, 0x47, 0x5E, 0x95, 0xD2, 0x9C, 0x39, 0x80]))
        #expect(tag.receive(NTAG.read(0x87)) == NTAG.nak0)
    }

    @Test("FAST_READ returns the range and refuses reversed or out-of-range ranges")
    func fastRead() throws {
        var tag = try freshNTAG215()
        #expect(tag.receive([0x3A, 0x03, 0x04]) == .bytes([0xE1, 0x10, 0x3E, 0x00, 0x03, 0x00, 0xFE, 0x00]))
        #expect(tag.receive([0x3A, 0x05, 0x04]) == NTAG.nak0)
        _ = tag.receive(NTAG.read(0))  // back to ACTIVE is the field's job; the model only answers
        #expect(tag.receive([0x3A, 0x80, 0x87]) == NTAG.nak0)
    }

    @Test("WRITE stores a page and ACKs with EEPROM time; pages 0 and 1 are refused")
    func write() throws {
        var tag = try freshNTAG215()
        let answer = tag.receive(NTAG.write(0x10, [1, 2, 3, 4]))
        #expect(answer.reply == .acknowledge(0x0A))
        #expect(answer.programmingTime > .zero)
        #expect(tag.page(0x10) == [1, 2, 3, 4])
        #expect(tag.receive(NTAG.write(0x01, [1, 2, 3, 4])) == NTAG.nak0)
        #expect(tag.receive(NTAG.write(0x87, [1, 2, 3, 4])) == NTAG.nak0)
    }

    @Test("COMPATIBILITY_WRITE: ACK, then 16 bytes of which the first 4 are stored")
    func compatibilityWrite() throws {
        var tag = try freshNTAG215()
        #expect(tag.receive([0xA0, 0x05]).reply == NTAG.ack)
        #expect(tag.receive(Array(1...16)).reply == .acknowledge(0x0A))
        #expect(tag.page(0x05) == [1, 2, 3, 4])
        #expect(tag.page(0x06) == [0, 0, 0, 0])
    }

    @Test("static lock bits block writes and are one-way; block-lock bits freeze them; CC is OTP")
    func staticLocks() throws {
        var tag = try freshNTAG215()
        #expect(tag.receive(NTAG.write(0x02, [0xFF, 0xFF, 0x10, 0x00])).reply == NTAG.ack)
        #expect(tag.page(0x02) == [0xF7, 0x48, 0x10, 0x00], "UID check bytes untouched, lock bits ORed")
        #expect(tag.receive(NTAG.write(0x04, [1, 2, 3, 4])) == NTAG.nak0)
        #expect(tag.receive(NTAG.write(0x05, [1, 2, 3, 4])).reply == NTAG.ack)
        #expect(tag.receive(NTAG.write(0x02, [0, 0, 0x00, 0x00])).reply == NTAG.ack)
        #expect(tag.page(0x02)[2] == 0x10, "a lock bit cannot be cleared")
        #expect(tag.receive(NTAG.write(0x02, [0, 0, 0x02, 0x00])).reply == NTAG.ack)  // BL 9-4
        #expect(tag.receive(NTAG.write(0x02, [0, 0, 0x20, 0x00])).reply == NTAG.ack)
        #expect(tag.page(0x02)[2] == 0x12, "L5 is frozen by BL 9-4")
        #expect(tag.receive(NTAG.write(0x03, [0x00, 0x00, 0x00, 0x0F])).reply == NTAG.ack)
        #expect(tag.page(0x03) == [0xE1, 0x10, 0x3E, 0x0F], "CC bits are ORed (OTP)")
    }

    @Test("dynamic lock bits block writes to their 16-page group")
    func dynamicLocks() throws {
        var tag = try freshNTAG215()
        #expect(tag.receive(NTAG.write(0x82, [0x01, 0x00, 0x00, 0x00])).reply == NTAG.ack)
        #expect(tag.receive(NTAG.write(0x10, [1, 2, 3, 4])) == NTAG.nak0)
        #expect(tag.receive(NTAG.write(0x1F, [1, 2, 3, 4])) == NTAG.nak0)
        #expect(tag.receive(NTAG.write(0x20, [1, 2, 3, 4])).reply == NTAG.ack)
    }

    /// Sets PWD, PACK, ACCESS and AUTH0 through WRITE, as the reference's recipe does.
    func protect(_ tag: inout Type2Tag, auth0: UInt8, access: UInt8) {
        #expect(tag.receive(NTAG.write(0x85, [0x11, 0x22, 0x33, 0x44])).reply == NTAG.ack)
        #expect(tag.receive(NTAG.write(0x86, [0xAB, 0xCD, 0x00, 0x00])).reply == NTAG.ack)
        #expect(tag.receive(NTAG.write(0x84, [access, 0x05, 0x00, 0x00])).reply == NTAG.ack)
        #expect(tag.receive(NTAG.write(0x83, [0x04, 0x00, 0x00, auth0])).reply == NTAG.ack)
    }

    @Test("PROT=1 and AUTH0: protected pages are unreadable until PWD_AUTH returns PACK")
    func passwordProtection() throws {
        var tag = try freshNTAG215()
        protect(&tag, auth0: 0x10, access: 0x80)
        #expect(tag.receive(NTAG.read(0x10)) == NTAG.nak0)
        let rolled = tag.receive(NTAG.read(0x0E))
        #expect(
            rolled == .bytes([UInt8](repeating: 0, count: 8) + [0x04, 0x47, 0x5E, 0x95, 0xD2, 0x9C, 0x39, 0x80]),
            "roll-over just before AUTH0")
        #expect(tag.receive(NTAG.write(0x10, [9, 9, 9, 9])) == NTAG.nak0)
        #expect(tag.receive(NTAG.auth([0x11, 0x22, 0x33, 0x44])) == .bytes([0xAB, 0xCD]))
        #expect(tag.receive(NTAG.read(0x10)).reply == .bytes([UInt8](repeating: 0, count: 16)))
        #expect(tag.receive(NTAG.write(0x10, [9, 9, 9, 9])).reply == NTAG.ack)
        tag.leaveActiveState()
        #expect(tag.receive(NTAG.read(0x10)) == NTAG.nak0, "authentication ends with the selection")
    }

    @Test("PROT=0: reads stay free, writes at AUTH0 and above need the password")
    func writeOnlyProtection() throws {
        var tag = try freshNTAG215()
        protect(&tag, auth0: 0x10, access: 0x00)
        #expect(tag.receive(NTAG.read(0x10)).reply == .bytes([UInt8](repeating: 0, count: 16)))
        #expect(tag.receive(NTAG.write(0x10, [9, 9, 9, 9])) == NTAG.nak0)
        #expect(tag.receive(NTAG.write(0x0F, [9, 9, 9, 9])).reply == NTAG.ack)
    }

    @Test("AUTHLIM counts failures to a permanent lock-out, even for the right password")
    func authenticationLimit() throws {
        var tag = try freshNTAG215()
        protect(&tag, auth0: 0x10, access: 0x82)
        #expect(tag.receive(NTAG.auth([0, 0, 0, 0])) == NTAG.nak0)
        #expect(
            tag.receive(NTAG.auth([0x11, 0x22, 0x33, 0x44])) == .bytes([0xAB, 0xCD]), "a success resets the count")
        tag.leaveActiveState()
        #expect(tag.receive(NTAG.auth([0, 0, 0, 1])) == NTAG.nak0)
        #expect(tag.receive(NTAG.auth([0, 0, 0, 2])) == NTAG.nak0)
        #expect(tag.failedAuthentications == 2)
        #expect(tag.receive(NTAG.auth([0x11, 0x22, 0x33, 0x44])) == NTAG.nak4)
        tag.fieldReset()
        #expect(tag.receive(NTAG.auth([0x11, 0x22, 0x33, 0x44])) == NTAG.nak4, "the lock-out survives power loss")
    }

    @Test("CFGLCK freezes CFG0 and CFG1 but not PWD and PACK")
    func configurationLock() throws {
        var tag = try freshNTAG215()
        #expect(tag.receive(NTAG.write(0x84, [0x40, 0x05, 0x00, 0x00])).reply == NTAG.ack)
        #expect(tag.receive(NTAG.write(0x83, [0x04, 0x00, 0x00, 0x10])) == NTAG.nak0)
        #expect(tag.receive(NTAG.write(0x84, [0x00, 0x05, 0x00, 0x00])) == NTAG.nak0)
        #expect(tag.receive(NTAG.write(0x85, [1, 2, 3, 4])).reply == NTAG.ack)
    }

    @Test("NFC counter: one increment per field on the first READ, READ_CNT, password protection")
    func nfcCounter() throws {
        var tag = try freshNTAG215()
        #expect(tag.receive([0x39, 0x02]) == NTAG.nak0, "disabled counter")
        #expect(tag.receive(NTAG.write(0x84, [0x10, 0x05, 0x00, 0x00])).reply == NTAG.ack)
        _ = tag.receive(NTAG.read(0x04))
        _ = tag.receive([0x3A, 0x04, 0x05])
        #expect(tag.receive([0x39, 0x02]) == .bytes([0x01, 0x00, 0x00]))
        tag.fieldReset()
        _ = tag.receive([0x3A, 0x04, 0x04])
        #expect(tag.receive([0x39, 0x02]) == .bytes([0x02, 0x00, 0x00]))
        #expect(tag.receive([0x39, 0x01]) == NTAG.nak0, "02 is the only NFC counter address")
        #expect(tag.receive(NTAG.write(0x84, [0x18, 0x05, 0x00, 0x00])).reply == NTAG.ack)
        #expect(tag.receive([0x39, 0x02]) == NTAG.nak0)
        #expect(tag.receive(NTAG.auth([0xFF, 0xFF, 0xFF, 0xFF])) == .bytes([0x00, 0x00]))
        #expect(tag.receive([0x39, 0x02]) == .bytes([0x02, 0x00, 0x00]))
    }

    @Test("unknown commands and wrong lengths get silence; HLTA halts; READ_SIG gives the signature")
    func silenceAndSignature() throws {
        var tag = try Type2Tag(chip: .ntag213, uid: ntagUID, signature: Array(0..<32))
        #expect(tag.receive([0x77]) == .silence)
        #expect(tag.receive([0x30]) == .silence)
        #expect(tag.receive([0xA5, 0x00, 1, 0, 0, 0]) == .silence, "INCR_CNT is not an NTAG command")
        #expect(tag.receive([0x50, 0x00]) == .halt)
        #expect(tag.receive([0x3C, 0x00]) == .bytes(Array(0..<32)))
        #expect(throws: Type2Tag.ModelError.uidLength(expected: 7, got: 4)) {
            try Type2Tag(chip: .ntag216, uid: [1, 2, 3, 4])
        }
    }

    @Test("Ultralight EV1: INCR_CNT, READ_CNT, overflow NAK and CHECK_TEARING_EVENT")
    func ultralightEV1Counters() throws {
        var tag = try Type2Tag(chip: .ultralightEV1MF0UL11, uid: ntagUID)
        #expect(tag.receive([0xA5, 0x01, 0x05, 0x01, 0x00, 0x00]).reply == .acknowledge(0x0A))
        #expect(tag.receive([0x39, 0x01]) == .bytes([0x05, 0x01, 0x00]))
        #expect(tag.receive([0x39, 0x00]) == .bytes([0x00, 0x00, 0x00]))
        #expect(tag.receive([0xA5, 0x01, 0xFF, 0xFF, 0xFF, 0x00]).reply == .negativeAcknowledge(0x04))
        #expect(tag.receive([0x3E, 0x02]) == .bytes([0xBD]))
    }
}

@Suite("Factory bytes the data sheets and real tags show")
struct Type2FactoryBytesTests {
    /// Page 02h byte 1 ("internal") reads 48 on MIFARE Ultralight MF0ICU1 and Ultralight EV1
    /// (Tests/Transcripts: microbuilder-pn532-ultralight-memdump, proxmark-issue-836).
    @Test(
        "page 02h byte 1 reads 48 on Ultralight and Ultralight EV1",
        arguments: [Chip.ultralight, .ultralightEV1MF0UL11, .ultralightEV1MF0UL21])
    func internalByte(chip: Chip) throws {
        let tag = try Type2Tag(chip: chip, uid: ntagUID)
        #expect(tag.page(0x02)[1] == 0x48)
    }

    /// NTAG213/215/216 data sheet Rev. 3.2 §8.5, memory content at delivery: the dynamic lock
    /// page reads 00 00 00 BD (a real NTAG216: Tests/Transcripts/nxpnfclinux-issue-63-ntag216).
    @Test(
        "the NTAG21x dynamic lock page reads 00 00 00 BD as delivered",
        arguments: [(Chip.ntag213, 0x28), (.ntag215, 0x82), (.ntag216, 0xE2)])
    func dynamicLockRFUI(chip: Chip, page: Int) throws {
        let tag = try Type2Tag(chip: chip, uid: ntagUID)
        #expect(tag.page(page) == [0x00, 0x00, 0x00, 0xBD])
    }
}

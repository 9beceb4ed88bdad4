import NFCChips
import Testing
@testable import NFCEmulator

@Suite("NTAG21x block-lock bits and the ASCII mirror follow the tables")
struct Type2TagLockAndMirrorTests {
    @Test("NTAG213 dynamic lock: BL bit 0 freezes the lock bits of pages 16–19, other bits stay settable")
    func dynamicBlockLock() throws {
        var tag = try Type2Tag(chip: .ntag213, uid: ntagUID)
        #expect(tag.receive(NTAG.write(0x28, [0x00, 0x00, 0x01, 0x00])).reply == NTAG.ack, "BL 16-19 only")
        #expect(tag.receive(NTAG.write(0x28, [0x0F, 0x00, 0x00, 0x00])).reply == NTAG.ack)
        #expect(
            tag.page(0x28) == [0x0C, 0x00, 0x01, 0xBD],
            "lock bits 0–1 frozen at 0, bits 2–3 set; RFUI byte 3 as delivered")
        #expect(tag.receive(NTAG.write(0x10, [1, 1, 1, 1])).reply == NTAG.ack, "page 16 stays writable")
        #expect(tag.receive(NTAG.write(0x14, [1, 1, 1, 1])) == NTAG.nak0, "page 20 is locked")
    }

    @Test("static BL 15-10 freezes L10–L15 but not L8–L9")
    func staticBlockLock() throws {
        var tag = try freshNTAG215()
        #expect(tag.receive(NTAG.write(0x02, [0, 0, 0x04, 0x00])).reply == NTAG.ack)
        #expect(tag.receive(NTAG.write(0x02, [0, 0, 0x00, 0xFF])).reply == NTAG.ack)
        #expect(tag.page(0x02)[3] == 0x03, "only L8 and L9 took")
        #expect(tag.receive(NTAG.write(0x08, [1, 1, 1, 1])) == NTAG.nak0)
        #expect(tag.receive(NTAG.write(0x0A, [1, 1, 1, 1])).reply == NTAG.ack)
    }

    @Test("UID + counter mirror: READ shows 14 hex digits, x, 6 hex digits from MIRROR_PAGE byte MIRROR_BYTE")
    func uidAndCounterMirror() throws {
        var tag = try freshNTAG215()
        // MIRROR_CONF 11, MIRROR_BYTE 01, STRG_MOD_EN, MIRROR_PAGE 06; AUTH0 stays FF.
        #expect(tag.receive(NTAG.write(0x83, [0xD4, 0x00, 0x06, 0xFF])).reply == NTAG.ack)
        #expect(tag.receive(NTAG.write(0x84, [0x10, 0x05, 0x00, 0x00])).reply == NTAG.ack, "NFC_CNT_EN")
        tag.fieldReset()
        guard case let .bytes(data) = tag.receive(NTAG.read(0x06)).reply else {
            Issue.record("READ must answer data")
            return
        }
        let text = Array("04475ED29C3980x000001".utf8)
        #expect(data[0] == 0x00, "byte 0 of the mirror page is memory")
        #expect(Array(data[1..<16]) == Array(text.prefix(15)))
        guard case let .bytes(next) = tag.receive(NTAG.read(0x0A)).reply else {
            Issue.record("READ must answer data")
            return
        }
        #expect(Array(next.prefix(6)) == Array(text.suffix(6)))
        #expect(tag.page(0x06) == [0, 0, 0, 0], "memory itself is unchanged")
    }

    @Test(
        "counter mirror, the data sheet's example: counter 00 3F 31 reads as ASCII 003F31 through READ and FAST_READ alike"
    )
    func counterMirrorDatasheetExample() throws {
        var tag = try freshNTAG215()
        // MIRROR_CONF 10 (counter), MIRROR_BYTE 00, STRG_MOD_EN; MIRROR_PAGE 05; NFC_CNT_EN.
        #expect(tag.receive(NTAG.write(0x83, [0x84, 0x00, 0x05, 0xFF])).reply == NTAG.ack)
        #expect(tag.receive(NTAG.write(0x84, [0x10, 0x05, 0x00, 0x00])).reply == NTAG.ack)
        tag.nfcCounter = 0x3F30  // the first READ after power-up counts once (the example shows 3F31)
        tag.fieldReset()
        guard case let .bytes(read) = tag.receive(NTAG.read(0x05)).reply else {
            Issue.record("READ must answer data")
            return
        }
        #expect(Array(read.prefix(6)) == Array("003F31".utf8), "\(read)")
        guard case let .bytes(fast) = tag.receive([0x3A, 0x05, 0x06]).reply else {
            Issue.record("FAST_READ must answer data")
            return
        }
        #expect(Array(fast.prefix(6)) == Array("003F31".utf8), "\(fast)")
        #expect(fast.count == 8)
    }

    @Test("the counter mirror is hidden while NFC_CNT_PWD_PROT is set and no password was given")
    func counterMirrorProtected() throws {
        var tag = try freshNTAG215()
        #expect(tag.receive(NTAG.write(0x83, [0x84, 0x00, 0x05, 0xFF])).reply == NTAG.ack, "counter mirror at page 5")
        #expect(tag.receive(NTAG.write(0x84, [0x18, 0x05, 0x00, 0x00])).reply == NTAG.ack)
        #expect(tag.receive(NTAG.read(0x05)) == .bytes([UInt8](repeating: 0, count: 16)))
        _ = tag.receive(NTAG.auth([0xFF, 0xFF, 0xFF, 0xFF]))
        guard case let .bytes(data) = tag.receive(NTAG.read(0x05)).reply else {
            Issue.record("no data")
            return
        }
        #expect(Array(data.prefix(6)) == Array("000001".utf8))
    }
}

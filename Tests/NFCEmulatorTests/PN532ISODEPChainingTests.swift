import NFCChips
import Testing
@testable import NFCEmulator

/// A Type 4 tag that keeps every block it receives, to see how the PN532 cut them.
struct BlockRecordingTag: EmulatedTag {
    var tag: Type4Tag
    var blocks: [[UInt8]] = []
    var identity: TagIdentity { tag.identity }
    mutating func receive(_ frame: [UInt8]) -> TagAnswer {
        blocks.append(frame)
        return tag.receive(frame)
    }
    mutating func fieldReset() { tag.fieldReset() }
    mutating func leaveActiveState() { tag.leaveActiveState() }
}

/// The emulated PN532 as ISO-DEP PCD inside one InDataExchange: DataOut cut into I-blocks
/// of the tag's FSC, a chained answer ACKed and joined (UM0701-02 §7.3.8, ISO/IEC 14443-4 §7.5).
@Suite("PN532 InDataExchange: ISO-DEP chaining both ways")
struct PN532ISODEPChainingTests {
    /// Like `exchange`, for an answer in an extended frame (`00 00 FF FF FF LENM LENL LCS D5 …`).
    func extendedExchange(_ chip: inout PN532Controller, _ code: UInt8, _ data: [UInt8]) -> [UInt8]? {
        let out = chip.receive(hostFrame(code, data))
        guard out.starts(with: ackFrame) else { return nil }
        let answer = Array(out.dropFirst(ackFrame.count))
        guard answer.count >= 12, answer[3] == 0xFF, answer[4] == 0xFF, answer[8] == 0xD5, answer[9] == code &+ 1 else {
            return nil
        }
        let length = Int(answer[5]) << 8 | Int(answer[6])
        return Array(answer[10..<(8 + length)])
    }

    func blocks(_ chip: PN532Controller) -> [[UInt8]] {
        chip.field.handles.first.flatMap { (chip.field.tag($0) as? BlockRecordingTag)?.blocks } ?? []
    }

    @Test("a 205-byte UPDATE BINARY goes as I-blocks 12 / 13 / 12 of 61 bytes (FSC 64) and a last 02 / 03 block")
    func chainedCommand() throws {
        var chip = PN532Controller(field: Field(tags: [BlockRecordingTag(tag: try Type4Tag(uid: T4.uid))]))
        _ = exchange(&chip, 0x4A, [0x01, 0x00])
        #expect(exchange(&chip, 0x40, [0x01] + T4.selectApplication) == [0x00] + T4.ok)
        #expect(exchange(&chip, 0x40, [0x01] + T4.selectFile(0xE104)) == [0x00] + T4.ok)
        let before = blocks(chip).count
        let data = [UInt8](repeating: 0xA5, count: 200)
        #expect(exchange(&chip, 0x40, [0x01] + T4.update(2, data)) == [0x00] + T4.ok)
        let sent = blocks(chip).dropFirst(before)
        let size = ChipTables.type4.isoDep.maximumINF(toTagWithATS: [0x06, 0x75, 0x77, 0x81, 0x02, 0x80])
        #expect(size == 61)
        #expect(sent.map { $0[0] } == [0x12, 0x13, 0x12, 0x03])
        #expect(sent.map { $0.count - 1 } == [61, 61, 61, 22])
        #expect(sent.flatMap { $0.dropFirst() } == T4.update(2, data))
        #expect(
            exchange(&chip, 0x40, [0x01] + T4.read(2, 4)) == [0x00, 0xA5, 0xA5, 0xA5, 0xA5] + T4.ok,
            "block numbers still agree")
    }

    @Test("a 257-byte answer comes as I-block 12 (253 bytes) and 03 after R(ACK) A3, joined behind status 00")
    func chainedAnswer() throws {
        var tag = try Type4Tag(uid: T4.uid)
        tag.setNDEFMessage(Array(repeating: 0x3C, count: 400))
        var chip = PN532Controller(field: Field(tags: [BlockRecordingTag(tag: tag)]))
        _ = exchange(&chip, 0x4A, [0x01, 0x00])
        _ = exchange(&chip, 0x40, [0x01] + T4.selectApplication)
        _ = exchange(&chip, 0x40, [0x01] + T4.selectFile(0xE104))
        let answer = extendedExchange(&chip, 0x40, [0x01] + T4.read(2, 0xFF))
        #expect(answer == [0x00] + [UInt8](repeating: 0x3C, count: 255) + T4.ok)
        #expect(blocks(chip).suffix(2).map { $0[0] } == [0x02, 0xA3], "the read, then R(ACK) for the chained block")
        #expect(
            exchange(&chip, 0x40, [0x01] + T4.read(0, 2)) == [0x00, 0x01, 0x90] + T4.ok,
            "NLEN 400 = 01 90; block numbers agree")
    }
}

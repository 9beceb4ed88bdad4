import NFCChips
import Testing
@testable import NFCEmulator

/// APDUs of the NFC Forum Type 4 mapping, as the specification writes them.
enum T4 {
    static let selectApplication: [UInt8] = [
        0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00,
    ]
    static func selectFile(_ id: UInt16) -> [UInt8] {
        [0x00, 0xA4, 0x00, 0x0C, 0x02, UInt8(id >> 8), UInt8(id & 0xFF)]
    }
    static func read(_ offset: Int, _ length: UInt8) -> [UInt8] {
        [0x00, 0xB0, UInt8(offset >> 8), UInt8(offset & 0xFF), length]
    }
    static func update(_ offset: Int, _ data: [UInt8]) -> [UInt8] {
        [0x00, 0xD6, UInt8(offset >> 8), UInt8(offset & 0xFF), UInt8(data.count)] + data
    }
    static let ok: [UInt8] = [0x90, 0x00]
    static let uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
}

/// Sends APDUs in I-blocks with alternating block numbers, as a PCD does, and ACKs the
/// blocks of a chained answer (`12`/`13`) with R(ACK) `A2`/`A3`.
struct ISODEPReader {
    var blockNumber: UInt8 = 0
    /// How many blocks the last answer came in.
    var answerBlocks = 0
    mutating func send(_ apdu: [UInt8], to tag: inout Type4Tag) -> [UInt8]? {
        var answer: [UInt8] = []
        answerBlocks = 1
        var reply = tag.receive([0x02 | blockNumber] + apdu).reply
        while case let .bytes(block) = reply, block.first == 0x12 | blockNumber {
            answer += block.dropFirst()
            blockNumber ^= 1
            answerBlocks += 1
            reply = tag.receive([0xA2 | blockNumber]).reply
        }
        guard case let .bytes(block) = reply, block.first == 0x02 | blockNumber else { return nil }
        blockNumber ^= 1
        return answer + block.dropFirst()
    }
}

@Suite("NFC Forum Type 4 tag: NDEF application, status words, ISO-DEP blocks")
struct Type4TagTests {
    @Test("the NDEF detection and tear-safe update procedure, APDU by APDU")
    func ndefProcedure() throws {
        var tag = try Type4Tag(uid: T4.uid)
        var reader = ISODEPReader()
        #expect(reader.send(T4.selectApplication, to: &tag) == T4.ok)
        #expect(reader.send(T4.selectFile(0xE103), to: &tag) == T4.ok)
        #expect(
            reader.send(T4.read(0, 15), to: &tag) == [
                0x00, 0x0F, 0x20, 0x00, 0xFF, 0x00, 0xFF, 0x04, 0x06, 0xE1, 0x04, 0x08, 0x00, 0x00, 0x00,
            ] + T4.ok)
        #expect(reader.send(T4.selectFile(0xE104), to: &tag) == T4.ok)
        #expect(reader.send(T4.read(0, 2), to: &tag) == [0x00, 0x00] + T4.ok)
        let message: [UInt8] = [0xD1, 0x01, 0x04, 0x54, 0x02, 0x65, 0x6E, 0x41]
        #expect(reader.send(T4.update(0, [0, 0]), to: &tag) == T4.ok)
        #expect(reader.send(T4.update(2, message), to: &tag) == T4.ok)
        #expect(reader.send(T4.update(0, [0, UInt8(message.count)]), to: &tag) == T4.ok)
        #expect(tag.ndefMessage == message)
        #expect(reader.send(T4.read(2, UInt8(message.count)), to: &tag) == message + T4.ok)
    }

    @Test("status words: 6A82 unknown application or file, 6A86 bad P1-P2, 61xx past MLe, 6982 read-only, 6D00, 6E00")
    func statusWords() throws {
        var tag = try Type4Tag(uid: T4.uid)
        var reader = ISODEPReader()
        #expect(reader.send(T4.selectFile(0xE103), to: &tag) == [0x6A, 0x82], "no application selected")
        #expect(
            reader.send([0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00, 0x00], to: &tag) == [
                0x6A, 0x82,
            ],
            "the 1.0 AID on a 2.0 tag")
        #expect(reader.send(T4.read(0, 2), to: &tag) == [0x6A, 0x82], "no file selected")
        #expect(reader.send(T4.selectApplication, to: &tag) == T4.ok)
        #expect(reader.send(T4.selectFile(0xE105), to: &tag) == [0x6A, 0x82])
        #expect(
            reader.send([0x00, 0xA4, 0x00, 0x00, 0x02, 0xE1, 0x03], to: &tag) == [0x6A, 0x86], "P2 of mapping 1.0")
        #expect(reader.send(T4.selectFile(0xE103), to: &tag) == T4.ok)
        #expect(reader.send(T4.update(0, [0x00, 0x0F]), to: &tag) == [0x69, 0x82], "the CC file is read-only")
        #expect(reader.send(T4.read(0x10, 1), to: &tag) == [0x6A, 0x86], "offset past the CC file")
        #expect(reader.send(T4.selectFile(0xE104), to: &tag) == T4.ok)
        #expect(reader.send(T4.read(0, 0), to: &tag)?.suffix(2) == [0x61, 0x01], "Le 256 is more than MLe FF: 61 01")
        #expect(reader.send([0x00, 0xCA, 0x00, 0x00, 0x00], to: &tag) == [0x6D, 0x00])
        #expect(reader.send([0x80, 0xB0, 0x00, 0x00, 0x02], to: &tag) == [0x6E, 0x00])

        var readOnly = try Type4Tag(uid: T4.uid, readOnly: true)
        var other = ISODEPReader()
        _ = other.send(T4.selectApplication, to: &readOnly)
        _ = other.send(T4.selectFile(0xE104), to: &readOnly)
        #expect(other.send(T4.update(0, [0, 0]), to: &readOnly) == [0x69, 0x82])
        _ = other.send(T4.selectFile(0xE103), to: &readOnly)
        #expect(other.send(T4.read(14, 1), to: &readOnly) == [0xFF] + T4.ok, "CC write access FF")
    }

    @Test("ISO-DEP: RATS gives the ATS, R(NAK) gets R(ACK) or the last block again, chaining is ACKed, DESELECT halts")
    func isoDEPBlocks() throws {
        var tag = try Type4Tag(uid: T4.uid)
        #expect(tag.receive([0xE0, 0x50]) == .bytes([0x06, 0x75, 0x77, 0x81, 0x02, 0x80]))
        #expect(tag.receive([0xB2]) == .bytes([0xA3]), "block number 0 is not the PICC's 1: R(ACK)")
        var reader = ISODEPReader()
        #expect(reader.send(T4.selectApplication, to: &tag) == T4.ok)
        #expect(tag.receive([0xB2]) == .bytes([0x02, 0x90, 0x00]), "same block number: the last I-block again")
        #expect(tag.receive([0x13, 0x00, 0xA4, 0x04]) == .bytes([0xA3]), "chained I-block")
        #expect(
            tag.receive([0x02, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00])
                == .bytes([0x02, 0x90, 0x00]))
        let deselect = tag.receive([0xC2])
        #expect(deselect.reply == .bytes([0xC2]) && deselect.entersHalt)
    }

    @Test("through the PN532: ATS in the target data, APDUs in InDataExchange, presence check B2 raw")
    func throughPN532() throws {
        var chip = PN532Controller(field: Field(tags: [try Type4Tag(uid: T4.uid)]))
        #expect(
            exchange(&chip, 0x4A, [0x01, 0x00]) == [0x01, 0x01, 0x03, 0x44, 0x20, 0x07] + T4.uid + [
                0x06, 0x75, 0x77, 0x81, 0x02, 0x80,
            ])
        #expect(exchange(&chip, 0x40, [0x01] + T4.selectApplication) == [0x00] + T4.ok)
        #expect(exchange(&chip, 0x40, [0x01] + T4.selectFile(0xE104)) == [0x00] + T4.ok)
        #expect(exchange(&chip, 0x40, [0x01] + T4.read(0, 2)) == [0x00, 0x00, 0x00] + T4.ok)
        _ = exchange(&chip, 0x08, [0x63, 0x02, 0x80, 0x63, 0x03, 0x80])
        #expect(exchange(&chip, 0x42, [0xB2]) == [0x00, 0x02, 0x00, 0x00, 0x90, 0x00], "the last I-block again")
    }
}

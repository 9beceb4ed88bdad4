import NFCChips
import Testing
@testable import NFCEmulator

/// The emulated Type 4 tag's ISO 7816-4 additions: GET RESPONSE after `61xx`, `6Cxx`,
/// extended-length APDUs, and answers chained over several ISO-DEP blocks.
@Suite("Type 4 tag: 61xx with GET RESPONSE, 6Cxx, extended lengths, chained answers")
struct Type4TagExtendedTests {
    static func ready(_ message: [UInt8] = Array(repeating: 0x5A, count: 600)) throws -> (Type4Tag, ISODEPReader) {
        var tag = try Type4Tag(uid: T4.uid)
        tag.setNDEFMessage(message)
        var reader = ISODEPReader()
        _ = reader.send(T4.selectApplication, to: &tag)
        _ = reader.send(T4.selectFile(0xE104), to: &tag)
        return (tag, reader)
    }

    @Test("Le 00 (256) past MLe FF: 255 bytes and 61 01, then GET RESPONSE 00 C0 00 00 01 gives the last byte")
    func getResponse() throws {
        var (tag, reader) = try Self.ready()
        let file = tag.ndefFile
        let first = try #require(reader.send(T4.read(0, 0), to: &tag))
        #expect(first == Array(file[0..<255]) + [0x61, 0x01])
        #expect(reader.answerBlocks == 2, "257 bytes do not fit the 253 of one block to a 256-byte FSD")
        #expect(reader.send([0x00, 0xC0, 0x00, 0x00, 0x01], to: &tag) == [file[255], 0x90, 0x00])
        #expect(reader.send([0x00, 0xC0, 0x00, 0x00, 0x01], to: &tag) == [0x69, 0x85], "nothing waits any more")
    }

    @Test("an extended Le of 512 comes as 255 + 61 00, 255 + 61 02, 2 + 90 00; another command drops what waits")
    func extendedRead() throws {
        var (tag, reader) = try Self.ready()
        let file = tag.ndefFile
        #expect(
            reader.send([0x00, 0xB0, 0x00, 0x00, 0x00, 0x02, 0x00], to: &tag) == Array(file[0..<255]) + [0x61, 0x00])
        #expect(reader.send([0x00, 0xC0, 0x00, 0x00, 0x00], to: &tag) == Array(file[255..<510]) + [0x61, 0x02])
        #expect(reader.send([0x00, 0xC0, 0x00, 0x00, 0x02], to: &tag) == Array(file[510..<512]) + T4.ok)
        #expect(reader.send([0x00, 0xB0, 0x00, 0x00, 0x00, 0x02, 0x00], to: &tag)?.suffix(2) == [0x61, 0x00])
        #expect(reader.send(T4.selectFile(0xE104), to: &tag) == T4.ok)
        #expect(reader.send([0x00, 0xC0, 0x00, 0x00, 0x00], to: &tag) == [0x69, 0x85])
    }

    @Test("6Cxx: a short Le past the end of the file names the bytes left; Le 00 reads up to the end")
    func wrongLe() throws {
        var (tag, reader) = try Self.ready()
        let file = tag.ndefFile
        let offset = file.count - 10
        #expect(reader.send(T4.read(offset, 20), to: &tag) == [0x6C, 0x0A])
        #expect(reader.send(T4.read(offset, 10), to: &tag) == Array(file.suffix(10)) + T4.ok)
        #expect(reader.send(T4.read(offset, 0), to: &tag) == Array(file.suffix(10)) + T4.ok)
    }

    @Test("extended Lc: UPDATE BINARY 00 D6 00 02 00 00 08 <data> writes like the short form")
    func extendedUpdate() throws {
        var (tag, reader) = try Self.ready([])
        let message: [UInt8] = [0xD1, 0x01, 0x04, 0x54, 0x02, 0x65, 0x6E, 0x41]
        #expect(reader.send([0x00, 0xD6, 0x00, 0x02, 0x00, 0x00, 0x08] + message, to: &tag) == T4.ok)
        #expect(
            reader.send([0x00, 0xD6, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x08, 0x00, 0x00], to: &tag) == T4.ok,
            "case 4E")
        #expect(tag.ndefMessage == message)
        #expect(
            reader.send([0x00, 0xD6, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00], to: &tag) == [0x67, 0x00], "Lc 3 with 1 byte")
    }

    @Test("a chained answer: I-block 12 with 253 bytes, R(ACK) A3 gets the rest in 03; R(ACK) A2 repeats the block")
    func chainedAnswerBlocks() throws {
        var (tag, _) = try Self.ready()
        guard case let .bytes(first) = tag.receive([0x02] + T4.read(0, 0xFF)).reply else {
            Issue.record("no answer")
            return
        }
        #expect(first.first == 0x12 && first.count == 254)
        #expect(tag.receive([0xA2]) == .bytes(first), "R(ACK) with the PICC's own number: the last block again")
        guard case let .bytes(last) = tag.receive([0xA3]).reply else {
            Issue.record("no last block")
            return
        }
        #expect(last.first == 0x03 && last.suffix(2) == [0x90, 0x00] && last.count == 1 + 255 + 2 - 253)
    }
}

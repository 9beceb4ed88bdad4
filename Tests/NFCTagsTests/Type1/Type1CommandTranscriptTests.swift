import NFCChips
import Testing
@testable import NFCTags

/// Bytes out, bytes in for every Type 1 command as the reader's short form carries it:
/// frames as libnfc's `nfc-jewel` and ACS's AET62 manual §8.4 send them, answers as a PN532
/// gives them back (RID and RALL whole, the data alone for READ and the writes).
@Suite("Type 1 commands: frames and answers")
struct Type1CommandTranscriptTests {
    static let target = TagTarget(uid: [0xB2, 0x56, 0x54, 0x00], atqa: 0x0C00, sak: 0)

    func commands(_ steps: [TranscriptStep]) -> (Type1Commands, TranscriptTransport) {
        let transport = TranscriptTransport(target: Self.target, steps: steps)
        return (Type1Commands(transport: transport), transport)
    }

    @Test("RID: HR0 HR1 and UID0-3, nfcpy's Topaz answer 11 48 b2565400")
    func rid() async throws {
        let (topaz, transport) = commands([.send("78", .standard, answer: "11 48 B2 56 54 00")])
        let (header, uid) = try await topaz.readIdentification()
        #expect(header == [0x11, 0x48] && uid == [0xB2, 0x56, 0x54, 0x00])
        #expect(await transport.problems.isEmpty)
    }

    @Test("RALL: the header ROM and 120 bytes; a short answer is refused with its length")
    func rall() async throws {
        let memory = [UInt8](0..<120)
        let (topaz, transport) = commands([
            .send([0x00], .standard, answer: .bytes([0x11, 0x48] + memory)),
            .send([0x00], .standard, answer: .bytes([0x11, 0x48, 0x00])),
        ])
        let all = try await topaz.readAll()
        #expect(all.headerROM == [0x11, 0x48] && all.memory == memory)
        await #expect(throws: TagCommandError.self) { _ = try await topaz.readAll() }
        #expect(await transport.problems.isEmpty)
    }

    @Test("READ 01 ADD, WRITE-E 53 ADD DATA, WRITE-NE 1A ADD DATA: the data byte back (AET62 §8.4: 01 08 → 18)")
    func byteCommands() async throws {
        let (topaz, transport) = commands([
            .send("01 08", .standard, answer: "18"),
            .send("53 08 FF", .standard, answer: "FF"),
            .send("1A 70 04", .standard, answer: "04"),
        ])
        #expect(try await topaz.read(address: 8) == 0x18)
        #expect(try await topaz.write(address: 8, value: 0xFF) == 0xFF)
        #expect(try await topaz.write(address: 0x70, value: 0x04, erase: false) == 0x04)
        #expect(await transport.problems.isEmpty)
    }

    @Test(
        "the dynamic commands: READ8 02 blk, WRITE-E8 54 blk DATA8, RSEG 10 ADDS; a PN532's time-out is the transport's"
    )
    func dynamicCommands() async throws {
        let block = [UInt8](repeating: 0xA5, count: 8)
        let (topaz, transport) = commands([
            .send([0x02, 0x10], .standard, answer: .bytes(block)),
            .send([0x54, 0x10] + block, .standard, answer: .bytes(block)),
            .send("10 10", .standard, fails: .timeout),
        ])
        #expect(try await topaz.readBlock(0x10) == block)
        #expect(try await topaz.writeBlock(0x10, bytes: block) == block)
        await #expect(throws: TagCommandError.transport(.timeout)) { _ = try await topaz.readSegment(1) }
        #expect(await transport.problems.isEmpty)
    }

    @Test("arguments outside the command's fields are refused before anything is sent")
    func arguments() async {
        let (topaz, transport) = commands([])
        await #expect(throws: TagCommandError.self) { _ = try await topaz.read(address: 128) }
        await #expect(throws: TagCommandError.self) { try await topaz.writeBlock(1, bytes: [1, 2]) }
        await #expect(throws: TagCommandError.self) { _ = try await topaz.readSegment(16) }
        #expect(await transport.problems.isEmpty)
    }
}

import NFCChips
import NFCEmulator
import Testing
@testable import NFCTags

/// Bytes out, bytes in for the ST25TB commands as libnfc carries them (raw type B frames, the
/// chip's CRC_B): Get_UID `0B`, Read_Block `08 n`, Write_Block `09 n d0-d3` (never answered,
/// read back as `nfc-st25tb` does), then the emulated card against the library.
@Suite("ST25TB commands: frames, answers, the emulated card")
struct ST25TBCommandTranscriptTests {
    /// The ST25TB512-AC of libnfc pull request 645 (a real card on a PN533).
    static let uid = [UInt8](commandHex: "b6 c0 61 a0 00 1b 02 d0")
    static let target = TagTarget(st25tbUID: uid)

    func commands(_ steps: [TranscriptStep]) -> (ST25TBCommands, TranscriptTransport) {
        let transport = TranscriptTransport(target: Self.target, steps: steps)
        return (ST25TBCommands(transport: transport), transport)
    }

    @Test("the table names the chip by the UID's chip ID: 1B an ST25TB512-AC, 31 >> 2 a legacy SRT512, no D0 02 none")
    func chips() {
        let st25tb = ChipTables.st25tb
        #expect(st25tb.chip(uid: Self.uid)?.product == "ST25TB512-AC")
        #expect(st25tb.chip(uid: [UInt8](commandHex: "86 6e 0a 23 8e 31 02 d0"))?.product == "SRT512")
        #expect(st25tb.chip(uid: [UInt8](commandHex: "86 6e 0a 23 8e 31 05 d0")) == nil)
        #expect(st25tb.commands[.initiate].prefix == [0x06, 0x00] && st25tb.commands[.select].prefix == [0x0E])
    }

    @Test("Get_UID 0B: 8 bytes; Read_Block 08 n: 4 bytes, pull request 645's block 0F; a short answer is refused")
    func reads() async throws {
        let (card, transport) = commands([
            .send("0B", .standard, answer: "b6 c0 61 a0 00 1b 02 d0"),
            .send("08 0F", .standard, answer: "12 cb 9e 6f"),
            .send("08 FF", .standard, answer: "ff 7f 61 fc"),
            .send("08 10", .standard, answer: "12 cb"),
        ])
        #expect(try await card.readUID() == Self.uid)
        #expect(try await card.readBlock(0x0F) == [0x12, 0xCB, 0x9E, 0x6F])
        #expect(try await card.readBlock(0xFF) == [0xFF, 0x7F, 0x61, 0xFC])
        await #expect(throws: TagCommandError.self) { _ = try await card.readBlock(0x10) }
        #expect(await transport.problems.isEmpty)
    }

    @Test("Write_Block 09 n d0-d3: silence is the answer, then the read-back; a block the card kept is refused")
    func writes() async throws {
        let (card, transport) = commands([
            .send("09 07 01 02 03 04", .standard, fails: .timeout),
            .send("08 07", .standard, answer: "01 02 03 04"),
            .send("09 05 20 00 00 00", .standard, fails: .timeout),
            .send("08 05", .standard, answer: "10 00 00 00"),
            .send("09 08 01 02 03 04", .standard, fails: .tagLost),
        ])
        #expect(try await card.writeBlock(7, data: [1, 2, 3, 4]) == [1, 2, 3, 4])
        await #expect(throws: TagCommandError.self) { try await card.writeBlock(5, data: [0x20, 0, 0, 0]) }
        await #expect(throws: TagCommandError.transport(.tagLost)) { try await card.writeBlock(8, data: [1, 2, 3, 4]) }
        await #expect(throws: TagCommandError.self) { try await card.writeBlock(8, data: [1, 2, 3]) }
        await #expect(throws: TagCommandError.self) { _ = try await card.readBlock(256) }
        #expect(await transport.problems.isEmpty)
    }

    @Test(
        "the emulated card: Initiate, Select, Get_UID; writes land; a cleared lock bit and a counter counting up keep the block"
    )
    func emulatedCard() async throws {
        var card = ST25TBTag(uid: Self.uid)
        // Nothing but Initiate is heard before it; Select with the drawn Chip_ID selects.
        #expect(card.receive([0x0B]).reply == .silence)
        guard case .bytes(let chipID) = card.receive([0x06, 0x00]).reply, chipID.count == 1 else {
            Issue.record("no Chip_ID")
            return
        }
        #expect(card.receive([0x0E, chipID[0] &+ 1]).reply == .silence)
        #expect(card.receive([0x0E, chipID[0]]).reply == .bytes(chipID))
        #expect(card.receive([0x0B]).reply == .bytes(Self.uid))
        let commands = ST25TBCommands(transport: SelectedST25TB(card: card))
        try await commands.writeBlock(9, data: [9, 9, 9, 9])
        try await commands.writeBlock(5, data: [0x10, 0, 0, 0])
        await #expect(throws: TagCommandError.self) { try await commands.writeBlock(5, data: [0x20, 0, 0, 0]) }
        // Bit 16 + 9 cleared: block 9 is read-only from now on; the system block only clears bits.
        try await commands.writeBlock(0xFF, data: [0xFF, 0xFF, 0xFF, 0xFD])
        await #expect(throws: TagCommandError.self) { try await commands.writeBlock(9, data: [1, 1, 1, 1]) }
        await #expect(throws: TagCommandError.self) {
            try await commands.writeBlock(0xFF, data: [0xFF, 0xFF, 0xFF, 0xFF])
        }
        let dump = try await commands.dump(uid: Self.uid)
        #expect(dump.blocks?.count == 16 && dump.blocks?[9] == [9, 9, 9, 9] && dump.product == "ST25TB512-AC")
        #expect(dump.systemBlock == [0xFF, 0xFF, 0xFF, 0xFD])
    }

    /// Pull request 645's card, as `nfc-st25tb` read it on a PN533: 16 blocks and system block
    /// `ff 7f 61 fc`, whose OTP_Lock_Reg the tool reports as write-protecting blocks 1-4 and 7-9.
    static let realCard: [[UInt8]] = [
        "7a 7f 8e 8d", "ad 40 e0 93", "bc 1e aa e0", "09 9d 24 58", "07 5c bd 9a", "ff 07 00 00", "00 00 00 00",
        "00 20 10 20", "01 a4 40 01", "00 00 77 80", "08 18 02 08", "90 b6 b0 82", "11 d5 f4 d8", "18 10 02 11",
        "90 b4 42 42", "12 cb 9e 6f", "ff 7f 61 fc",
    ].map { [UInt8](commandHex: $0) }

    @Test("pull request 645's real card replayed: its dump reads back, and exactly blocks 1-4 and 7-9 refuse a write")
    func realCardReplay() async throws {
        let commands = ST25TBCommands(transport: SelectedST25TB(card: ST25TBTag(uid: Self.uid, blocks: Self.realCard)))
        let dump = try await commands.dump(uid: Self.uid)
        #expect((dump.blocks ?? []) + [dump.systemBlock ?? []] == Self.realCard)
        var refused: [Int] = []
        for block in 0..<16 where !ChipTables.st25tb.counterBlocks.contains(block) {
            do {
                try await commands.writeBlock(block, data: [0x5A, 0x5A, 0x5A, 0x5A])
            } catch {
                refused.append(block)
            }
        }
        #expect(refused == [1, 2, 3, 4, 7, 8, 9])
    }

    @Test("Completion deactivates until the field resets; the field reset leaves it Ready, for Initiate only")
    func completion() {
        var card = ST25TBTag(uid: Self.uid)
        guard case .bytes(let chipID) = card.receive([0x06, 0x00]).reply else { return }
        _ = card.receive([0x0E] + chipID)
        #expect(card.receive([0x0F]).reply == .silence)
        #expect(card.receive([0x08, 0x00]).reply == .silence)
        #expect(card.receive([0x06, 0x00]).reply == .silence)
        card.fieldReset()
        #expect(card.receive([0x08, 0x00]).reply == .silence)
        guard case .bytes(let again) = card.receive([0x06, 0x00]).reply else {
            Issue.record("no Chip_ID after the field reset")
            return
        }
        #expect(card.receive([0x0E] + again).reply == .bytes(again))
        #expect(card.receive([0x08, 0x00]).reply == .bytes([0xFF, 0xFF, 0xFF, 0xFF]))
    }
}

/// The emulated card, selected, as the reader's InCommunicateThru reaches it: its silence
/// is the reader's time-out.
private actor SelectedST25TB: TagTransport {
    nonisolated let target = ST25TBCommandTranscriptTests.target
    nonisolated let maximumFrameLength = 252
    private var card: ST25TBTag

    /// `card`, selected: Initiate and Select, unless it is selected already.
    init(card: ST25TBTag) {
        var card = card
        if case .bytes(let chipID) = card.receive([0x06, 0x00]).reply { _ = card.receive([0x0E] + chipID) }
        self.card = card
    }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError)
        -> TagResponse
    {
        guard case .bytes(let answer) = card.receive(frame).reply else { throw .timeout }
        return .bytes(answer)
    }

    func reselect() async throws(TagTransportError) {}

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        throw .authenticationFailed
    }
}

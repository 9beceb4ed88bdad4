import NFCChips
import NFCEmulator
import NFCTags
import Testing
import Foundation

@Suite("Dump and restore: the JSON image, what restore writes and what it never writes")
struct MemoryDumpTests {
    static let otherUID = [UInt8](commandHex: "04 11 22 33 44 55 66")

    /// An NTAG215 with a message in its user pages.
    func writtenTag() async throws -> Type2Tag {
        let transport = EmulatedTagTransport(tag: try EmulatedNTAG.fresh())
        let tag = try Type2Commands(transport: transport, chip: .ntag215)
        for page in 4...20 { try await tag.write(page: page, bytes: [UInt8(page), 0xA5, 0x5A, UInt8(255 - page)]) }
        return await transport.tag
    }

    @Test("Page roles come from the tables")
    func pageRoles() throws {
        let ntag = try Type2Commands(transport: TranscriptTransport(steps: []), chip: .ntag215)
        #expect(
            [0, 1, 2, 3, 4, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86].map(ntag.role(ofPage:))
                == [.uid, .uid, .lock, .otp, .user, .user, .lock, .configuration, .configuration, .secret, .secret])
        let ultralightC = try Type2Commands(transport: TranscriptTransport(steps: []), chip: .ultralightC)
        #expect(
            [0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C].map(ultralightC.role(ofPage:)) == [
                .user, .lock, .counter, .configuration, .configuration, .secret,
            ])
    }

    @Test(
        "A dump survives JSON, and restores the user pages onto another tag without touching UID, locks or configuration"
    )
    func dumpRestoreRoundTrip() async throws {
        let source = try Type2Commands(transport: EmulatedTagTransport(tag: try await writtenTag()), chip: .ntag215)
        let dump = try await source.dump()
        #expect(dump.pages?.count == 0x87)
        #expect(dump.pages?[0x85] == [0, 0, 0, 0])  // PWD reads as zeros: never in a dump
        let json = try dump.jsonBytes()
        #expect(String(decoding: json, as: UTF8.self).contains("\"format\" : \"nfctagkit-memory-dump\""))
        let reread = try TagMemoryDump(jsonBytes: json)
        #expect(reread == dump)

        let targetModel = try Type2Tag(chip: .ntag215, uid: Self.otherUID)
        let transport = EmulatedTagTransport(tag: targetModel)
        let target = try Type2Commands(transport: transport, chip: .ntag215)
        let written = try await target.restore(reread)
        #expect(written == Array(4...20))
        let after = await transport.tag
        for page in 4...20 { #expect(after.page(page) == dump.pages?[page]) }
        for page in [0, 1, 2, 3, 0x82, 0x83, 0x84, 0x85, 0x86] {
            #expect(after.page(page) == targetModel.page(page), "page \(page)")
        }
        #expect(try await target.restore(reread) == [])  // nothing differs any more
    }

    @Test("Lock pages are written only when asked and consented to, after the data")
    func lockPagesNeedOptionAndConsent() async throws {
        var model = try await writtenTag()
        model.setPage(2, to: [model.page(2)[0], model.page(2)[1], 0xF0, 0x00])  // L4..L7 locked
        let dump = try await Type2Commands(transport: EmulatedTagTransport(tag: model), chip: .ntag215).dump()
        let transport = EmulatedTagTransport(tag: try Type2Tag(chip: .ntag215, uid: Self.otherUID))
        let target = try Type2Commands(transport: transport, chip: .ntag215)
        await #expect(throws: TagCommandError.irreversibleNotConsented([.lockOrOTPBits(page: 2)])) {
            try await target.restore(dump, options: .lockPages)
        }
        #expect(await transport.tag.page(4) == [0x03, 0x00, 0xFE, 0x00])  // refused before any write
        let written = try await target.restore(dump, options: .lockPages, consent: .lockAndOTPBits)
        #expect(written.last == 2)
        #expect(await transport.tag.page(2)[2] == 0xF0)
    }

    @Test("Configuration is restored only with the option, and never turns protection on")
    func configurationRestore() async throws {
        var model = try EmulatedNTAG.fresh()
        model.setPage(0x84, to: [0x10, 0x05, 0x00, 0x00])  // NFC_CNT_EN
        let dump = try await Type2Commands(transport: EmulatedTagTransport(tag: model), chip: .ntag215).dump()
        let transport = EmulatedTagTransport(tag: try EmulatedNTAG.fresh())
        let target = try Type2Commands(transport: transport, chip: .ntag215)
        #expect(try await target.restore(dump) == [])
        #expect(try await target.restore(dump, options: .configuration) == [0x84])
        #expect(await transport.tag.page(0x84) == [0x10, 0x05, 0x00, 0x00])

        var protected = dump
        protected.pages?[0x83] = [0x04, 0x00, 0x00, 0x04]  // AUTH0 = 4
        await #expect(throws: TagCommandError.self) { try await target.restore(protected, options: .configuration) }
    }

    @Test("Malformed dumps are refused with the field that is wrong")
    func malformedDumps() async throws {
        let dump = try await Type2Commands(
            transport: EmulatedTagTransport(tag: try EmulatedNTAG.fresh(.ntag213)), chip: .ntag213
        ).dump()
        var text = String(decoding: try dump.jsonBytes(), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"E1101200\"", with: "\"E11012ZZ\"")
        #expect(throws: TagCommandError.invalidArgument("\"pages[3]\": not hex at character 6")) {
            _ = try TagMemoryDump(jsonBytes: Array(text.utf8))
        }
        var short = dump
        short.pages?.removeLast()
        #expect(throws: TagCommandError.self) { _ = try short.jsonBytes() }
        #expect(throws: TagCommandError.self) { _ = try TagMemoryDump(jsonBytes: Array("{\"format\":\"x\"}".utf8)) }
        let ntag215 = try Type2Commands(transport: EmulatedTagTransport(tag: try EmulatedNTAG.fresh()), chip: .ntag215)
        await #expect(throws: TagCommandError.self) { try await ntag215.restore(dump) }
    }
}

@Suite("Classic dump and restore with keys")
struct ClassicDumpTests {
    static let key = [UInt8](repeating: 0xFF, count: 6)
    static let classicKey = ClassicKey.factoryDefault
    static let keyHex = "FF FF FF FF FF FF"

    @Test(
        "A 1K dump opens each sector with a known key, fills the trailer key A, keeps a readable key B, and leaves unopened sectors empty"
    )
    func dumpWithKeys() async throws {
        var steps: [TranscriptStep] = []
        for sector in 0..<16 {
            let trailer = UInt8(sector * 4 + 3)
            if sector == 1 {
                steps += [
                    .classicAuthentication(block: trailer, .a, key: Self.keyHex, accepted: false), .reselect,
                    .classicAuthentication(block: trailer, .b, key: Self.keyHex, accepted: false), .reselect,
                ]
                continue
            }
            steps.append(.classicAuthentication(block: trailer, .a, key: Self.keyHex))
            for block in (trailer - 3)...trailer {
                let content =
                    block == trailer
                    ? "000000000000 FF0780 69 FFFFFFFFFFFF"
                    : String(repeating: String(format: "%02X", block), count: 16)
                steps.append(.send(String(format: "30 %02X", block), .standard, answer: content))
            }
        }
        let transport = TranscriptTransport(
            target: TagTarget(uid: [1, 2, 3, 4], atqa: 0x0004, sak: 0x08), steps: steps)
        let classic = try ClassicCommands(transport: transport, chip: .classic1k)
        let dump = try await classic.dump(keys: [Self.key])
        #expect(await transport.problems == [])
        let blocks = try #require(dump.blocks)
        #expect(blocks[4] == nil && blocks[7] == nil)
        #expect(blocks[8] == [UInt8](repeating: 8, count: 16))
        #expect(blocks[3]?.prefix(6) == Self.key[...])
        // Transport access bits (trailer 001) make key B readable: the dump keeps what was read.
        #expect(dump.sectorKeys?[0] == ClassicSectorKeys(sector: 0, keyA: Self.classicKey, keyB: Self.classicKey))
        #expect(dump.sectorKeys?[1] == ClassicSectorKeys(sector: 1, keyA: nil, keyB: nil))
        #expect(try TagMemoryDump(jsonBytes: try dump.jsonBytes()) == dump)
    }

    @Test("Restore writes data blocks of the sectors present, never block 0, trailers only when asked")
    func restore() async throws {
        var blocks = [[UInt8]?](repeating: nil, count: 64)
        blocks[0] = [UInt8](repeating: 0xEE, count: 16)
        blocks[1] = [UInt8](repeating: 0x01, count: 16)
        blocks[3] = ChipTables.classic.factoryTrailer
        blocks[5] = [UInt8](repeating: 0x05, count: 16)
        let dump = TagMemoryDump(chip: .classic1k, uid: [1, 2, 3, 4], blocks: blocks)
        let transport = TranscriptTransport(
            target: TagTarget(uid: [5, 6, 7, 8], atqa: 0x0004, sak: 0x08),
            steps: [
                .classicAuthentication(block: 3, .a, key: Self.keyHex),
                .send("A0 01" + String(repeating: " 01", count: 16), .standard, ack: ()),
                .classicAuthentication(block: 7, .b, key: "A0 A1 A2 A3 A4 A5"),
                .send("A0 05" + String(repeating: " 05", count: 16), .standard, ack: ()),
            ])
        let classic = try ClassicCommands(transport: transport, chip: .classic1k)
        let written = try await classic.restore(
            dump,
            keys: [
                ClassicSectorKeys(sector: 0, keyA: Self.classicKey, keyB: nil),
                ClassicSectorKeys(sector: 1, keyA: Self.classicKey, keyB: .madKeyA),
            ])
        #expect(written == [1, 5])
        #expect(await transport.problems == [])
    }

    @Test("Restore uses key A where the dump's trailer makes key B readable, even when the dump recorded key B")
    func restoreSkipsReadableKeyB() async throws {
        var blocks = [[UInt8]?](repeating: nil, count: 64)
        blocks[1] = [UInt8](repeating: 0x01, count: 16)
        blocks[3] = ChipTables.classic.factoryTrailer  // trailer 001: key B readable, opens nothing
        let dump = TagMemoryDump(
            chip: .classic1k, uid: [1, 2, 3, 4], blocks: blocks,
            sectorKeys: [ClassicSectorKeys(sector: 0, keyA: Self.classicKey, keyB: Self.classicKey)])
        let transport = TranscriptTransport(
            target: TagTarget(uid: [5, 6, 7, 8], atqa: 0x0004, sak: 0x08),
            steps: [
                .classicAuthentication(block: 3, .a, key: Self.keyHex),
                .send("A0 01" + String(repeating: " 01", count: 16), .standard, ack: ()),
            ])
        let classic = try ClassicCommands(transport: transport, chip: .classic1k)
        #expect(try await classic.restore(dump, keys: try #require(dump.sectorKeys)) == [1])
        #expect(await transport.problems == [])
    }

    @Test("Restore falls back to key A, after selecting the tag again, when the tag refuses key B")
    func restoreFallsBackToKeyA() async throws {
        var blocks = [[UInt8]?](repeating: nil, count: 64)
        blocks[5] = [UInt8](repeating: 0x05, count: 16)
        let dump = TagMemoryDump(chip: .classic1k, uid: [1, 2, 3, 4], blocks: blocks)
        let transport = TranscriptTransport(
            target: TagTarget(uid: [5, 6, 7, 8], atqa: 0x0004, sak: 0x08),
            steps: [
                .classicAuthentication(block: 7, .b, key: "A0 A1 A2 A3 A4 A5", accepted: false), .reselect,
                .classicAuthentication(block: 7, .a, key: Self.keyHex),
                .send("A0 05" + String(repeating: " 05", count: 16), .standard, ack: ()),
            ])
        let classic = try ClassicCommands(transport: transport, chip: .classic1k)
        let written = try await classic.restore(
            dump,
            keys: [
                ClassicSectorKeys(sector: 1, keyA: Self.classicKey, keyB: .madKeyA)
            ])
        #expect(written == [5])
        #expect(await transport.problems == [])
    }
}

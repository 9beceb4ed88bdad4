import NFCChips
import NFCTags
import TestSupport
import Testing
import Foundation

@Suite("MIFARE Classic: authentication, blocks, value blocks, sector trailers")
struct ClassicCommandTests {
    static let target = TagTarget(uid: [UInt8](commandHex: "3E 39 AB 7F"), atqa: 0x0004, sak: 0x08)
    static let factoryKey = "FF FF FF FF FF FF"
    static let factoryTrailer = "FF FF FF FF FF FF FF 07 80 69 FF FF FF FF FF FF"

    func classic(_ steps: [TranscriptStep], chip: Chip = .classic1k) throws -> (ClassicCommands, TranscriptTransport) {
        let transport = TranscriptTransport(target: Self.target, steps: steps)
        return (try ClassicCommands(transport: transport, chip: chip), transport)
    }

    @Test("Authenticate sector 1 with key A (through its trailer block 7), then READ 30 04")
    func authenticateAndRead() async throws {
        let block = "00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF"
        let (classic, transport) = try classic([
            .classicAuthentication(block: 7, .a, key: Self.factoryKey), .send("30 04", .standard, answer: block),
        ])
        try await classic.authenticate(sector: 1, keyType: .a, key: [UInt8](commandHex: Self.factoryKey))
        #expect(try await classic.readBlock(4) == [UInt8](commandHex: block))
        #expect(await transport.problems == [])
    }

    @Test("A refused key is an authentication failure with no attempt limit")
    func refusedKey() async throws {
        let (classic, _) = try classic([.classicAuthentication(block: 3, .b, key: "A0 A1 A2 A3 A4 A5", accepted: false)]
        )
        await #expect(throws: TagCommandError.authenticationFailed(remainingAttempts: .unlimited)) {
            try await classic.authenticate(block: 3, keyType: .b, key: [UInt8](commandHex: "A0 A1 A2 A3 A4 A5"))
        }
    }

    @Test("WRITE A0 bb + 16 bytes; trailers and block 0 are refused by writeBlock")
    func writeBlock() async throws {
        let data = [UInt8](repeating: 0x5A, count: 16)
        let (classic, transport) = try classic([
            .send("A0 05" + String(repeating: " 5A", count: 16), .standard, ack: ())
        ])
        try await classic.writeBlock(5, bytes: data)
        await #expect(throws: TagCommandError.self) { try await classic.writeBlock(7, bytes: data) }
        await #expect(throws: TagCommandError.self) { try await classic.writeBlock(0, bytes: data) }
        await #expect(throws: TagCommandError.self) { try await classic.writeBlock(64, bytes: data) }
        #expect(await transport.problems == [])
    }

    @Test("Value block 100 at address 5 encodes with its inverted copies and decodes back")
    func valueBlockVector() throws {
        let bytes = [UInt8](commandHex: "64000000 9BFFFFFF 64000000 05FA05FA")
        #expect(ClassicValueBlock(value: 100, address: 5).bytes == bytes)
        #expect(try ClassicValueBlock(bytes: bytes) == ClassicValueBlock(value: 100, address: 5))
        #expect(
            ClassicValueBlock(value: -1, address: 9).bytes == [UInt8](commandHex: "FFFFFFFF 00000000 FFFFFFFF 09F609F6")
        )
    }

    @Test("A corrupted value block names the first wrong byte", arguments: [4, 9, 13, 14])
    func corruptedValueBlock(offset: Int) throws {
        var bytes = ClassicValueBlock(value: 100, address: 5).bytes
        bytes[offset] ^= 0x10
        #expect(
            throws: TagCommandError.invalidAnswer(
                command: nil, bytes: bytes, offset: offset,
                expected: Self.expectation(offset))
        ) { _ = try ClassicValueBlock(bytes: bytes) }
    }

    static func expectation(_ offset: Int) -> String {
        switch offset {
        case 4: "the inverted value"
        case 9: "the same value in each copy"
        case 14: "the address byte 5"
        default: "the inverted address byte"
        }
    }

    @Test("Value blocks round-trip for random values and addresses")
    func valueBlockRoundTrip() throws {
        var random = SplitMix64(seed: 0x7A1E_B10C)
        for _ in 0..<1000 {
            let block = ClassicValueBlock(
                value: Int32(truncatingIfNeeded: random.next()), address: UInt8(truncatingIfNeeded: random.next()))
            #expect(try ClassicValueBlock(bytes: block.bytes) == block, "seed \(random.seed)")
        }
    }

    @Test("INCREMENT C1, DECREMENT C0, RESTORE C2 carry a 4-byte LE operand; TRANSFER B0 commits")
    func valueOperations() async throws {
        let (classic, transport) = try classic([
            .send("A0 04 64000000 9BFFFFFF 64000000 04FB04FB", .standard, ack: ()),
            .send("C1 04 0A 00 00 00", .standard, ack: ()), .send("B0 04", .standard, ack: ()),
            .send("C0 04 05 00 00 00", .standard, ack: ()), .send("B0 04", .standard, ack: ()),
            .send("C2 04 00 00 00 00", .standard, ack: ()), .send("B0 05", .standard, ack: ()),
            .send("30 04", .standard, answer: "69000000 96FFFFFF 69000000 04FB04FB"),
        ])
        try await classic.writeValue(4, value: 100)
        try await classic.increment(4, by: 10)
        try await classic.transfer(to: 4)
        try await classic.decrement(4, by: 5)
        try await classic.transfer(to: 4)
        try await classic.restore(4)
        try await classic.transfer(to: 5)
        #expect(try await classic.readValue(4) == ClassicValueBlock(value: 105, address: 4))
        #expect(await transport.problems == [])
    }

    @Test("The factory trailer decodes to transport conditions and encodes back byte for byte")
    func factoryTrailer() throws {
        let trailer = try ClassicSectorTrailer(bytes: ChipTables.classic.factoryTrailer)
        #expect(trailer.access.trailer.code == "001")
        #expect(trailer.access.groups.map(\.code) == ["000", "000", "000"])
        #expect(trailer.generalPurposeByte == 0x69)
        #expect(trailer.problems == [] && !trailer.isFrozen && !trailer.isKeyBUsable)
        #expect(try trailer.bytes == ChipTables.classic.factoryTrailer)
    }

    @Test("Random access conditions round-trip through the trailer bytes")
    func trailerRoundTrip() throws {
        var random = SplitMix64(seed: 0x5EC7_0A11)
        func bits() -> AccessBits {
            let v = random.next()
            return AccessBits(c1: v & 1 != 0, c2: v & 2 != 0, c3: v & 4 != 0)
        }
        for _ in 0..<500 {
            let key = { ClassicKey(uncheckedBytes: (0..<6).map { _ in UInt8(truncatingIfNeeded: random.next()) }) }
            let trailer = ClassicSectorTrailer(
                keyA: key(), access: AccessConditions(groups: [bits(), bits(), bits()], trailer: bits()),
                generalPurposeByte: UInt8(truncatingIfNeeded: random.next()), keyB: key())
            #expect(try ClassicSectorTrailer(bytes: try trailer.bytes) == trailer, "seed \(random.seed)")
        }
    }

    @Test("Broken inversion is refused with the trailer byte and bit", arguments: [6, 7, 8])
    func brokenInversion(byte: Int) throws {
        var bytes = ChipTables.classic.factoryTrailer
        bytes[byte] ^= 0x01
        #expect(throws: TagCommandError.self) { _ = try ClassicSectorTrailer(bytes: bytes) }
        do { _ = try ClassicSectorTrailer(bytes: bytes) } catch .unusableTrailer(let problems) {
            guard case .invalidAccessBits(let at, _)? = problems.first else {
                Issue.record("\(problems)")
                return
            }
            #expect((6...7).contains(at))
        } catch { Issue.record("\(error)") }
    }

    @Test("A trailer that freezes the sector with unreadable data blocks is refused unless forced")
    func unusableTrailerRefused() async throws {
        let never = AccessBits(c1: true, c2: true, c3: true)
        let frozen = AccessBits(c1: true, c2: true, c3: true)  // trailer 111: nothing writable
        let trailer = ClassicSectorTrailer(
            keyA: .factoryDefault,
            access: AccessConditions(
                groups: [never, AccessBits(c1: false, c2: false, c3: false), never], trailer: frozen),
            generalPurposeByte: 0x69, keyB: .factoryDefault)
        #expect(trailer.problems == [.dataGroupUnreadableForever(group: 0), .dataGroupUnreadableForever(group: 2)])
        #expect(trailer.isFrozen)
        let bytes = try trailer.bytes.map { String(format: "%02X", $0) }.joined(separator: " ")
        let (classic, transport) = try classic([.send("A0 07 " + bytes, .standard, ack: ())])
        await #expect(throws: TagCommandError.unusableTrailer(trailer.problems)) {
            try await classic.writeSectorTrailer(trailer, sector: 1)
        }
        await #expect(throws: TagCommandError.irreversibleNotConsented([.frozenSectorTrailer(sector: 1)])) {
            try await classic.writeSectorTrailer(trailer, sector: 1, force: true)
        }
        try await classic.writeSectorTrailer(trailer, sector: 1, force: true, consent: .frozenSectorTrailer)
        #expect(await transport.problems == [])
    }

    @Test("Data readable only by key B while key B is readable is a lost right")
    func keyBOnlyRights() throws {
        // Data 011 (read B), trailer 010 (key B readable, nothing writable).
        let trailer = ClassicSectorTrailer(
            keyA: ClassicKey(uncheckedBytes: [UInt8](repeating: 0, count: 6)),
            access: AccessConditions(
                groups: Array(repeating: AccessBits(c1: false, c2: true, c3: true), count: 3),
                trailer: AccessBits(c1: false, c2: true, c3: false)),
            generalPurposeByte: 0, keyB: ClassicKey(uncheckedBytes: [UInt8](repeating: 0, count: 6)))
        #expect(trailer.problems.count == 3)
        #expect(trailer.problems.first == .rightOnlyForReadableKeyB(right: "read of data group 0"))
    }

    @Test("The NFC read-only trailer is usable but frozen: it needs consent, not force")
    func readOnlyNFCTrailer() async throws {
        let template = ChipTables.classic.nfcSectorReadOnlyTrailer
        let trailer = try ClassicSectorTrailer(bytes: template.block(keyB: [UInt8](repeating: 0, count: 6)))
        #expect(trailer.problems == [] && trailer.isFrozen)
        let bytes = try trailer.bytes.map { String(format: "%02X", $0) }.joined(separator: " ")
        let (classic, transport) = try classic([.send("A0 0B " + bytes, .standard, ack: ())])
        await #expect(throws: TagCommandError.irreversibleNotConsented([.frozenSectorTrailer(sector: 2)])) {
            try await classic.writeSectorTrailer(trailer, sector: 2)
        }
        try await classic.writeSectorTrailer(trailer, sector: 2, consent: .frozenSectorTrailer)
        #expect(await transport.problems == [])
    }

    @Test("Raw trailer bytes with broken inversion are refused, and written only when forced")
    func rawTrailerBytes() async throws {
        var bytes = ChipTables.classic.factoryTrailer
        bytes[6] = 0xFE
        let hex = bytes.map { String(format: "%02X", $0) }.joined(separator: " ")
        let (classic, transport) = try classic([.send("A0 FF " + hex, .standard, ack: ())], chip: .classic4k)
        await #expect(throws: TagCommandError.self) { try await classic.writeSectorTrailer(bytes: bytes, sector: 39) }
        try await classic.writeSectorTrailer(bytes: bytes, sector: 39, force: true)
        #expect(await transport.problems == [])
    }
}

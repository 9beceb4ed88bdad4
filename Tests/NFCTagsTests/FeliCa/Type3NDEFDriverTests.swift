import NDEF
import NFCChips
import NFCEmulator
import Testing
@testable import NFCTags

/// NDEF on the emulated FeliCa Lite-S: status, read, the NFC Forum write order, lock,
/// format, and a tear at every exchange of a write.
@Suite("Type 3 NDEF: attribute block, WriteFlag write order, RWFlag, tears")
struct Type3NDEFDriverTests {
    static let idm = [UInt8](commandHex: "01 2E 4C 2A 31 12 0B 05")
    static let url = NDEFMessage(records: [.wellKnown("U", payload: [0x04] + Array("example.com/felica".utf8))])
    static let long = NDEFMessage(records: [
        .wellKnown("T", payload: [0x02] + Array("en".utf8) + Array(repeating: 0x61, count: 60))
    ])

    static func liteS(ndef: Bool = true, message: NDEFMessage? = nil) throws -> FeliCaLiteSTag {
        var tag = FeliCaLiteSTag(idm: idm, ndef: ndef)
        if ndef { tag.setNDEFMessage(try (message ?? NDEFMessage(records: [])).tagBytes()) }
        return tag
    }

    static func attempt<T>(_ body: () async throws(NDEFTagError) -> T) async -> Result<T, NDEFTagError> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    static func driver(_ transport: any TagTransport) -> Type3NDEFDriver {
        Type3NDEFDriver(transport: transport, idm: idm, pmm: ChipTables.felica.liteS.pmm)
    }

    @Test("the attribute block of a formatted Lite-S decodes, and encodes back byte for byte")
    func attributeBlock() throws {
        let bytes = ChipTables.felica.liteS.ndefAttribute
        let attribute = try Type3AttributeBlock(bytes: bytes)
        #expect(attribute.blocksPerRead == 4 && attribute.blocksPerWrite == 1 && attribute.maximumBlocks == 13)
        #expect(attribute.writable && !attribute.writeInProgress && attribute.length == 0)
        #expect(attribute.encoded == bytes)
        var wrong = bytes
        wrong[15] ^= 1
        #expect(
            throws: NDEFTagError.invalidCapabilityContainer(
                offset: 14, reason: .checksumMismatch(expected: 0x23, found: 0x22))
        ) {
            try Type3AttributeBlock(bytes: wrong)
        }
    }

    @Test("every Ln, flag and area size survives encode and decode")
    func attributeRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var attribute = Type3AttributeBlock(
                blocksPerRead: Int.random(in: 1...15, using: &generator),
                blocksPerWrite: Int.random(in: 1...15, using: &generator),
                maximumBlocks: Int.random(in: 0...0xFFFF, using: &generator))
            attribute.length = Int.random(in: 0...attribute.capacity, using: &generator)
            attribute.writable = Bool.random(using: &generator)
            attribute.writeInProgress = Bool.random(using: &generator)
            let back = try Type3AttributeBlock(bytes: attribute.encoded)
            #expect(back.encoded == attribute.encoded)
            #expect(back.length == attribute.length && back.writable == attribute.writable)
        }
    }

    @Test("status and read: capacity 208 bytes, the message as the tag holds it")
    func statusAndRead() async throws {
        let transport = EmulatedTagTransport(tag: try Self.liteS(message: Self.url))
        let driver = Self.driver(transport)
        let status = try await driver.queryStatus()
        #expect(status == NDEFStatus(availability: .readWrite, capacity: 208, length: try Self.url.tagBytes().count))
        #expect(try await driver.readMessage() == Self.url)
    }

    @Test("a Lite-S without the NDEF system is not supported, and format says why")
    func noNDEFSystem() async throws {
        let transport = EmulatedTagTransport(tag: try Self.liteS(ndef: false))
        let driver = Self.driver(transport)
        #expect(try await driver.queryStatus().availability == .notSupported)
        await #expect(throws: Type3NDEFDriver.noNDEFSystem) { try await driver.format(force: true) }
    }

    @Test("a write goes WriteFlag on, data blocks one a command (Nbw 1), then Ln with WriteFlag off")
    func writeOrder() async throws {
        let transport = EmulatedTagTransport(tag: try Self.liteS())
        let driver = Self.driver(transport)
        try await driver.writeMessage(Self.long)
        let bytes = try Self.long.tagBytes()
        let updates = await transport.frames.filter { $0.count > 1 && $0[1] == 0x08 }
        let blocks = updates.map { Int($0[15]) }  // LEN 08 IDm 01 0900 01 80bb data
        let dataBlocks = (bytes.count + 15) / 16
        #expect(blocks == [0] + Array(1...dataBlocks) + [0])
        #expect(updates.first?[16 + 9] == 0x0F, "WriteFlag on first")
        #expect(updates.last?[16 + 9] == 0x00, "WriteFlag off last")
        let tag = try #require(await transport.model(as: FeliCaLiteSTag.self))
        let attribute = try Type3AttributeBlock(bytes: tag.blocks[0] ?? [])
        #expect(attribute.length == bytes.count && !attribute.writeInProgress)
        #expect(try await Self.driver(transport).readMessage() == Self.long)
    }

    @Test("the same message again writes nothing; a full write writes it all")
    func unchanged() async throws {
        let transport = EmulatedTagTransport(tag: try Self.liteS(message: Self.url))
        try await Self.driver(transport).writeMessage(Self.url)
        #expect(await transport.frames.filter { $0[1] == 0x08 }.isEmpty)
        try await Self.driver(transport).writeMessage(
            Self.url, options: NDEFWriteOptions(fullWrite: true), progress: { _ in })
        #expect(await transport.frames.filter { $0[1] == 0x08 }.count == 2 + (try Self.url.tagBytes().count + 15) / 16)
    }

    @Test("a message larger than Nmaxb blocks is refused before anything is written")
    func tooLarge() async throws {
        let transport = EmulatedTagTransport(tag: try Self.liteS())
        let big = NDEFMessage(records: [
            .wellKnown("T", payload: [0x02] + Array("en".utf8) + Array(repeating: 0x62, count: 220))
        ])
        await #expect(throws: NDEFTagError.tagSizeTooSmall(needed: try big.tagBytes().count, capacity: 208)) {
            try await Self.driver(transport).writeMessage(big)
        }
        #expect(await transport.frames.filter { $0[1] == 0x08 }.isEmpty)
    }

    @Test(
        "lock clears RWFlag and, on a Lite-S, the NDEF blocks' write bits and MC_ALL: the card refuses writes for good")
    func lock() async throws {
        let transport = EmulatedTagTransport(tag: try Self.liteS())
        let driver = Self.driver(transport)
        try await driver.writeMessage(Self.url)
        try await driver.makeReadOnly(force: false)
        let status = try await Self.driver(transport).queryStatus()
        #expect(status.availability == .readOnly)
        await #expect(throws: NDEFTagError.tagNotWritable) { try await Self.driver(transport).writeMessage(Self.long) }
        #expect(try await Self.driver(transport).readMessage() == Self.url)
        let tag = try #require(await transport.model(as: FeliCaLiteSTag.self))
        #expect(Array((tag.blocks[0x88] ?? []).prefix(3)) == [0x00, 0xC0, 0x00], "blocks 00–0D read-only, MC frozen")
        // The card itself now refuses the attribute block and MC, whatever a writer sends.
        let felica = FeliCaCommands(transport: transport, idm: Self.idm, pmm: ChipTables.felica.liteS.pmm)
        for block: UInt16 in [0, 1, 0x88] {
            await #expect(throws: TagCommandError.self) {
                try await felica.writeWithoutEncryption(
                    services: [0x0009], blocks: [FeliCaBlockElement(block: block)],
                    data: [[UInt8](repeating: 0xFF, count: 16)])
            }
        }
        let again = Self.driver(transport)
        _ = try await again.readMessage()
        try await again.makeReadOnly(force: false)  // locked already: nothing to do
    }

    @Test("lock refuses a message this connection has not verified")
    func lockUnverified() async throws {
        let transport = EmulatedTagTransport(tag: try Self.liteS(message: Self.url))
        await #expect(throws: NDEFTagError.notVerified) { try await Self.driver(transport).makeReadOnly(force: false) }
    }

    @Test("a cut at every exchange of a write: the old message, the new one, or 'write in progress' — never another")
    func tearMatrix() async throws {
        let old = Self.url
        let new = Self.long
        var outcomes: [String: Int] = [:]
        for mode in TagCutMode.allCases {
            var exchange = 0
            while true {
                let transport = EmulatedTagTransport(tag: try Self.liteS(message: old))
                await transport.cut(after: exchange, mode: mode)
                let completed: Bool
                do {
                    try await Self.driver(transport).writeMessage(new)
                    completed = true
                } catch {
                    completed = false
                    switch error {
                    case .connectionLost: break
                    default: Issue.record("cut at \(exchange): \(error)")
                    }
                }
                let cut = await transport.wasCut
                await transport.bringBack()
                let read = await Self.attempt { () async throws(NDEFTagError) in
                    try await Self.driver(transport).readMessage()
                }
                switch read {
                case .success(let message):
                    #expect(message == old || message == new, "cut at \(exchange) \(mode): another message")
                    #expect(!completed || message == new)
                    outcomes[message == new ? "new" : "old", default: 0] += 1
                case .failure(.invalidCapabilityContainer(_, .writeInProgress)):
                    outcomes["in progress", default: 0] += 1
                    let status = await Self.attempt { () async throws(NDEFTagError) in
                        try await Self.driver(transport).queryStatus()
                    }
                    #expect((try? status.get()) == nil, "status of a torn tag")
                    try await Self.driver(transport).writeMessage(new)
                    #expect(try await Self.driver(transport).readMessage() == new)
                case .failure(let error):
                    Issue.record("cut at \(exchange) \(mode): \(error)")
                }
                if !cut { break }
                exchange += 1
            }
        }
        #expect(outcomes["old"] ?? 0 > 0 && outcomes["new"] ?? 0 > 0 && outcomes["in progress"] ?? 0 > 0, "\(outcomes)")
    }

    @Test("format: refused on a formatted tag, done on a torn one, forced on any")
    func format() async throws {
        let transport = EmulatedTagTransport(tag: try Self.liteS(message: Self.url))
        await #expect(throws: NDEFTagError.alreadyFormatted) { try await Self.driver(transport).format(force: false) }
        try await Self.driver(transport).format(force: true)
        #expect(
            try await Self.driver(transport).queryStatus()
                == NDEFStatus(availability: .readWrite, capacity: 208, length: 0))
        #expect(try await Self.driver(transport).readMessage() == NDEFMessage(records: []))

        let torn = EmulatedTagTransport(tag: try Self.liteS(message: Self.url))
        await torn.cut(after: 3, mode: .answerLost)  // Polling, attribute, message, WriteFlag on
        await #expect(throws: NDEFTagError.self) { try await Self.driver(torn).writeMessage(Self.long) }
        await torn.bringBack()
        try await Self.driver(torn).format(force: false)
        #expect(try await Self.driver(torn).readMessage() == NDEFMessage(records: []))
    }
}

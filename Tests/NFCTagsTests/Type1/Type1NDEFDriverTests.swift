import NDEF
import NFCChips
import NFCEmulator
import Testing
@testable import NFCTags

/// NDEF on the emulated Topaz and Topaz 512 behind the PN532's firmware: status, read, the
/// NMN write order, lock, format, what lies past the static memory, and a tear at every
/// exchange of a write.
@Suite("Type 1 NDEF: capability container, NMN write order, lock bytes, tears")
struct Type1NDEFDriverTests {
    static let uid: [UInt8] = [0xB2, 0x56, 0x54, 0x00, 0x11, 0x22, 0x33]
    static let url = NDEFMessage(records: [.wellKnown("U", payload: [0x04] + Array("example.com/topaz".utf8))])
    static let long = NDEFMessage(records: [
        .wellKnown("T", payload: [0x02] + Array("en".utf8) + Array(repeating: 0x61, count: 60))
    ])

    static func topaz(_ chip: Type1ChipName = .topaz, message: NDEFMessage? = nil) async throws
        -> EmulatedTagTransport<PN532Type1Tag>
    {
        let transport = EmulatedTagTransport(tag: PN532Type1Tag(tag: Type1Tag(chip: chip, uid: uid)))
        if let message { try await Type1NDEFDriver(transport: transport).writeMessage(message) }
        return transport
    }

    static func attempt<T>(_ body: () async throws(NDEFTagError) -> T) async -> Result<T, NDEFTagError> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    @Test("a formatted Topaz: 90 bytes, empty; the message goes in as a TLV with a Terminator, read back with one RALL")
    func writeRead() async throws {
        let transport = try await Self.topaz()
        let driver = Type1NDEFDriver(transport: transport)
        #expect(try await driver.queryStatus() == NDEFStatus(availability: .readWrite, capacity: 90, length: 0))
        try await driver.writeMessage(Self.url)
        let memory = await transport.tag.tag.memory
        let bytes = try Self.url.encoded()
        #expect(Array(memory[8..<12]) == [0xE1, 0x10, 0x0E, 0x00])
        #expect(Array(memory[12..<(15 + bytes.count)]) == [0x03, UInt8(bytes.count)] + bytes + [0xFE])
        let before = await transport.frames.count
        #expect(try await Type1NDEFDriver(transport: transport).readMessage() == Self.url)
        #expect(await transport.frames.count - before == 1, "one RALL")
    }

    @Test("the same message again writes nothing; a blank tag is not supported until formatted")
    func unchangedAndBlank() async throws {
        let transport = try await Self.topaz(message: Self.url)
        let before = await transport.frames.count
        try await Type1NDEFDriver(transport: transport).writeMessage(Self.url)
        #expect(await transport.frames.count - before == 2, "RALL, then the read-back")
        let blank = EmulatedTagTransport(
            tag: PN532Type1Tag(tag: Type1Tag(chip: .topaz, uid: Self.uid, formatted: false)))
        let driver = Type1NDEFDriver(transport: blank)
        #expect(try await driver.queryStatus().availability == .notSupported)
        try await driver.format(force: false)
        await #expect(throws: NDEFTagError.alreadyFormatted) { try await driver.format(force: false) }
        #expect(try await driver.queryStatus() == NDEFStatus(availability: .readWrite, capacity: 90, length: 0))
        // Forced over a message: empty again, NMN set last.
        try await driver.writeMessage(Self.url)
        try await driver.format(force: true)
        #expect(try await driver.readMessage() == NDEFMessage(records: []))
        #expect(await blank.tag.tag.memory[8] == 0xE1)
    }

    @Test("lock: RWA 0F and LOCK0-1 FF; then read-only, and the tag itself refuses a write")
    func lock() async throws {
        let transport = try await Self.topaz()
        let driver = Type1NDEFDriver(transport: transport)
        try await driver.writeMessage(Self.url)
        try await driver.makeReadOnly(force: false)
        let memory = await transport.tag.tag.memory
        #expect(memory[11] == 0x0F && memory[112] == 0xFF && memory[113] == 0xFF)
        #expect(try await driver.queryStatus().availability == .readOnly)
        await #expect(throws: NDEFTagError.tagNotWritable) { try await driver.writeMessage(Self.long) }
        await #expect(throws: TagCommandError.self) {
            try await Type1Commands(transport: transport).write(address: 0x20, value: 1)
        }
    }

    @Test(
        "a Topaz 512: 80 bytes past its control TLVs; a message a phone wrote past byte 104 is refused with the reason")
    func topaz512() async throws {
        let transport = try await Self.topaz(.topaz512)
        let driver = Type1NDEFDriver(transport: transport)
        #expect(try await driver.queryStatus() == NDEFStatus(availability: .readWrite, capacity: 80, length: 0))
        await #expect(throws: NDEFTagError.tagSizeTooSmall(needed: 83, capacity: 80)) {
            try await driver.writeMessage(
                NDEFMessage(records: [
                    .wellKnown("T", payload: [0x02] + Array("en".utf8) + Array(repeating: 0x61, count: 76))
                ]))
        }
        // NDEF TLV at 22 declaring 200 bytes, as a reader with READ8 would write it.
        let tlv = Type1Commands(transport: transport)
        try await tlv.write(address: 23, value: 200)
        switch await Self.attempt({ () async throws(NDEFTagError) in try await driver.readMessage() }) {
        case .failure(.unsupportedTag(let reason)): #expect(reason.contains("READ8"), "\(reason)")
        case let other: Issue.record("\(other)")
        }
    }

    @Test("a cut at every exchange of a write: the old message, the new one, or 'write in progress' — never another")
    func tearMatrix() async throws {
        let old = Self.url
        let new = Self.long
        var outcomes: [String: Int] = [:]
        for mode in TagCutMode.allCases {
            var exchange = 0
            while true {
                let transport = try await Self.topaz(message: old)
                await transport.cut(after: exchange, mode: mode)
                let completed: Bool
                do {
                    try await Type1NDEFDriver(transport: transport).writeMessage(new)
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
                let driver = Type1NDEFDriver(transport: transport)
                switch await Self.attempt({ () async throws(NDEFTagError) in try await driver.readMessage() }) {
                case .success(let message):
                    #expect(message == old || message == new, "cut at \(exchange) \(mode): another message")
                    #expect(!completed || message == new)
                    outcomes[message == new ? "new" : "old", default: 0] += 1
                case .failure(.invalidCapabilityContainer(_, .writeInProgress)):
                    outcomes["in progress", default: 0] += 1
                    try await driver.writeMessage(new)
                    #expect(try await Type1NDEFDriver(transport: transport).readMessage() == new)
                case .failure(let error):
                    Issue.record("cut at \(exchange) \(mode): \(error)")
                }
                if !cut { break }
                exchange += 1
            }
        }
        #expect(outcomes["old"] ?? 0 > 0 && outcomes["new"] ?? 0 > 0 && outcomes["in progress"] ?? 0 > 0, "\(outcomes)")
    }
}

import Foundation
import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// A FeliCa Lite-S through real libnfc on the reader kind under test: Polling at both bit
/// rates, commands through the reader, Type 3 NDEF, and `nfc-read-forum-tag3` reading what
/// the library wrote.
@Suite("FeliCa on the device", .tags(.reader), .serialized, .timeLimit(.minutes(1)))
struct FeliCaDeviceTests {
    static let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0x2A, 0x31, 0x12, 0x0B, 0x05]
    static let message = NDEFMessage(records: [
        .wellKnown("U", payload: [0x04] + Array("example.com/written-by-nfctagkit".utf8))
    ])

    static var formatted: FeliCaLiteSTag {
        var tag = FeliCaLiteSTag(idm: idm, ndef: true)
        tag.setNDEFMessage([])
        return tag
    }

    func withDevice(
        _ tag: any EmulatedTag = formatted,
        _ body: @escaping @Sendable (NFCDevice, EmulatorFixture) async throws -> Void
    ) async throws {
        let fixture = try EmulatorFixture(tags: [tag])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 40) {
            let device = try await fixture.connectedDevice()
            try await body(device, fixture)
            await device.close()
        }
    }

    @Test("Polling selects the card at 212 and 424 kbit/s with its IDm, PMm and system code")
    func polling() async throws {
        try await withDevice { device, _ in
            for rate in [212, 424] {
                let card = try #require(try await device.selectFeliCa(bitRate: rate))
                #expect(card.idm == Self.idm)
                #expect(card.pmm == ChipTables.felica.liteS.pmm)
                #expect(card.systemCode == ChipTables.felica.systemCodes.liteS)
                #expect(card.bitRate == rate)
                #expect(card.ic == .feliCaLiteS)
                #expect(await device.selectedCard?.uid == card.idm)
            }
            let ndef = try #require(try await device.selectFeliCa(systemCode: ChipTables.felica.systemCodes.ndef))
            #expect(ndef.systemCode == ChipTables.felica.systemCodes.ndef)
            #expect(try await device.selectFeliCa(systemCode: 0x1234) == nil)
            #expect(await device.selectedCard?.feliCa == nil)
            // A type A select finds nothing: the card answers Polling, not REQA.
            #expect(try await device.selectTarget() == nil)
        }
    }

    @Test("Read and Write Without Encryption reach the card through the reader; a bad block is a typed status")
    func readWrite() async throws {
        try await withDevice { device, _ in
            let card = try #require(try await device.selectFeliCa())
            let transport = await DeviceTagTransport(device: device, feliCa: card)
            let felica = FeliCaCommands(transport: transport, idm: card.idm, pmm: card.pmm)
            let data = [UInt8](repeating: 0x5A, count: 16)
            try await felica.writeWithoutEncryption(
                services: [ChipTables.felica.type3.writeService], blocks: [FeliCaBlockElement(block: 5)], data: [data])
            let blocks = try await felica.readWithoutEncryption(
                services: [ChipTables.felica.type3.readService],
                blocks: [FeliCaBlockElement(block: 5), FeliCaBlockElement(block: 0x82)])
            #expect(blocks.first == data)
            #expect(blocks.last.map { Array($0.prefix(8)) } == Self.idm)
            await #expect(throws: TagCommandError.self) {
                _ = try await felica.readWithoutEncryption(
                    services: [ChipTables.felica.type3.readService], blocks: [FeliCaBlockElement(block: 0x40)])
            }
            // A Lite-S has no Request Response: silence, and the card is still there after.
            await #expect(throws: TagCommandError.transport(.timeout)) { _ = try await felica.requestResponse() }
            try await transport.reselect()
        }
    }

    @Test("Type 3 NDEF through the reader: write, read back, status")
    func ndef() async throws {
        try await withDevice { device, _ in
            let card = try #require(try await device.selectFeliCa())
            let transport = await DeviceTagTransport(device: device, feliCa: card)
            let driver = Type3NDEFDriver(transport: transport, idm: card.idm, pmm: card.pmm)
            try await driver.writeMessage(Self.message)
            #expect(try await driver.readMessage() == Self.message)
            let status = try await driver.queryStatus()
            #expect(status.availability == .readWrite && status.capacity == 208)
        }
    }

    @Test("a FeliCa Standard: its systems, services and mode through the reader, and NDEF in its 12FC system")
    func standard() async throws {
        try await withDevice(FeliCaStandardTag(idm: Self.idm)) { device, _ in
            let card = try #require(try await device.selectFeliCa())
            #expect(card.ic == .feliCaStandard && card.systemCode == FeliCaStandardTag.plainSystem)
            let transport = await DeviceTagTransport(device: device, feliCa: card)
            let felica = FeliCaCommands(transport: transport, idm: card.idm, pmm: card.pmm)
            #expect(try await felica.requestSystemCode() == [FeliCaStandardTag.plainSystem, 0x12FC])
            #expect(try await felica.requestResponse() == 0)
            #expect(try await felica.requestService([0x1009, 0x000B]) == [0x0000, 0xFFFF])
            // Nbr 12 and Nbw 8: a message of 10 blocks goes in two writes and one read.
            let long = NDEFMessage(records: [
                .wellKnown("T", payload: [0x02] + Array("en".utf8) + Array(repeating: 0x66, count: 150))
            ])
            let driver = Type3NDEFDriver(transport: transport, idm: card.idm, pmm: card.pmm)
            try await driver.writeMessage(long)
            #expect(try await driver.readMessage() == long)
            #expect(try await driver.queryStatus().capacity == 31 * 16)
        }
    }

    @Test("an NDEF-enabled card with a blank attribute block is 'not formatted' until format writes one")
    func blank() async throws {
        try await withDevice(FeliCaLiteSTag(idm: Self.idm, ndef: true)) { device, _ in
            let card = try #require(try await device.selectFeliCa())
            let transport = await DeviceTagTransport(device: device, feliCa: card)
            let driver = Type3NDEFDriver(transport: transport, idm: card.idm, pmm: card.pmm)
            await #expect(throws: NDEFTagError.invalidCapabilityContainer(offset: 0, reason: .notFormatted(found: 0))) {
                try await driver.writeMessage(Self.message)
            }
            try await driver.format(force: false)
            try await driver.writeMessage(Self.message)
            #expect(try await driver.readMessage() == Self.message)
        }
    }

    @Test(
        "nfc-read-forum-tag3, unmodified, reads the message the library wrote",
        .enabled(if: ReaderUnderTest.current == .pn532, "the tool opens the UART PN532"),
        .enabled(if: LibNFCTool.isInstalled("nfc-read-forum-tag3"), "libnfc-bin is not installed"))
    func outsideReader() async throws {
        try await withDevice { device, fixture in
            let card = try #require(try await device.selectFeliCa())
            let transport = await DeviceTagTransport(device: device, feliCa: card)
            try await Type3NDEFDriver(transport: transport, idm: card.idm, pmm: card.pmm).writeMessage(Self.message)
            await device.close()
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("felica-\(UUID()).ndef")
            defer { try? FileManager.default.removeItem(at: output) }
            let result = try LibNFCTool.run(
                "nfc-read-forum-tag3", ["-o", output.path], device: fixture.connectionString)
            #expect(result.status == 0, "\(result.output)")
            #expect(try [UInt8](Data(contentsOf: output)) == (try Self.message.encoded()), "\(result.output)")
        }
    }
}

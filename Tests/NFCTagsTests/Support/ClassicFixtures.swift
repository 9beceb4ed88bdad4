import NDEF
import NFCChips
import NFCEmulator
import Testing
@testable import NFCTags

/// Test helpers for MIFARE Classic NDEF: factory and formatted cards, drivers, keys.
enum ClassicFixtures {
    static let chips: [Chip] = [.classic1k, .classic4k]
    static let uid: [UInt8] = [0x3E, 0x39, 0xAB, 0x7F]

    /// A key nobody uses, for "wrong key" tests.
    static let wrongKey: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06]
    /// A caller's secret key B.
    static let secretKeyB: [UInt8] = [0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5]

    /// A factory-fresh card.
    static func tag(_ chip: Chip) throws -> ClassicTag {
        try ClassicTag(chip: chip, uid: uid)
    }

    /// A driver over `transport`.
    static func driver(_ chip: Chip, _ transport: ClassicTagTransport, keys: ClassicNDEFKeys = ClassicNDEFKeys()) throws
        -> ClassicNDEFDriver
    {
        try ClassicNDEFDriver(chip: chip, transport: transport, keys: keys)
    }

    /// A card formatted by the driver (empty NDEF).
    static func formattedTag(_ chip: Chip, keys: ClassicNDEFKeys = ClassicNDEFKeys()) async throws -> ClassicTag {
        let transport = ClassicTagTransport(tag: try tag(chip))
        try await driver(chip, transport, keys: keys).format(force: false)
        return await transport.tag
    }

    /// A formatted card holding `message`.
    static func tag(_ chip: Chip, holding message: NDEFMessage, keys: ClassicNDEFKeys = ClassicNDEFKeys()) async throws
        -> ClassicTag
    {
        let transport = ClassicTagTransport(tag: try await formattedTag(chip, keys: keys))
        try await driver(chip, transport, keys: keys).writeMessage(message)
        return await transport.tag
    }

    /// The 16 bytes of a trailer from the table layout.
    static func trailer(keyA: [UInt8], access: [UInt8], gpb: UInt8, keyB: [UInt8]) -> [UInt8] {
        keyA + access + [gpb] + keyB
    }

    static func geometry(_ chip: Chip) throws -> ClassicGeometry {
        try #require(ChipTables.spec(for: chip).classicGeometry)
    }

    /// Reads the card back through a fresh driver.
    static func read(_ tag: ClassicTag, chip: Chip, keys: ClassicNDEFKeys = ClassicNDEFKeys()) async throws
        -> NDEFMessage
    {
        try await driver(chip, ClassicTagTransport(tag: tag), keys: keys).readMessage()
    }
}

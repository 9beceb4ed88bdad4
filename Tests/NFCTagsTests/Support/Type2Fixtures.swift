import NDEF
import NFCChips
import NFCEmulator
import TestSupport
import Testing
@testable import NFCTags

/// Test helpers for Type 2 chips: factory tags, drivers, messages.
enum Type2Fixtures {
    /// The Type 2 chips the emulator models.
    static let chips: [Chip] = [
        .ntag213, .ntag215, .ntag216, .ultralight, .ultralightEV1MF0UL11, .ultralightEV1MF0UL21,
    ]

    static let uid: [UInt8] = [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]

    /// A factory-fresh emulated tag.
    static func tag(_ chip: Chip) throws -> Type2Tag {
        try Type2Tag(chip: chip, uid: uid)
    }

    /// A factory-fresh tag, NDEF-formatted when it ships blank (Ultralight family).
    static func formattedTag(_ chip: Chip) async throws -> Type2Tag {
        var tag = try tag(chip)
        let profile = try #require(Type2TagProfile(spec: ChipTables.spec(for: chip), mapping: .standard))
        if tag.page(profile.capabilityContainerPage).first != Type2Mapping.standard.magic {
            tag.setPage(profile.capabilityContainerPage, to: profile.factoryCapabilityContainer)
            tag.setPage(4, to: ChipTables.type2.emptyNDEF + [0])
        }
        return tag
    }

    /// A driver over `transport` for `chip`.
    static func driver(_ chip: Chip, _ transport: any TagTransport) throws -> any NDEFTagDriver {
        try NDEFTagDrivers.driver(for: chip, transport: transport)
    }

    /// A message of one MIME record whose encoded size is `size` bytes (at least 13; sizes
    /// 269–271 cannot be made with one record and give 272).
    static func message(encodedSize size: Int, fill: UInt8 = 0x41) -> NDEFMessage {
        // "text/plain" record: 3 + 10 header bytes for a short record (payload < 256),
        // 6 + 10 for a long one.
        let type = Array("text/plain".utf8)
        let shortHeader = 3 + type.count
        let payloadSize = size - shortHeader <= 255 ? max(0, size - shortHeader) : max(256, size - shortHeader - 3)
        let payload = (0..<payloadSize).map { UInt8(truncatingIfNeeded: Int(fill) + $0) }
        return NDEFMessage(records: [NDEFRecord(typeNameFormat: .media, type: type, payload: payload)])
    }

    /// A random one-record message of at most `maximumSize` encoded bytes.
    static func randomMessage(maximumSize: Int, using rng: inout SplitMix64) -> NDEFMessage {
        var size = Int.random(in: 13...max(13, maximumSize), using: &rng)
        if (269...271).contains(size) { size = 268 }
        return message(encodedSize: size, fill: UInt8.random(in: 0...255, using: &rng))
    }

    /// An NTAG21x / EV1 `chip` holding a 20-byte message (``message(encodedSize:fill:)``),
    /// with PROT set and AUTH0 at `page`: reads and writes from `page` on need the password.
    static func readProtectedTag(_ chip: Chip, from protectedPage: Int) async throws -> (
        tag: Type2Tag, message: NDEFMessage
    ) {
        var tag = try await formattedTag(chip)
        let message = message(encodedSize: 20)
        let setup = EmulatedTagTransport(tag: tag)
        try await driver(chip, setup).writeMessage(message)
        tag = try #require(await setup.model(as: Type2Tag.self))
        let configuration = try #require(ChipTables.spec(for: chip).memory?.configuration)
        let auth0 = try #require(configuration.field(.auth0))
        let prot = try #require(configuration.field(.prot))
        var page = tag.page(auth0.page)
        page[auth0.byte] = UInt8(protectedPage)
        tag.setPage(auth0.page, to: page)
        page = tag.page(prot.page)
        page[prot.byte] |= prot.mask
        tag.setPage(prot.page, to: page)
        return (tag, message)
    }
}

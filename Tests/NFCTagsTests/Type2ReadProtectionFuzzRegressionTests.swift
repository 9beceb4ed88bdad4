import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTags
import Testing

/// Found by the `type2-tag` fuzz target: with PROT set and AUTH0 after the message, the
/// message read fine but the status query read the whole data area, met the protected
/// pages and failed with authenticationRequired.
@Suite("Type 2 read protection behind the message (fuzz regression)")
struct Type2ReadProtectionFuzzRegressionTests {
    @Test("PROT with AUTH0 after the message: status is read-only with the message's length, and the message reads")
    func protectionAfterMessage() async throws {
        let chip = Chip.ntag216
        var tag = try await Type2Fixtures.formattedTag(chip)
        let message = Type2Fixtures.message(encodedSize: 20)
        let setup = EmulatedTagTransport(tag: tag)
        try await Type2Fixtures.driver(chip, setup).writeMessage(message)
        tag = try #require(await setup.model(as: Type2Tag.self))

        let configuration = try #require(ChipTables.spec(for: chip).memory?.configuration)
        let auth0 = try #require(configuration.field(.auth0))
        let prot = try #require(configuration.field(.prot))
        let protectedPage = 0x10
        var page = tag.page(auth0.page)
        page[auth0.byte] = UInt8(protectedPage)
        tag.setPage(auth0.page, to: page)
        page = tag.page(prot.page)
        page[prot.byte] |= prot.mask
        tag.setPage(prot.page, to: page)

        let driver = try Type2Fixtures.driver(chip, EmulatedTagTransport(tag: tag))
        let status = try await driver.queryStatus()
        #expect(status.availability == .readOnly)
        #expect(status.length == 20)
        #expect(try await driver.readMessage() == message)
    }
}

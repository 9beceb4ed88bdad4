import NDEF
import NFCChips
import NFCEmulator
import Testing
@testable import NFCTags

@Suite("Type 2 NDEF status: CC, lock bits, password, capacity")
struct Type2StatusTests {
    @Test(
        "factory NTAG21x report read-write with nfcpy's capacities",
        arguments: [
            (Chip.ntag213, 137), (.ntag215, 492), (.ntag216, 868),
        ])
    func factoryCapacity(chip: Chip, capacity: Int) async throws {
        let transport = EmulatedTagTransport(tag: try Type2Fixtures.tag(chip))
        let status = try await Type2Fixtures.driver(chip, transport).queryStatus()
        #expect(status == NDEFStatus(availability: .readWrite, capacity: capacity, length: 0))
    }

    @Test(
        "a blank Ultralight (CC all zero) is not supported until formatted",
        arguments: [Chip.ultralight, .ultralightEV1MF0UL11, .ultralightEV1MF0UL21])
    func blankUltralight(chip: Chip) async throws {
        let transport = EmulatedTagTransport(tag: try Type2Fixtures.tag(chip))
        let driver = try Type2Fixtures.driver(chip, transport)
        #expect(try await driver.queryStatus() == NDEFStatus(availability: .notSupported, capacity: 0, length: 0))
        await #expect(throws: NDEFTagError.invalidCapabilityContainer(offset: 12, reason: .notFormatted(found: 0))) {
            _ = try await driver.readMessage()
        }
    }

    @Test("CC write nibble F makes the tag read-only, and a write is refused before anything is sent")
    func readOnlyCC() async throws {
        var tag = try Type2Fixtures.tag(.ntag215)
        tag.setPage(3, to: [0xE1, 0x10, 0x3E, 0x0F])
        let transport = EmulatedTagTransport(tag: tag)
        let driver = try Type2Fixtures.driver(.ntag215, transport)
        #expect(try await driver.queryStatus().availability == .readOnly)
        await #expect(throws: NDEFTagError.tagNotWritable) {
            try await driver.writeMessage(Type2Fixtures.message(encodedSize: 20))
        }
        #expect(await transport.frames(withCode: 0xA2).isEmpty)
    }

    @Test("a static lock bit on a data page makes the tag read-only")
    func staticLock() async throws {
        var tag = try Type2Fixtures.tag(.ntag213)
        var page2 = tag.page(2)
        page2[3] = 0x01  // L8: page 8
        tag.setPage(2, to: page2)
        let transport = EmulatedTagTransport(tag: tag)
        #expect(try await Type2Fixtures.driver(.ntag213, transport).queryStatus().availability == .readOnly)
    }

    @Test(
        "a dynamic lock bit from the chip table's lock page makes the tag read-only",
        arguments: [Chip.ntag215, .ntag216])
    func dynamicLock(chip: Chip) async throws {
        let dynamicLock = try #require(ChipTables.spec(for: chip).memory?.dynamicLock)
        var tag = try Type2Fixtures.tag(chip)
        tag.setPage(dynamicLock.page, to: [0x01, 0, 0, 0])
        let transport = EmulatedTagTransport(tag: tag)
        #expect(try await Type2Fixtures.driver(chip, transport).queryStatus().availability == .readOnly)
    }

    @Test(
        "AUTH0 inside the NDEF area without PROT: read-only; with PROT behind the message: read-only; with PROT over it: authentication required"
    )
    func password() async throws {
        let configuration = try #require(ChipTables.spec(for: .ntag213).memory?.configuration)
        let auth0Page = try #require(configuration.auth0Page)
        let protPage = try #require(configuration.accessPage)
        var tag = try Type2Fixtures.tag(.ntag213)
        var cfg0 = tag.page(auth0Page)
        cfg0[3] = 0x10
        tag.setPage(auth0Page, to: cfg0)
        let transport = EmulatedTagTransport(tag: tag)
        let driver = try Type2Fixtures.driver(.ntag213, transport)
        #expect(try await driver.queryStatus().availability == .readOnly)
        #expect(try await driver.readMessage().records.isEmpty)

        // PROT behind the message: the message still reads; the area is read-only.
        tag.setPage(protPage, to: [0x80, 0, 0, 0])
        let protectedBehind = try Type2Fixtures.driver(.ntag213, EmulatedTagTransport(tag: tag))
        #expect(try await protectedBehind.queryStatus().availability == .readOnly)
        #expect(try await protectedBehind.readMessage().records.isEmpty)

        // PROT from the first data page: nothing of the NDEF area reads without the password.
        cfg0[3] = 0x04
        tag.setPage(auth0Page, to: cfg0)
        let protected = EmulatedTagTransport(tag: tag)
        await #expect(throws: NDEFTagError.authenticationRequired(step: .readData(page: 4))) {
            _ = try await Type2Fixtures.driver(.ntag213, protected).queryStatus()
        }
    }

    @Test("AUTH0 protecting only the configuration pages (with PROT) leaves the NDEF area writable")
    func passwordOnConfiguration() async throws {
        let configuration = try #require(ChipTables.spec(for: .ntag215).memory?.configuration)
        let auth0Page = try #require(configuration.auth0Page)
        let protPage = try #require(configuration.accessPage)
        var tag = try Type2Fixtures.tag(.ntag215)
        var cfg0 = tag.page(auth0Page)
        cfg0[3] = UInt8(auth0Page)
        tag.setPage(auth0Page, to: cfg0)
        tag.setPage(protPage, to: [0x80, 0, 0, 0])
        let transport = EmulatedTagTransport(tag: tag)
        let driver = try Type2Fixtures.driver(.ntag215, transport)
        #expect(try await driver.queryStatus().availability == .readWrite)
        let message = Type2Fixtures.message(encodedSize: 40)
        try await driver.writeMessage(message)
        #expect(try await driver.readMessage() == message)
    }

    @Test("a message larger than the capacity is refused before anything is written")
    func tooLarge() async throws {
        let transport = EmulatedTagTransport(tag: try Type2Fixtures.tag(.ntag213))
        let driver = try Type2Fixtures.driver(.ntag213, transport)
        await #expect(throws: NDEFTagError.tagSizeTooSmall(needed: 138, capacity: 137)) {
            try await driver.writeMessage(Type2Fixtures.message(encodedSize: 138))
        }
        #expect(await transport.frames(withCode: 0xA2).isEmpty)
        try await driver.writeMessage(Type2Fixtures.message(encodedSize: 137))
    }

    @Test("a torn NDEF message is reported with the address of the problem, not dropped")
    func tornMessage() async throws {
        var tag = try Type2Fixtures.tag(.ntag215)
        // NDEF TLV of 8 bytes: a record header announcing 20 payload bytes.
        tag.setPage(4, to: [0x03, 0x08, 0xD1, 0x01])
        tag.setPage(5, to: [0x14, 0x54, 0x02, 0x65])
        tag.setPage(6, to: [0x6E, 0x41, 0xFE, 0x00])
        let transport = EmulatedTagTransport(tag: tag)
        let driver = try Type2Fixtures.driver(.ntag215, transport)
        #expect(try await driver.queryStatus().length == 8)
        await #expect(throws: NDEFTagError.invalidNDEF(offset: 20, reason: .lengthPastEnd(declared: 20, remaining: 4)))
        {
            _ = try await driver.readMessage()
        }
    }

    @Test("a TLV running past the data area is an error at the TLV's address")
    func tlvPastEnd() async throws {
        var tag = try Type2Fixtures.tag(.ntag213)
        tag.setPage(5, to: [0x34, 0x03, 0xF0, 0xFE])
        let transport = EmulatedTagTransport(tag: tag)
        await #expect(throws: NDEFTagError.invalidTLV(offset: 21, reason: .valuePastEnd(declared: 240, available: 137)))
        {
            _ = try await Type2Fixtures.driver(.ntag213, transport).queryStatus()
        }
    }
}

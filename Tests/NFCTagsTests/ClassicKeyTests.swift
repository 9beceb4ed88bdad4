import NDEF
import NFCChips
import NFCEmulator
import Testing
@testable import NFCTags

/// Keys and access conditions: caller keys B, wrong keys, read-only by access bits or GPB,
/// and the refusals that come before anything is written.
@Suite("Classic NDEF keys and access conditions")
struct ClassicKeyTests {
    let secret = ClassicNDEFKeys(madKeyB: ClassicFixtures.secretKeyB, nfcKeyB: ClassicFixtures.secretKeyB)
    let message = Type2Fixtures.message(encodedSize: 80)

    /// `tag` with sector `sector`'s trailer replaced.
    func replacingTrailer(
        _ tag: ClassicTag, sector: Int, keyA: [UInt8] = [0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7],
        access: [UInt8], gpb: UInt8 = 0x40, keyB: [UInt8] = ClassicFixtures.secretKeyB
    ) -> ClassicTag {
        var copy = tag
        copy.setBlock(sector * 4 + 3, to: ClassicFixtures.trailer(keyA: keyA, access: access, gpb: gpb, keyB: keyB))
        return copy
    }

    func access(data: String, trailer: String) throws -> [UInt8] {
        let group = try #require(AccessBits(code: data))
        return AccessConditions(groups: [group, group, group], trailer: try #require(AccessBits(code: trailer)))
            .accessBytes
    }

    @Test("format with caller keys B stores them; locking then needs them, and the default key B is refused")
    func callerKeysB() async throws {
        let tag = try await ClassicFixtures.formattedTag(.classic1k, keys: secret)
        #expect(Array(tag.block(7)[10...15]) == ClassicFixtures.secretKeyB)
        #expect(Array(tag.block(3)[10...15]) == ClassicFixtures.secretKeyB)
        let transport = ClassicTagTransport(tag: tag)
        let plain = try ClassicFixtures.driver(.classic1k, transport)
        try await plain.writeMessage(message)  // data 000: key A writes
        await #expect(throws: NDEFTagError.authenticationRequired(step: .authenticateSector(1))) {
            try await plain.makeReadOnly(force: false)
        }
        #expect(try await plain.queryStatus().availability == .readWrite, "a refused lock changed nothing")
        let keyed = try ClassicFixtures.driver(.classic1k, transport, keys: secret)
        _ = try await keyed.readMessage()
        try await keyed.makeReadOnly(force: false)
        #expect(try await keyed.queryStatus().availability == .readOnly)
        #expect(try await keyed.readMessage() == message)
        await #expect(throws: NDEFTagError.tagNotWritable) {
            try await keyed.writeMessage(Type2Fixtures.message(encodedSize: 20))
        }
        let locked = await transport.tag
        #expect(Array(locked.block(7)[6...9]) == [0x07, 0x8F, 0x0F, 0x43])
        #expect(Array(locked.block(3)[6...9]) == [0x07, 0x8F, 0x0F, 0xC1])
    }

    @Test("an NFC sector no public key opens: authentication required, naming the sector")
    func privateNFCSector() async throws {
        let tag = replacingTrailer(
            try await ClassicFixtures.formattedTag(.classic1k), sector: 3, keyA: ClassicFixtures.wrongKey,
            access: try access(data: "000", trailer: "011"))
        let driver = try ClassicFixtures.driver(.classic1k, ClassicTagTransport(tag: tag))
        await #expect(throws: NDEFTagError.authenticationRequired(step: .authenticateSector(3))) {
            try await driver.queryStatus()
        }
        await #expect(throws: NDEFTagError.authenticationRequired(step: .authenticateSector(3))) {
            try await driver.readMessage()
        }
    }

    @Test("a sector 0 no public key opens: not supported; reading asks for authentication")
    func privateMADSector() async throws {
        var tag = try await ClassicFixtures.formattedTag(.classic1k)
        tag.setBlock(
            3,
            to: ClassicFixtures.trailer(
                keyA: ClassicFixtures.wrongKey, access: [0x78, 0x77, 0x88], gpb: 0xC1, keyB: ClassicFixtures.wrongKey))
        let driver = try ClassicFixtures.driver(.classic1k, ClassicTagTransport(tag: tag))
        #expect(try await driver.queryStatus().availability == .notSupported)
        await #expect(throws: NDEFTagError.authenticationRequired(step: .authenticateSector(0))) {
            try await driver.readMessage()
        }
    }

    @Test("data writable by key B only: read-only without the key (nothing written), read-write with it")
    func keyBOnlyWrites() async throws {
        let tag = replacingTrailer(
            try await ClassicFixtures.formattedTag(.classic1k), sector: 2,
            access: try access(data: "100", trailer: "011"))
        let transport = ClassicTagTransport(tag: tag)
        let plain = try ClassicFixtures.driver(.classic1k, transport)
        #expect(try await plain.queryStatus().availability == .readOnly)
        await #expect(throws: NDEFTagError.authenticationRequired(step: .authenticateSector(2))) {
            try await plain.writeMessage(message)
        }
        #expect(await transport.log.allSatisfy { !$0.hasPrefix("A0") }, "nothing written")
        let keyed = try ClassicFixtures.driver(
            .classic1k, transport, keys: ClassicNDEFKeys(nfcKeyB: ClassicFixtures.secretKeyB))
        #expect(try await keyed.queryStatus().availability == .readWrite)
        let long = Type2Fixtures.message(encodedSize: 200)  // reaches sector 2
        try await keyed.writeMessage(long)
        #expect(try await ClassicFixtures.read(await transport.tag, chip: .classic1k) == long)
        #expect(await transport.log.contains("AUTH B 0B B0B1B2B3B4B5 ok"))
    }

    @Test(
        "read-only by the GPB write bits or by the access bits: status read-only, write refused before anything is sent",
        arguments: [("000", UInt8(0x43)), ("010", 0x40), ("101", 0x40)])
    func readOnlySector(data: String, gpb: UInt8) async throws {
        let tag = replacingTrailer(
            try await ClassicFixtures.tag(.classic1k, holding: message), sector: 4,
            access: try access(data: data, trailer: "011"), gpb: gpb)
        let transport = ClassicTagTransport(tag: tag)
        let driver = try ClassicFixtures.driver(.classic1k, transport)
        if data == "101" {
            // Reading needs key B: without it the sector cannot be read at all.
            await #expect(throws: NDEFTagError.authenticationRequired(step: .readData(page: 16))) {
                try await driver.queryStatus()
            }
            return
        }
        #expect(try await driver.queryStatus().availability == .readOnly)
        #expect(try await driver.readMessage() == message)
        await #expect(throws: NDEFTagError.tagNotWritable) {
            try await driver.writeMessage(Type2Fixtures.message(encodedSize: 30))
        }
        await #expect(throws: NDEFTagError.tagSizeTooSmall(needed: 800, capacity: 716)) {
            try await driver.writeMessage(Type2Fixtures.message(encodedSize: 800))
        }
        #expect(await transport.log.allSatisfy { !$0.hasPrefix("A0") })
    }

    @Test("a wrong caller key B is never tried when key A has every right")
    func unusedWrongKeyB() async throws {
        let transport = ClassicTagTransport(tag: try await ClassicFixtures.formattedTag(.classic1k))
        let driver = try ClassicFixtures.driver(
            .classic1k, transport, keys: ClassicNDEFKeys(nfcKeyB: ClassicFixtures.wrongKey))
        try await driver.writeMessage(message)
        #expect(try await driver.readMessage() == message)
        #expect(await transport.log.allSatisfy { !$0.hasPrefix("AUTH B") })
    }

    @Test("format refuses a card with NDEF unless forced; lock refuses an unverified message unless forced")
    func refusals() async throws {
        let transport = ClassicTagTransport(tag: try await ClassicFixtures.tag(.classic1k, holding: message))
        let driver = try ClassicFixtures.driver(.classic1k, transport)
        await #expect(throws: NDEFTagError.alreadyFormatted) { try await driver.format(force: false) }
        await #expect(throws: NDEFTagError.notVerified) { try await driver.makeReadOnly(force: false) }
        try await driver.format(force: true)
        #expect(try await driver.readMessage() == NDEFMessage(records: []))
        #expect(throws: NDEFTagError.unsupportedTag(reason: "a MIFARE Classic key is 6 bytes, got 2")) {
            try ClassicNDEFDriver(chip: .classic1k, transport: transport, keys: ClassicNDEFKeys(nfcKeyB: [1, 2]))
        }
        #expect(throws: NDEFTagError.unsupportedTag(reason: "NTAG213 is not a MIFARE Classic")) {
            try ClassicNDEFDriver(chip: .ntag213, transport: transport)
        }
    }

    @Test("a torn message is an error at its tag address: offsets skip the trailer (stream byte 48 is block 8)")
    func tornMessageOffsets() async throws {
        var tag = try await ClassicFixtures.tag(.classic1k, holding: Type2Fixtures.message(encodedSize: 100))
        // The record's payload length says 87; cut the stream: NDEF TLV declares 100 bytes
        // but a second record header sits at stream byte 50 (block 8, byte 2).
        var block4 = tag.block(4)
        block4[3] = 0x91  // MB, SR, TNF 1 but not ME: the decoder expects another record
        tag.setBlock(4, to: block4)
        let driver = try ClassicFixtures.driver(.classic1k, ClassicTagTransport(tag: tag))
        do {
            _ = try await driver.readMessage()
            Issue.record("a corrupt message was read")
        } catch {
            guard case .invalidNDEF(let offset, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(
                offset >= 64 && offset < 16 * 16 && offset % 64 < 48, "offset \(offset) is a data byte of an NFC sector"
            )
        }
        var long = tag
        var header = long.block(4)
        header[1] = 0xFF
        header[2] = 0x03
        header[3] = 0x00  // 768 > 716 available
        long.setBlock(4, to: header)
        await #expect(throws: NDEFTagError.invalidTLV(offset: 64, reason: .valuePastEnd(declared: 768, available: 716)))
        {
            try await ClassicFixtures.driver(.classic1k, ClassicTagTransport(tag: long)).readMessage()
        }
    }
}

import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// Runs `body` with a TagSession on the first tag of a fresh emulated PN532 (through real
/// libnfc), reconnection off so that an unplugged reader fails at once.
func withTagSession(
    _ tags: [any EmulatedTag],
    seconds: Double = 40,
    _ body: @escaping @Sendable (TagSession, EmulatorFixture) async throws -> Void
) async throws {
    let fixture = try EmulatorFixture(tags: tags)
    defer { fixture.stop() }
    try await withTimeLimit(seconds: seconds) {
        let device = NFCDevice()
        _ = try await device.connect(
            to: fixture.reader, configuration: fixture.configuration(reconnect: false, liveness: nil))
        let session = try await TagSession.connect(on: device, timeout: .seconds(5))
        try await body(session, fixture)
        await device.close()
    }
}

/// Expects `body` to throw a TagSessionError and returns it.
func sessionError(_ body: () async throws(TagSessionError) -> Void) async -> TagSessionError? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}

/// Connection, identification, raw commands and losses, through libnfc to the emulator.
@Suite("TagSession connection and raw commands", .tags(.reader), .serialized, .timeLimit(.minutes(2)))
struct TagSessionTests {
    static let uid: [UInt8] = [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]

    @Test(
        "each Type 2 model is identified as exactly its chip (an NTAG215 is never an Ultralight)",
        arguments: [
            Chip.ntag213, .ntag215, .ntag216, .ultralight, .ultralightEV1MF0UL11, .ultralightEV1MF0UL21, .ultralightC,
        ])
    func identifiesType2(chip: Chip) async throws {
        try await withTagSession([try Type2Tag(chip: chip, uid: Self.uid)]) { session, _ in
            #expect(session.chip == chip, "\(session.identification)")
            #expect(session.uid == Self.uid)
        }
    }

    @Test("a MIFARE Classic 1K is identified from ATQA / SAK")
    func identifiesClassic() async throws {
        try await withTagSession([try ClassicTag(chip: .classic1k, uid: [0x3E, 0xE0, 0x5A, 0x11])]) { session, _ in
            #expect(session.chip == .classic1k, "\(session.identification)")
            #expect(session.defaultFraming == .standard)
        }
    }

    @Test("an unknown chip is reported with its raw answers; raw commands still work, no family handle is handed out")
    func unknownChip() async throws {
        var odd = PageTag(uid: Self.uid)
        odd.identity = TagIdentity(uid: Self.uid, atqa: 0x0F0F, sak: 0x42)
        try await withTagSession([odd]) { session, _ in
            #expect(session.chip == nil)
            #expect(session.identification.description.hasPrefix("unknown chip"), "\(session.identification)")
            let answer = try await session.send([0x30, 0x01])
            #expect(answer.bytes.count == 16)
            guard case .unknown = session.tag else {
                Issue.record("expected no family, got \(session.tag)")
                return
            }
            let error = await sessionError { () throws(TagSessionError) in _ = try session.type2Tag() }
            guard case .unknownChip(let report)? = error else {
                Issue.record("expected unknownChip, got \(String(describing: error))")
                return
            }
            #expect(report.target.sak == 0x42)
        }
    }

    @Test("two tags in the field: severalTags with both UIDs, nothing sent to either")
    func severalTags() async throws {
        let fixture = try EmulatorFixture(tags: [
            try Type2Tag(chip: .ntag215, uid: TestUID.first),
            try Type2Tag(chip: .ntag213, uid: TestUID.second),
        ])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = NFCDevice()
            _ = try await device.connect(
                to: fixture.reader, configuration: fixture.configuration(reconnect: false, liveness: nil))
            let error = await sessionError { () throws(TagSessionError) in
                _ = try await TagSession.connect(on: device, timeout: .seconds(5))
            }
            guard case .severalTags(let uids)? = error else {
                Issue.record("expected severalTags, got \(String(describing: error))")
                return
            }
            #expect(Set(uids) == [TestUID.first, TestUID.second])
            await device.close()
        }
    }

    /// A provisioning station finds the tag with ``NFCDevice/pollField()``: the connect then
    /// identifies it where the poll left it (GET_VERSION only), and that poll is its alone
    /// check. A tag that left since is waited for as usual.
    @Test(
        "after pollField: connect sends GET_VERSION alone (no select, no second poll); a tag that left and came back is found again"
    )
    func connectAfterPollField() async throws {
        let fixture = try EmulatorFixture(tags: [try Type2Tag(chip: .ntag215, uid: TestUID.first)])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = NFCDevice()
            _ = try await device.connect(
                to: fixture.reader, configuration: fixture.configuration(reconnect: false, liveness: nil))
            guard case .alone = try await device.pollField() else {
                Issue.record("the tag was not found alone")
                return
            }
            let before = fixture.emulator.statistics
            let session = try await TagSession.connect(on: device, timeout: .seconds(5))
            #expect(session.chip == .ntag215)
            let after = fixture.emulator.statistics
            #expect(after.commandsByCode[0x60, default: 0] == before.commandsByCode[0x60, default: 0], "no second poll")
            if ReaderUnderTest.current.model.countsTagsInOnePoll {
                #expect(after.commandsByCode[0x4A, default: 0] == before.commandsByCode[0x4A, default: 0], "no select")
                #expect(
                    after.commands - before.commands == 3,
                    "the CRC bits off (ReadRegister, WriteRegister) and GET_VERSION")
            }

            // Taken away and presented again after the poll: IDLE, it does not answer where it
            // was; the connect falls back to waiting, selecting and checking it.
            _ = try await device.pollField()
            let handle = try #require(fixture.emulator.withField { $0.handles.first })
            let tag = try #require(fixture.emulator.remove(handle))
            fixture.emulator.insert(tag)
            let again = try await TagSession.connect(on: device, timeout: .seconds(5))
            #expect(again.chip == .ntag215)
            #expect(again.uid == TestUID.first)
            await device.close()
        }
    }

    @Test("no tag within the time limit: noTag")
    func noTag() async throws {
        let fixture = try EmulatorFixture(tags: [])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            let device = NFCDevice()
            _ = try await device.connect(
                to: fixture.reader, configuration: fixture.configuration(reconnect: false, liveness: nil))
            let error = await sessionError { () throws(TagSessionError) in
                _ = try await TagSession.connect(on: device, timeout: .milliseconds(500))
            }
            #expect(error == .noTag)
            await device.close()
        }
    }

    @Test("send: data and ACK come back; a NAK is thrown with its code and the session stays usable")
    func rawSend() async throws {
        let spec = ChipTables.spec(for: .ntag215)
        let read = try #require(spec.command(.read)?.code)
        let write = try #require(spec.command(.write)?.code)
        try await withTagSession([try Type2Tag(chip: .ntag215, uid: Self.uid)]) { session, _ in
            let ntag = try session.type2Tag()
            #expect(try await session.send([read, 0x00]).bytes.prefix(3) == Self.uid.prefix(3))
            #expect(try await session.send([write, 0x04, 1, 2, 3, 4]) == .ack)
            let error = await sessionError { () throws(TagSessionError) in _ = try await session.send([read, 0xFF]) }
            let code = try #require(error?.nakCode, "\(String(describing: error))")
            #expect(NAKCode(rawValue: code) != nil)
            #expect(error?.description.contains("NAK \(code)") == true)
            #expect(try await ntag.read(page: 4).prefix(4) == [1, 2, 3, 4])
        }
    }

    @Test("a tag taken away is tagLost, an unplugged reader readerLost — both named with the step")
    func losses() async throws {
        try await withTagSession([try Type2Tag(chip: .ntag215, uid: Self.uid)]) { session, fixture in
            let ntag = try session.type2Tag()
            if let handle = fixture.emulator.withField({ $0.handles.first }) { fixture.emulator.remove(handle) }
            let lost = await sessionError { () throws(TagSessionError) in _ = try await ntag.read(page: 4) }
            #expect(lost == .tagLost(operation: .read))
            fixture.emulator.unplug()
            let gone = await sessionError { () throws(TagSessionError) in _ = try await ntag.getVersion() }
            guard case .readerLost(let operation, _)? = gone else {
                Issue.record("expected readerLost, got \(String(describing: gone))")
                return
            }
            #expect(operation == .getVersion)
        }
    }

    @Test("each family is its own handle: an NTAG215 is a Type 2 tag, and asking for a Classic handle names the chip")
    func wrongFamily() async throws {
        try await withTagSession([try Type2Tag(chip: .ntag215, uid: Self.uid)]) { session, _ in
            guard case .type2(let ntag) = session.tag else {
                Issue.record("expected a Type 2 handle, got \(session.tag)")
                return
            }
            #expect(ntag.uid == Self.uid)
            #expect(ntag.memory == ChipTables.spec(for: .ntag215).memory)
            let error = await sessionError { () throws(TagSessionError) in _ = try session.miFareClassicTag() }
            guard case .notSupported(_, let chip, let detail)? = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(chip == .ntag215)
            #expect(detail.contains("MIFARE Classic"), "\(detail)")
        }
        // A Classic 1K and a Type 4 tag get their own handles; an Ultralight C is a Type 2 tag.
        try await withTagSession([try ClassicTag(chip: .classic1k, uid: [0x3E, 0xE0, 0x5A, 0x11])]) { session, _ in
            guard case .miFareClassic(let classic) = session.tag else {
                Issue.record("got \(session.tag)")
                return
            }
            #expect(classic.geometry == ChipTables.spec(for: .classic1k).classicGeometry)
        }
        try await withTagSession([try Type2Tag(chip: .ultralightC, uid: Self.uid)]) { session, _ in
            guard case .type2(let ulc) = session.tag, ulc.chip == .ultralightC else {
                Issue.record("got \(session.tag)")
                return
            }
            #expect(ulc.memory.lastReadablePage < ulc.memory.lastPage)
        }
        try await withTagSession([try Type4Tag(uid: Self.uid)]) { session, _ in
            guard case .isoDEP(let tag) = session.tag else {
                Issue.record("got \(session.tag)")
                return
            }
            #expect(!tag.ats.isEmpty)
            // SELECT of the NDEF Tag Application, in ISO-DEP blocks: 90 00.
            let application = try #require(ChipTables.type4.application(version: "2.0"))
            let answer = try await tag.session.send(
                [0x00, 0xA4, 0x04, 0x00, UInt8(application.aid.count)] + application.aid + [0x00])
            #expect(answer.bytes.suffix(2) == [0x90, 0x00], "\(answer)")
        }
    }
}

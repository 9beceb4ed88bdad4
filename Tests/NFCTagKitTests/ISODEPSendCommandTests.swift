import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// `NFCISODEPTag.sendCommand(_:)` through libnfc and the emulated PN532 to the emulated
/// Type 4 tag: GET RESPONSE, Le retries, extended lengths, and ISO-DEP chaining both ways
/// (the PN532 splits a command to the tag's FSC 64, the tag chains an answer past FSD 256).
@Suite(
    "NFCISODEPTag.sendCommand through libnfc and the emulated PN532", .tags(.reader), .serialized,
    .timeLimit(.minutes(2)))
struct ISODEPSendCommandTests {
    static let uid: [UInt8] = [0x04, 0x62, 0x19, 0xA3, 0x5B, 0x70, 0x81]
    static let selectApplication: [UInt8] = [
        0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00,
    ]
    static let selectNDEFFile: [UInt8] = [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04]

    static func tag() throws -> Type4Tag {
        var tag = try Type4Tag(uid: uid)
        tag.setNDEFMessage((0..<700).map { UInt8($0 & 0xFF) })
        return tag
    }

    /// The longest tag answer the reader under test brings back (`datasheets/readers.json`).
    static let answerLimit = ReaderUnderTest.current.model.maximumTagAnswer

    static func answerFits(_ length: Int) -> Bool { length <= answerLimit }

    static func ndefFile(_ fixture: EmulatorFixture) -> [UInt8] {
        fixture.emulator.withField { field in field.handles.first.flatMap { (field.tag($0) as? Type4Tag)?.ndefFile } }
            ?? []
    }

    /// SELECTs the NDEF application and file; returns the handle.
    static func selected(_ session: TagSession) async throws -> NFCISODEPTag {
        let tag = try session.isoDEPTag()
        #expect(try await tag.sendCommand(APDU(bytes: selectApplication)).isSuccess)
        #expect(try await tag.sendCommand(APDU(bytes: selectNDEFFile)).isSuccess)
        return tag
    }

    @Test("READ BINARY with Le 00: the tag's 255 + 61 01 and GET RESPONSE come back as 256 bytes and 9000")
    func getResponse() async throws {
        try await withTagSession([try Self.tag()]) { session, fixture in
            let tag = try await Self.selected(session)
            let readAll = try APDU(bytes: [0x00, 0xB0, 0x00, 0x00, 0x00])
            guard Self.answerFits(258) else {
                // An ACR122U brings back 250 bytes: the 257-byte answer is lost, and the error says what to ask instead.
                let error = await sessionError { () throws(TagSessionError) in _ = try await tag.sendCommand(readAll) }
                #expect(
                    "\(String(describing: error))".contains("ask for at most \(Self.answerLimit - 2)"),
                    "\(String(describing: error))")
                let part = try await tag.sendCommand(
                    APDU(bytes: [0x00, 0xB0, 0x00, 0x00, UInt8(Self.answerLimit - 2)]))
                #expect(part.isSuccess && part.data == Array(Self.ndefFile(fixture).prefix(Self.answerLimit - 2)))
                return
            }
            let answer = try await tag.sendCommand(readAll)
            #expect(answer.isSuccess && answer.statusWord == ChipTables.iso7816.statusWords[.normalProcessing].code)
            #expect(answer.data == Array(Self.ndefFile(fixture).prefix(256)))
        }
    }

    @Test("an extended READ BINARY of 600 bytes arrives whole (three R-APDUs, each chained over two ISO-DEP blocks)")
    func extendedRead() async throws {
        try await withTagSession([try Self.tag()]) { session, fixture in
            let tag = try await Self.selected(session)
            let apdu = try APDU(cla: 0x00, ins: 0xB0, p1: 0x00, p2: 0x10, expectedResponseLength: 600)
            #expect(apdu.isoCase == .case2Extended)
            guard Self.answerFits(258) else {
                // The tag's first R-APDU (256 bytes and 61xx) is longer than an ACR122U carries.
                let error = await sessionError { () throws(TagSessionError) in _ = try await tag.sendCommand(apdu) }
                #expect("\(String(describing: error))".contains("ask for at most"), "\(String(describing: error))")
                return
            }
            let answer = try await tag.sendCommand(apdu)
            #expect(answer.isSuccess)
            #expect(answer.data == Array(Self.ndefFile(fixture)[0x10..<(0x10 + 600)]))
        }
    }

    @Test("6Cxx: a Le past the end of the file is retried with the Le the tag names")
    func wrongLe() async throws {
        try await withTagSession([try Self.tag()]) { session, fixture in
            let tag = try await Self.selected(session)
            let file = Self.ndefFile(fixture)
            let offset = file.count - 10
            let answer = try await tag.sendCommand(
                APDU(
                    cla: 0x00, ins: 0xB0, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF),
                    expectedResponseLength: 20))
            #expect(answer.isSuccess && answer.data == Array(file.suffix(10)))
        }
    }

    @Test("UPDATE BINARY of 200 bytes, short and extended: the PN532 chains it to the tag in blocks of its FSC")
    func chainedCommand() async throws {
        try await withTagSession([try Self.tag()]) { session, fixture in
            let tag = try await Self.selected(session)
            let data = (0..<200).map { UInt8(0xFF - $0 % 0x100) }
            #expect(try await tag.sendCommand(APDU(cla: 0x00, ins: 0xD6, p1: 0x00, p2: 0x20, data: data)).isSuccess)
            #expect(Array(Self.ndefFile(fixture)[0x20..<(0x20 + 200)]) == data)
            let extended = try APDU(
                cla: 0x00, ins: 0xD6, p1: 0x01, p2: 0x00, data: data.reversed(), extendedLength: true)
            #expect(extended.isoCase == .case3Extended)
            #expect(try await tag.sendCommand(extended).isSuccess)
            #expect(Array(Self.ndefFile(fixture)[0x100..<(0x100 + 200)]) == data.reversed())
        }
    }

    @Test("an error status word is an answer (6D00, not success); an APDU longer than one exchange is refused")
    func errorsAndLimits() async throws {
        try await withTagSession([try Self.tag()]) { session, _ in
            let tag = try session.isoDEPTag()
            let unknown = try await tag.sendCommand(
                APDU(cla: 0x00, ins: 0xCA, p1: 0x00, p2: 0x00, expectedResponseLength: 256))
            #expect(!unknown.isSuccess && unknown.status?.name == .insNotSupported && unknown.data.isEmpty)
            let long = try APDU(cla: 0x00, ins: 0xD6, p1: 0, p2: 0, data: [UInt8](repeating: 0, count: 300))
            let error = await sessionError { () throws(TagSessionError) in _ = try await tag.sendCommand(long) }
            guard case .command(.sendAPDU, .invalidArgument)? = error else {
                Issue.record("expected invalidArgument during sendAPDU, got \(String(describing: error))")
                return
            }
            #expect(try await tag.sendCommand(APDU(bytes: Self.selectApplication)).isSuccess, "the session still works")
        }
    }

    @Test("an NTAG is no ISO-DEP tag: isoDEPTag() says so")
    func notISODEP() async throws {
        try await withTagSession([try Type2Tag(chip: .ntag215, uid: Self.uid)]) { session, _ in
            let error = await sessionError { () throws(TagSessionError) in _ = try session.isoDEPTag() }
            guard case .notSupported(_, .ntag215, _)? = error else {
                Issue.record("expected notSupported, got \(String(describing: error))")
                return
            }
        }
    }
}

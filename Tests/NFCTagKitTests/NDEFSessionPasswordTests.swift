import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// PWD_AUTH before operations: the configured password opens a write-protected NDEF area,
/// the PACK is checked, a wrong password is refused.
@Suite("NDEFSession password", .tags(.reader), .serialized, .timeLimit(.minutes(2)))
struct NDEFSessionPasswordTests {
    static let password: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    static let pack: [UInt8] = [0xAB, 0xCD]

    /// An NTAG215 whose pages from the first user page on need the password for writes
    /// (and for reads with `readProtected`).
    static func protectedTag(readProtected: Bool = false) throws -> Type2Tag {
        var tag = try Type2Tag(chip: .ntag215, uid: SessionUID.first)
        let memory = try #require(ChipTables.spec(for: .ntag215).memory)
        let configuration = try #require(memory.configuration)
        let passwordSpec = try #require(configuration.password)
        tag.setPage(passwordSpec.pwdPage, to: password)
        var packPage = tag.page(passwordSpec.packPage)
        packPage.replaceSubrange(0..<2, with: pack)
        tag.setPage(passwordSpec.packPage, to: packPage)
        let auth0 = try #require(configuration.field(.auth0))
        tag.setPage(auth0.page, to: auth0.setting(UInt8(memory.firstUserPage), in: tag.page(auth0.page)))
        if readProtected {
            let prot = try #require(configuration.field(.prot))
            tag.setPage(prot.page, to: prot.setting(1, in: tag.page(prot.page)))
        }
        return tag
    }

    func withSession(
        _ configuration: NDEFSessionConfiguration, readProtected: Bool = false,
        _ body: @escaping @Sendable (SessionHarness) async throws -> Void
    ) async throws {
        var configuration = configuration
        configuration.pollInterval = SessionHarness.quick.pollInterval
        configuration.restartDelay = SessionHarness.quick.restartDelay
        let harness = try await SessionHarness.start(
            tags: [try Self.protectedTag(readProtected: readProtected)], configuration: configuration)
        defer { harness.fixture.stop() }
        try await withTimeLimit(seconds: 30) {
            try await body(harness)
            await harness.stop()
        }
    }

    @Test("without the password the protected tag is read-only and a write is tagNotWritable")
    func withoutPassword() async throws {
        try await withSession(NDEFSessionConfiguration()) { harness in
            let tag = try await harness.connectToOnlyTag()
            #expect(try await tag.queryNDEFStatus().availability == .readOnly)
            let before = harness.memory()
            await #expect(throws: NDEFSessionError.tagNotWritable) { try await tag.writeNDEF(SessionMessages.old) }
            #expect(harness.memory() == before)
        }
    }

    @Test("a read-protected tag: without the password reads need authentication, with it they succeed")
    func readProtected() async throws {
        try await withSession(NDEFSessionConfiguration(), readProtected: true) { harness in
            let tag = try await harness.connectToOnlyTag()
            do throws(NDEFSessionError) {
                _ = try await tag.readNDEF()
                Issue.record("a read-protected tag was read without the password")
            } catch {
                guard case .authenticationRequired = error else {
                    Issue.record("\(error)")
                    return
                }
            }
        }
        try await withSession(
            NDEFSessionConfiguration(password: TagPassword(bytes: Self.password), expectedPACK: PACK(bytes: Self.pack)),
            readProtected: true
        ) { harness in
            let tag = try await harness.connectToOnlyTag()
            #expect(try await tag.readNDEF() == SessionMessages.empty)
            let configuration = try await #require(tag as? NFCType2Tag).readConfiguration()
            #expect(configuration.auth0 == ChipTables.spec(for: .ntag215).memory?.firstUserPage)
            #expect(configuration.isReadProtected == true)
        }
    }

    @Test("with the password and PACK a write-protected tag is written")
    func writeWithPassword() async throws {
        try await withSession(
            NDEFSessionConfiguration(password: TagPassword(bytes: Self.password), expectedPACK: PACK(bytes: Self.pack))
        ) { harness in
            let tag = try await harness.connectToOnlyTag()
            #expect(try await tag.queryNDEFStatus().availability == .readWrite)
            try await tag.writeNDEF(SessionMessages.new)
            #expect(try await tag.readNDEF() == SessionMessages.new)
        }
    }

    @Test("another PACK than expected fails the connect with packMismatch")
    func packMismatch() async throws {
        try await withSession(
            NDEFSessionConfiguration(
                password: TagPassword(bytes: Self.password), expectedPACK: PACK(bytes: [0x00, 0x01]))
        ) { harness in
            let (_, tags) = try await harness.log.detected(count: 1)
            await #expect(throws: NDEFSessionError.packMismatch(expected: [0x00, 0x01], received: Self.pack)) {
                _ = try await harness.session.connect(to: try #require(tags.first))
            }
            #expect(await harness.session.state == .polling)
        }
    }

    @Test("a wrong password fails the connect with authenticationFailed")
    func wrongPassword() async throws {
        try await withSession(NDEFSessionConfiguration(password: TagPassword(bytes: [9, 9, 9, 9]))) { harness in
            let (_, tags) = try await harness.log.detected(count: 1)
            let detected = try #require(tags.first)
            do throws(NDEFSessionError) {
                _ = try await harness.session.connect(to: detected)
                Issue.record("a wrong password connected")
            } catch {
                guard case .authenticationFailed = error else {
                    Issue.record("\(error)")
                    return
                }
            }
        }
    }
}

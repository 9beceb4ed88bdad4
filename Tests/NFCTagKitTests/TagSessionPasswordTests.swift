import Foundation
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// Password protection, removal, AUTHLIM lock-out and the Ultralight C key, through
/// libnfc to the emulated tags.
@Suite("TagSession passwords and keys", .tags(.reader), .serialized, .timeLimit(.minutes(2)))
struct TagSessionPasswordTests {
    static let uid: [UInt8] = [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]
    static let password = TagPassword(uncheckedBytes: [0x12, 0x34, 0x56, 0x78])
    static let pack = PACK(uncheckedBytes: [0xAB, 0xCD])
    static let memory = ChipTables.spec(for: .ntag215).memory!

    @Test("protect (reads too): the dry run writes nothing; then reads fail without the password and work with it")
    func protectThenRead() async throws {
        try await withTagSession([try Type2Tag(chip: .ntag215, uid: Self.uid)]) { session, fixture in
            let ntag = try session.type2Tag()
            let first = Self.memory.firstUserPage
            let plan = try await ntag.planProtection(
                password: Self.password, pack: Self.pack, from: first, readProtected: true)
            #expect(plan.irreversibleChanges.isEmpty)
            #expect(plan.finalState.requirements == [.password(Self.password.bytes)])
            #expect(try await ntag.readConfiguration().isProtectionActive == false, "the dry run changed the tag")

            let state = try await ntag.protect(
                password: Self.password, pack: Self.pack, from: first, readProtected: true)
            #expect(state.requirements == [.password(Self.password.bytes)])
            let tag = try #require(fixture.emulator.tags.first as? Type2Tag)
            #expect(tag.page(try #require(Self.memory.configuration?.password?.pwdPage)) == Self.password.bytes)

            try await session.reselect()
            let refused = await sessionError { () throws(TagSessionError) in _ = try await ntag.read(page: first) }
            #expect(refused?.nakCode != nil, "\(String(describing: refused))")
            #expect(try await ntag.authenticate(password: Self.password, expectedPACK: Self.pack) == Self.pack)
            #expect(try await ntag.read(page: first).count == 16)
        }
    }

    @Test("unprotect: AUTH0 back to its default, pages readable and writable without a password")
    func unprotect() async throws {
        try await withTagSession([try Type2Tag(chip: .ntag215, uid: Self.uid)]) { session, _ in
            let ntag = try session.type2Tag()
            let first = Self.memory.firstUserPage
            try await ntag.protect(password: Self.password, pack: Self.pack, from: first, readProtected: false)
            try await session.reselect()
            let refused = await sessionError { () throws(TagSessionError) in
                try await ntag.write(page: first, bytes: [1, 2, 3, 4])
            }
            #expect(refused?.nakCode != nil, "\(String(describing: refused))")

            let wrong = await sessionError { () throws(TagSessionError) in
                _ = try await ntag.removePassword(current: TagPassword(bytes: [0, 0, 0, 1])!)
            }
            guard case .command(.removePassword, .authenticationFailed)? = wrong else {
                Issue.record("got \(String(describing: wrong))")
                return
            }

            let state = try await ntag.removePassword(current: Self.password, expectedPACK: Self.pack)
            #expect(state.requirements == [.noPassword])
            try await session.reselect()
            try await ntag.write(page: first, bytes: [1, 2, 3, 4])
            let defaults = try Type2Configuration.factoryDefault(for: .ntag215)
            #expect(try await ntag.readConfiguration().auth0 == defaults.auth0)
        }
    }

    @Test("AUTHLIM needs consent; then wrong passwords count down and lock out even the right one")
    func authenticationLimitLockOut() async throws {
        try await withTagSession([try Type2Tag(chip: .ntag215, uid: Self.uid)]) { session, _ in
            let ntag = try session.type2Tag()
            let first = Self.memory.firstUserPage
            let refused = await sessionError { () throws(TagSessionError) in
                _ = try await ntag.protect(
                    password: Self.password, pack: Self.pack, from: first, readProtected: false, authLimit: 2)
            }
            guard case .command(.protect, .irreversibleNotConsented(let changes))? = refused else {
                Issue.record("got \(String(describing: refused))")
                return
            }
            #expect(changes == [.authenticationLimit(2)])
            #expect(try await ntag.readConfiguration().isProtectionActive == false)

            try await ntag.protect(
                password: Self.password, pack: Self.pack, from: first, readProtected: false,
                authLimit: 2, consent: [.authenticationLimit])
            var remaining: [RemainingAttempts] = []
            for _ in 0..<3 {
                let error = await sessionError { () throws(TagSessionError) in
                    _ = try await ntag.authenticate(password: TagPassword(bytes: [9, 9, 9, 9])!)
                }
                guard case .command(.authenticate, .authenticationFailed(let left))? = error else {
                    Issue.record("got \(String(describing: error))")
                    return
                }
                remaining.append(left)
            }
            #expect(remaining.first == .atMost(1), "\(remaining)")
            #expect(remaining.last == .exhausted, "\(remaining)")
            let locked = await sessionError { () throws(TagSessionError) in
                _ = try await ntag.authenticate(password: Self.password)
            }
            #expect(locked == .command(operation: .authenticate, .authenticationFailed(remainingAttempts: .exhausted)))
            #expect(locked?.description.contains("none") == true, "\(String(describing: locked))")
        }
    }

    @Test("a reader unplugged after AUTH0 is written: interrupted, naming the password the tag now requires")
    func unplugMidProtect() async throws {
        try await withTagSession([try Type2Tag(chip: .ntag215, uid: Self.uid)]) { session, fixture in
            let ntag = try session.type2Tag()
            let auth0 = try #require(Self.memory.configuration?.field(.auth0))
            let emulator = fixture.emulator
            emulator.observeTagChanges { tags in
                guard let tag = tags.first as? Type2Tag, let value = auth0.value(in: tag.page(auth0.page)),
                    Int(value) <= Self.memory.lastPage
                else { return }
                Thread.detachNewThread { emulator.unplug() }
                // Hold the emulator's thread until the unplug has woken it, so the next frame is never answered.
                Thread.sleep(forTimeInterval: 0.3)
            }
            let error = await sessionError { () throws(TagSessionError) in
                _ = try await ntag.protect(
                    password: Self.password, pack: Self.pack, from: Self.memory.firstUserPage, readProtected: false)
            }
            guard case .interrupted(.protect, let state, let cause)? = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(state.requirements.first == .password(Self.password.bytes), "\(state)")
            #expect(state.isKnownToCaller)
            guard case .readerLost = cause else {
                Issue.record("cause \(cause)")
                return
            }
            #expect(error?.description.contains("password 12 34 56 78") == true, "\(String(describing: error))")
        }
    }

    @Test("Ultralight C: the factory key authenticates, a wrong key is refused, a changed key takes over")
    func ultralightC() async throws {
        let newBytes = (0..<16).map { UInt8($0 * 17) }
        let newKey = try #require(UltralightCKey(bytes: newBytes))
        #expect(UltralightCKey(bytes: Array(newBytes.prefix(15))) == nil)
        #expect(UltralightCKey(hex: "00112233445566778899AABBCCDDEEFF")?.bytes.last == 0xFF)
        try await withTagSession([try Type2Tag(chip: .ultralightC, uid: Self.uid)]) { session, _ in
            let ulc = try session.type2Tag()
            try await ulc.authenticate(key: .factoryDefault)
            let wrong = await sessionError { () throws(TagSessionError) in try await ulc.authenticate(key: newKey) }
            guard case .command(.ultralightCAuthenticate, .authenticationFailed)? = wrong else {
                Issue.record("got \(String(describing: wrong))")
                return
            }
            let state = try await ulc.changeKey(from: .factoryDefault, to: newKey)
            #expect(state.requirements.contains(.password(newBytes)) || state.requirements == [.noPassword], "\(state)")
            try await session.reselect()
            try await ulc.authenticate(key: newKey)
            let old = await sessionError { () throws(TagSessionError) in
                try await ulc.authenticate(key: .factoryDefault)
            }
            #expect(old != nil)
            let protected = try await ulc.protect(
                key: newKey, from: Self.firstUserPage(.ultralightC), readProtected: false)
            #expect(protected.requirements == [.password(newBytes)], "\(protected)")
        }
    }

    static func firstUserPage(_ chip: Chip) -> Int { ChipTables.spec(for: chip).memory!.firstUserPage }
}

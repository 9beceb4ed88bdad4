import NFCChips
import NFCEmulator
import NFCTags
import Testing

/// A protection request used by the cut matrix.
struct ProtectionCase: Sendable, CustomTestStringConvertible {
    var from: Int
    var readProtected: Bool
    var lockConfiguration: Bool
    var testDescription: String { "AUTH0 \(from), PROT \(readProtected), CFGLCK \(lockConfiguration)" }
}

@Suite(
    "protect / removePassword cut at every exchange never leave an unknown password, but for a PWD write to a protected tag"
)
struct PasswordProtectionCutTests {
    static let newPassword = [UInt8](commandHex: "12 34 56 78")
    static let newPACK = [UInt8](commandHex: "AB CD")
    static let oldPassword = [UInt8](commandHex: "CA FE BA BE")
    static let oldPACK = [UInt8](commandHex: "0B 0E")
    static let cases = [
        ProtectionCase(from: 4, readProtected: true, lockConfiguration: false),
        ProtectionCase(from: 0x10, readProtected: false, lockConfiguration: false),
        ProtectionCase(from: 4, readProtected: true, lockConfiguration: true),
    ]

    /// Runs `flow` on `tag` with a cut at every exchange (before and after the tag receives
    /// the cut frame) and checks the reported state against the model and by trying it.
    ///
    /// `secretWrittenWhileProtected`: the flow writes PWD while a password protects the tag,
    /// so an unanswered PWD write may have been torn mid-cycle: the state then also lists
    /// an unknown password, last.
    func checkEveryCut(
        of tag: Type2Tag, probePage: Int, before: PasswordRequirement, after expectedFinal: PasswordRequirement,
        secretWrittenWhileProtected: Bool = false,
        flow: @escaping @Sendable (Type2Commands) async throws(TagCommandError) -> Void
    ) async throws {
        let clean = EmulatedTagTransport(tag: tag)
        try await flow(try Type2Commands(transport: clean, chip: tag.spec.chip))
        let total = await clean.exchanges
        #expect(total > 8)
        #expect(EmulatedNTAG.actualRequirement(of: await clean.tag) == expectedFinal)
        var seen: Set<PasswordRequirement> = []
        var interruptions = 0
        for exchange in 0..<total {
            for received in [false, true] {
                let cut = TagCut(exchange: exchange, tagReceivesFrame: received)
                let transport = EmulatedTagTransport(tag: tag, cut: cut)
                var requirements: [PasswordRequirement]
                do {
                    try await flow(try Type2Commands(transport: transport, chip: tag.spec.chip))
                    Issue.record("\(cut): the flow finished despite the cut")
                    continue
                } catch .interrupted(let state, _) {
                    interruptions += 1
                    requirements = state.requirements
                } catch {
                    // Failed before its first write: the tag is as it was.
                    requirements = [before]
                }
                let after = await transport.tag
                let actual = EmulatedNTAG.actualRequirement(of: after)
                seen.insert(actual)
                if secretWrittenWhileProtected, requirements.contains(.unknownPassword) {
                    #expect(requirements.last == .unknownPassword && requirements.count > 1, "\(cut): \(requirements)")
                } else {
                    #expect(!requirements.contains(.unknownPassword), "\(cut)")
                }
                #expect(requirements.contains(actual), "\(cut): reported \(requirements), tag requires \(actual)")
                #expect(
                    try await EmulatedNTAG.opens(after, with: actual, probePage: probePage),
                    "\(cut): \(actual) does not open the tag")
            }
        }
        // The matrix really crossed the point where protection changes hands.
        #expect(seen == [before, expectedFinal])
        // At least half the cut points lie after the first write (a cut before it fails as
        // that step's own error: nothing was written).
        #expect(interruptions >= total)
    }

    @Test("protect on a factory NTAG215: after any cut the tag needs no password or the new one", arguments: cases)
    func protectFactoryTag(request: ProtectionCase) async throws {
        try await checkEveryCut(
            of: try EmulatedNTAG.fresh(), probePage: request.from, before: .noPassword,
            after: .password(Self.newPassword)
        ) { tag throws(TagCommandError) in
            try await tag.protect(
                password: Self.newPassword, pack: Self.newPACK, from: request.from,
                readProtected: request.readProtected,
                lockConfiguration: request.lockConfiguration, consent: .configurationLock)
        }
    }

    @Test("protect with a new password over an old one: after any cut the old or the new password opens the tag")
    func changePassword() async throws {
        let protected = try await protectedTag(from: 4, readProtected: true)
        try await checkEveryCut(
            of: protected, probePage: 4, before: .password(Self.oldPassword),
            after: .password(Self.newPassword), secretWrittenWhileProtected: true
        ) { tag throws(TagCommandError) in
            try await tag.protect(
                password: Self.newPassword, pack: Self.newPACK, from: 4, readProtected: true,
                currentPassword: Self.oldPassword)
        }
    }

    @Test("removePassword: after any cut the tag needs the current password or none", arguments: [true, false])
    func removePassword(readProtected: Bool) async throws {
        let protected = try await protectedTag(from: 4, readProtected: readProtected)
        try await checkEveryCut(
            of: protected, probePage: 4, before: .password(Self.oldPassword),
            after: .noPassword
        ) { tag throws(TagCommandError) in
            try await tag.removePassword(current: Self.oldPassword, expectedPACK: Self.oldPACK)
        }
    }

    /// Runs `flow` with each of its page writes torn inside the EEPROM cycle (four seeds
    /// each) and checks the reported state against the torn tag: the requirement it really
    /// has is listed and opens it — or, when the torn page left a password nobody knows,
    /// the state says so (an unknown password).
    func checkEveryTornWrite(
        of tag: Type2Tag, probePage: Int, unknownPossible: Bool,
        flow: @escaping @Sendable (Type2Commands) async throws(TagCommandError) -> Void
    ) async throws {
        let clean = EmulatedTagTransport(tag: tag)
        try await flow(try Type2Commands(transport: clean, chip: tag.spec.chip))
        let writes = await clean.pageWrites
        #expect(writes >= 2)
        var unknownSeen = false
        for write in 1...writes {
            for seed in UInt64(0)..<4 {
                let transport = EmulatedTagTransport(tag: tag)
                await transport.tear(WriteTear(write: write, seed: seed))
                let label = "page write \(write) of \(writes) torn with seed \(seed)"
                let requirements: [PasswordRequirement]
                do {
                    try await flow(try Type2Commands(transport: transport, chip: tag.spec.chip))
                    Issue.record("\(label): the flow finished despite the tear")
                    continue
                } catch .interrupted(let state, _) {
                    requirements = state.requirements
                } catch {
                    Issue.record("\(label): \(error)")
                    continue
                }
                let after = await transport.tag
                let actual = EmulatedNTAG.actualRequirement(of: after)
                if requirements.contains(actual) {
                    #expect(
                        try await EmulatedNTAG.opens(after, with: actual, probePage: probePage),
                        "\(label): \(actual) does not open the tag")
                } else {
                    #expect(
                        requirements.contains(.unknownPassword),
                        "\(label): reported \(requirements), tag requires \(actual)")
                    unknownSeen = true
                }
                if requirements.contains(.unknownPassword) { #expect(unknownPossible, "\(label): \(requirements)") }
            }
        }
        #expect(unknownSeen == unknownPossible)
    }

    @Test(
        "protect, password change and removal with a page write torn mid-cycle: only a PWD torn while protected is unknown"
    )
    func tornWrites() async throws {
        try await checkEveryTornWrite(of: try EmulatedNTAG.fresh(), probePage: 4, unknownPossible: false) {
            tag throws(TagCommandError) in
            try await tag.protect(password: Self.newPassword, pack: Self.newPACK, from: 4, readProtected: true)
        }
        let protected = try await protectedTag(from: 4, readProtected: true)
        try await checkEveryTornWrite(of: protected, probePage: 4, unknownPossible: true) {
            tag throws(TagCommandError) in
            try await tag.protect(
                password: Self.newPassword, pack: Self.newPACK, from: 4, readProtected: true,
                currentPassword: Self.oldPassword)
        }
        try await checkEveryTornWrite(of: protected, probePage: 4, unknownPossible: false) {
            tag throws(TagCommandError) in
            try await tag.removePassword(current: Self.oldPassword, expectedPACK: Self.oldPACK)
        }
    }

    /// An NTAG215 protected with the old password by an uninterrupted `protect`.
    func protectedTag(from page: Int, readProtected: Bool) async throws -> Type2Tag {
        let transport = EmulatedTagTransport(tag: try EmulatedNTAG.fresh())
        let commands = try Type2Commands(transport: transport, chip: .ntag215)
        let state = try await commands.protect(
            password: Self.oldPassword, pack: Self.oldPACK, from: page, readProtected: readProtected)
        #expect(state.requirements == [.password(Self.oldPassword)])
        return await transport.tag
    }
}

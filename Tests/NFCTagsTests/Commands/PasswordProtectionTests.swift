import NFCChips
import NFCEmulator
import NFCTags
import Testing

@Suite("Password protection: dry run, order, consent, lock-out, removal")
struct PasswordProtectionTests {
    static let password = [UInt8](commandHex: "12 34 56 78")
    static let pack = [UInt8](commandHex: "AB CD")

    func commands(_ tag: Type2Tag) throws -> (Type2Commands, EmulatedTagTransport<Type2Tag>) {
        let transport = EmulatedTagTransport(tag: tag)
        return (try Type2Commands(transport: transport, chip: tag.spec.chip), transport)
    }

    @Test("The dry run writes nothing and orders PWD, PACK, PWD_AUTH + PACK, then AUTH0 last")
    func dryRunOrder() async throws {
        let (tag, transport) = try commands(try EmulatedNTAG.fresh())
        let plan = try await tag.planProtection(
            password: Self.password, pack: Self.pack, from: 4, readProtected: true, authLimit: 3)
        #expect(await transport.tag.memory == (try EmulatedNTAG.fresh()).memory)
        let writes = plan.steps.compactMap { step -> Int? in
            if case .write(let page, _) = step.action { page } else { nil }
        }
        #expect(writes == [0x85, 0x86, 0x84, 0x83])  // PWD, PACK, ACCESS, CFG0 (AUTH0)
        let verifyIndex = plan.steps.firstIndex {
            $0.action == .authenticate(password: Self.password, expectedPACK: Self.pack)
        }
        let auth0Index = plan.steps.firstIndex { if case .write(0x83, _) = $0.action { true } else { false } }
        #expect(try #require(verifyIndex) < (try #require(auth0Index)))
        #expect(plan.irreversibleChanges == [.authenticationLimit(3)])
        #expect(Set(plan.changes.map(\.field)) == [.auth0, .prot, .authLimit])
        #expect(plan.initialState.requirements == [.noPassword])
        #expect(plan.finalState.requirements == [.password(Self.password)])
    }

    @Test("A finite AUTHLIM or CFGLCK without consent is refused before any write")
    func consentRequired() async throws {
        let fresh = try EmulatedNTAG.fresh()
        let (tag, transport) = try commands(fresh)
        await #expect(throws: TagCommandError.irreversibleNotConsented([.authenticationLimit(2)])) {
            try await tag.protect(password: Self.password, pack: Self.pack, from: 4, readProtected: false, authLimit: 2)
        }
        await #expect(throws: TagCommandError.irreversibleNotConsented([.configurationLock])) {
            try await tag.protect(
                password: Self.password, pack: Self.pack, from: 4, readProtected: false, lockConfiguration: true,
                consent: .authenticationLimit)
        }
        #expect(await transport.tag.memory == fresh.memory)
    }

    @Test("Protect then read without and with the password, then remove it")
    func protectReadRemove() async throws {
        let (tag, transport) = try commands(try EmulatedNTAG.fresh())
        try await tag.protect(password: Self.password, pack: Self.pack, from: 4, readProtected: true)
        try await transport.reselect()
        await #expect(throws: TagCommandError.nak(code: 0, command: CommandName.read.rawValue)) {
            _ = try await tag.read(page: 4)
        }
        try await transport.reselect()
        try await tag.authenticate(password: Self.password, expectedPACK: Self.pack)
        #expect(try await tag.read(page: 4).prefix(3) == [0x03, 0x00, 0xFE])
        let state = try await tag.removePassword(current: Self.password, expectedPACK: Self.pack)
        #expect(state.requirements == [.noPassword])
        let config = try await tag.readConfiguration()
        #expect(config.auth0 == 0xFF && config.isReadProtected == false)
        #expect(await transport.tag.page(0x85) == [0xFF, 0xFF, 0xFF, 0xFF])  // PWD back to the factory value
    }

    @Test("AUTHLIM lock-out: wrong passwords report the attempts left; at the limit even the right one fails")
    func authenticationLimitLockOut() async throws {
        let (tag, _) = try commands(try EmulatedNTAG.fresh())
        try await tag.protect(
            password: Self.password, pack: Self.pack, from: 0x10, readProtected: false, authLimit: 2,
            consent: .authenticationLimit)
        let wrong = [UInt8](commandHex: "00 00 00 01")
        await #expect(throws: TagCommandError.authenticationFailed(remainingAttempts: .atMost(1))) {
            try await tag.authenticate(password: wrong)
        }
        await #expect(throws: TagCommandError.authenticationFailed(remainingAttempts: .atMost(1))) {
            try await tag.authenticate(password: wrong)
        }
        await #expect(throws: TagCommandError.authenticationFailed(remainingAttempts: .exhausted)) {
            try await tag.authenticate(password: Self.password)
        }
    }

    @Test("With PROT over the ACCESS page the remaining attempts are unknown")
    func unknownAttemptsWhenProtected() async throws {
        let (tag, _) = try commands(try EmulatedNTAG.fresh())
        try await tag.protect(
            password: Self.password, pack: Self.pack, from: 4, readProtected: true, authLimit: 5,
            consent: .authenticationLimit)
        await #expect(throws: TagCommandError.authenticationFailed(remainingAttempts: .unknown)) {
            try await tag.authenticate(password: [0, 0, 0, 0])
        }
    }

    @Test("A PACK that does not match stops protect before AUTH0 is written")
    func packCheckedBeforeAUTH0() async throws {
        var machine = PasswordFlowMachine(
            plan: try PasswordFlowPlanner.protection(
                current: try Type2Configuration.factoryDefault(for: .ntag213), password: Self.password, pack: Self.pack,
                from: 4, readProtected: false, authLimit: 0, lockConfiguration: false, currentPassword: nil))
        while case .perform(let step) = machine.next() {
            if case .authenticate = step.action { machine.record(.pack([0xAB, 0xCE])) } else { machine.record(.done) }
        }
        guard case .stopped(.interrupted(let state, let cause)) = machine.next() else {
            Issue.record("the flow should stop at the PACK check")
            return
        }
        #expect(cause == .packMismatch(expected: Self.pack, received: [0xAB, 0xCE]))
        #expect(state.requirements == [.noPassword])
    }

    @Test("A step that fails before the first write is its own error: nothing was written, nothing interrupted")
    func failureBeforeAnyWrite() throws {
        let plan = try PasswordFlowPlanner.removal(
            current: try Type2Configuration(chip: .ntag213, pages: [0x29: [4, 0, 0, 4], 0x2A: [0x80, 5, 0, 0]]),
            password: Self.password, expectedPACK: nil, resetPassword: true)
        let firstWrite = try #require(plan.steps.firstIndex { if case .write = $0.action { true } else { false } })
        let refusal = TagCommandError.authenticationFailed(remainingAttempts: .unlimited)
        func outcome(failingAt index: Int) -> PasswordFlowMachine.Next {
            var machine = PasswordFlowMachine(plan: plan)
            while case .perform(let step) = machine.next() {
                if machine.position == index {
                    machine.record(.failed(refusal))
                    break
                }
                if case .authenticate = step.action { machine.record(.pack([0, 0])) } else { machine.record(.done) }
            }
            return machine.next()
        }
        let authentication = try #require(
            plan.steps.firstIndex { if case .authenticate = $0.action { true } else { false } })
        #expect(authentication < firstWrite)
        guard case .stopped(refusal) = outcome(failingAt: authentication) else {
            Issue.record("a refused authentication stops the flow before any write")
            return
        }
        guard case .stopped(.interrupted(_, refusal)) = outcome(failingAt: firstWrite) else {
            Issue.record("a failed write is an interrupted flow")
            return
        }
    }

    @Test("The machine keeps old and new values possible when a write's ACK is lost, not after a NAK")
    func ambiguousWrites() throws {
        let plan = try PasswordFlowPlanner.removal(
            current: try Type2Configuration(chip: .ntag213, pages: [0x29: [4, 0, 0, 4], 0x2A: [0x80, 5, 0, 0]]),
            password: Self.password, expectedPACK: nil, resetPassword: true)
        func run(failingAt index: Int, with error: TagCommandError) -> TagPasswordState? {
            var machine = PasswordFlowMachine(plan: plan)
            while case .perform(let step) = machine.next() {
                if machine.position == index {
                    machine.record(.failed(error))
                    break
                }
                if case .authenticate = step.action { machine.record(.pack([0, 0])) } else { machine.record(.done) }
            }
            if case .stopped(.interrupted(let state, _)) = machine.next() { return state }
            return nil
        }
        let auth0Write = try #require(plan.steps.firstIndex { $0.effect == .setsProtection(false) })
        #expect(
            run(failingAt: auth0Write, with: .transport(.tagLost))?.requirements == [
                .noPassword, .password(Self.password),
            ])
        #expect(
            run(failingAt: auth0Write, with: .nak(code: 0, command: CommandName.write.rawValue))?.requirements == [
                .password(Self.password)
            ]
        )
    }

    @Test("removePassword is refused when CFGLCK froze the configuration")
    func removalRefusedWhenLocked() async throws {
        let (tag, transport) = try commands(try EmulatedNTAG.fresh())
        try await tag.protect(
            password: Self.password, pack: Self.pack, from: 4, readProtected: false, lockConfiguration: true,
            consent: .configurationLock)
        let before = await transport.tag.memory
        await #expect(throws: TagCommandError.configurationLocked) {
            try await tag.removePassword(current: Self.password)
        }
        #expect(await transport.tag.memory == before)
    }

    @Test("Bad arguments are refused before any frame")
    func badArguments() async throws {
        let transport = TranscriptTransport(steps: [])
        let current = try Type2Configuration.factoryDefault(for: .ntag215)
        #expect(throws: TagCommandError.self) {
            _ = try PasswordFlowPlanner.protection(
                current: current, password: [1, 2, 3], pack: Self.pack, from: 4, readProtected: false,
                authLimit: 0, lockConfiguration: false, currentPassword: nil)
        }
        #expect(throws: TagCommandError.self) {
            _ = try PasswordFlowPlanner.protection(
                current: current, password: Self.password, pack: Self.pack, from: 4, readProtected: false,
                authLimit: 8, lockConfiguration: false, currentPassword: nil)
        }
        #expect(throws: TagCommandError.self) {
            _ = try PasswordFlowPlanner.protection(
                current: current, password: Self.password, pack: Self.pack, from: 0x87, readProtected: false,
                authLimit: 0, lockConfiguration: false, currentPassword: nil)
        }
        _ = try Type2Commands(transport: transport, chip: .ntag215)
        #expect(await transport.problems == [])
    }
}

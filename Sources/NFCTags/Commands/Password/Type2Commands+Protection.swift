import NFCChips

/// Password protection with a lock-out guard: dry runs, consent for irreversible bits, and
/// flows that never leave the tag with a password the caller does not know.
extension Type2Commands {
    /// The protection flow, as a dry run (reads the configuration, writes nothing).
    ///
    /// - Parameters:
    ///   - password: the new 4-byte PWD.
    ///   - pack: the 2-byte PACK the tag will answer (checked before protection takes effect).
    ///   - page: AUTH0, the first protected page.
    ///   - readProtected: PROT: reads need the password too.
    ///   - authLimit: AUTHLIM, wrong passwords allowed before a permanent lock (0 = unlimited).
    ///   - lockConfiguration: CFGLCK, the configuration pages locked for good.
    ///   - currentPassword: the tag's password when it is already protected.
    package func planProtection(
        password: [UInt8], pack: [UInt8], from page: Int, readProtected: Bool, authLimit: Int = 0,
        lockConfiguration: Bool = false, currentPassword: [UInt8]? = nil
    ) async throws(TagCommandError) -> PasswordFlowPlan {
        let current = try await readConfigurationAuthenticating(password: currentPassword)
        return try PasswordFlowPlanner.protection(
            current: current, password: password, pack: pack, from: page, readProtected: readProtected,
            authLimit: authLimit, lockConfiguration: lockConfiguration, currentPassword: currentPassword)
    }

    /// Protects pages from `page` on with `password`: PWD and PACK first, PWD_AUTH and PACK
    /// proven, AUTH0 last, then read back. An interruption at any point throws
    /// ``TagCommandError/interrupted(tagNowRequires:cause:)`` with what the tag requires now
    /// (nothing, or the new password — or the old one when it was already protected).
    /// Any other error comes from the dry run, before the first write: the tag is unchanged.
    ///
    /// ```swift
    /// try await tag.protect(password: [0x12, 0x34, 0x56, 0x78], pack: [0xAB, 0xCD], from: 4,
    ///                       readProtected: false, authLimit: 0)
    /// ```
    /// - Returns: the state after the flow.
    @discardableResult
    package func protect(
        password: [UInt8], pack: [UInt8], from page: Int, readProtected: Bool, authLimit: Int = 0,
        lockConfiguration: Bool = false, currentPassword: [UInt8]? = nil, consent: IrreversibleConsent = []
    ) async throws(TagCommandError) -> TagPasswordState {
        let plan = try await planProtection(
            password: password, pack: pack, from: page, readProtected: readProtected,
            authLimit: authLimit, lockConfiguration: lockConfiguration,
            currentPassword: currentPassword)
        let missing = consent.missing(for: plan.irreversibleChanges)
        guard missing.isEmpty else { throw .irreversibleNotConsented(missing) }
        return try await run(plan)
    }

    /// The removal flow, as a dry run (authenticates to read the configuration).
    package func planPasswordRemoval(
        current password: [UInt8], expectedPACK: [UInt8]? = nil,
        resetPassword: Bool = true
    ) async throws(TagCommandError) -> PasswordFlowPlan {
        try await transport.reselectTag()
        try await authenticate(password: password, expectedPACK: expectedPACK)
        let current = try await readConfiguration()
        return try PasswordFlowPlanner.removal(
            current: current, password: password, expectedPACK: expectedPACK,
            resetPassword: resetPassword)
    }

    /// Removes the password: AUTH0 back to its default and PROT off (then PWD / PACK back to
    /// the factory values when `resetPassword`). Refused with
    /// ``TagCommandError/configurationLocked`` when CFGLCK is set.
    @discardableResult
    package func removePassword(
        current password: [UInt8], expectedPACK: [UInt8]? = nil,
        resetPassword: Bool = true
    ) async throws(TagCommandError) -> TagPasswordState {
        try await run(
            try await planPasswordRemoval(current: password, expectedPACK: expectedPACK, resetPassword: resetPassword))
    }

    /// Runs a password flow: the ``PasswordFlowMachine`` says what to send, this loop sends it.
    package func run(_ plan: PasswordFlowPlan) async throws(TagCommandError) -> TagPasswordState {
        guard plan.chip == chip else {
            throw .invalidArgument("plan for \(plan.chip.rawValue), tag is \(chip.rawValue)")
        }
        var machine = PasswordFlowMachine(plan: plan)
        while true {
            switch machine.next() {
            case .finished(let state): return state
            case .stopped(let error): throw error
            case .perform(let step): machine.record(await carryOut(step))
            }
        }
    }

    /// Sends one step and reports how it went.
    func carryOut(_ step: PasswordFlowStep) async -> PasswordFlowMachine.Outcome {
        do {
            switch step.action {
            case .reselect:
                try await transport.reselectTag()
                return .done
            case .authenticate(let password, _):
                return .pack(try await authenticate(password: password))
            case .authenticateUltralightC(let key):
                try await authenticate(ultralightCKey: key)
                return .done
            case .write(let page, let bytes):
                try await write(page: page, bytes: bytes)
                return .done
            case .verifyConfiguration:
                return .configuration(try await readConfiguration())
            }
        } catch {
            return .failed(error)
        }
    }

    /// The configuration; when it is read-protected, authenticates with `password` first.
    func readConfigurationAuthenticating(password: [UInt8]?) async throws(TagCommandError) -> Type2Configuration {
        do {
            return try await readConfiguration()
        } catch .nak(let code, let command) {
            try await transport.reselectTag()
            guard let password else {
                throw .invalidArgument(
                    "the configuration is read-protected (NAK \(code) to \(command ?? "READ")): give the current password"
                )
            }
            try await authenticate(password: password)
            return try await readConfiguration()
        }
    }
}

import NFCChips

/// Ultralight C: 3DES mutual authentication, key change and AUTH0 / AUTH1 protection.
extension Type2Commands {
    /// The chip's 3DES authentication table, or ``TagCommandError/featureNotSupported(feature:chip:)``.
    func ultralightCSpec() throws(TagCommandError) -> UltralightCAuthenticationSpec {
        guard let spec = spec.ultralightCAuthentication else {
            throw .featureNotSupported(feature: "3DES authentication", chip: chip)
        }
        return spec
    }

    /// 3DES mutual authentication with a 16-byte key in cipher order (the factory key is
    /// `spec.ultralightCAuthentication.defaultKey`). `rndA` is random unless given (tests).
    ///
    /// ```swift
    /// try await tag.authenticate(ultralightCKey: ChipTables.spec(for: .ultralightC).ultralightCAuthentication!.defaultKey)
    /// ```
    package func authenticate(ultralightCKey key: [UInt8], rndA: [UInt8]? = nil) async throws(TagCommandError) {
        let auth = try ultralightCSpec()
        let command = try command(.authenticate)
        var generator = SystemRandomNumberGenerator()
        let nonce =
            rndA
            ?? (0..<UltralightCAuthenticator.blockLength).map { _ in UInt8.random(in: .min ... .max, using: &generator)
            }
        var authenticator: UltralightCAuthenticator
        do { authenticator = try UltralightCAuthenticator(key: key, rndA: nonce) } catch {
            throw .invalidArgument("\(error)")
        }

        let challenge = try await ultralightCStep(
            command, [command.code] + (command.fixedArguments ?? []),
            leading: auth.continuationByte)
        let second: [UInt8]
        do { second = try authenticator.answer(toChallenge: challenge) } catch {
            throw .invalidAnswer(
                command: CommandName.authenticate.rawValue, bytes: challenge, offset: 0, expected: "ek(RndB), \(error)")
        }
        let final = try await ultralightCStep(command, [auth.continuationByte] + second, leading: auth.successByte)
        do { try authenticator.verify(cardAnswer: final) } catch {
            throw .verificationFailed(
                "the tag's ek(RndA′) does not decrypt to RndA′: it does not hold this key (\(error))")
        }
    }

    /// One authentication frame: the answer must be `leading` followed by one DES block; a
    /// NAK (wrong key) reselects the tag and throws ``TagCommandError/authenticationFailed(remainingAttempts:)``.
    private func ultralightCStep(_ command: CommandSpec, _ frame: [UInt8], leading: UInt8) async throws(TagCommandError)
        -> [UInt8]
    {
        let answer: RawAnswer
        do {
            answer = try await transport.exchange(frame, command: command.name, framing: .raw, timeout: command.timeout)
        } catch .nak {
            try await transport.reselectTag()
            throw .authenticationFailed(remainingAttempts: .unlimited)
        }
        let bytes = try data(answer, from: command, length: command.answerLength)
        guard bytes[0] == leading else {
            throw .invalidAnswer(
                command: command.name.rawValue, bytes: bytes, offset: 0, expected: "leading byte \(leading)")
        }
        return Array(bytes.dropFirst())
    }

    /// The key-change flow, as a dry run: authenticate with `currentKey`, write the key
    /// pages (each 8-byte half reversed, per the table), authenticate with the new key.
    /// After a cut the tag holds a mix of old and new pages; the plan's state lists them.
    package func planUltralightCKeyChange(from currentKey: [UInt8], to newKey: [UInt8]) async throws(TagCommandError)
        -> PasswordFlowPlan
    {
        let auth = try ultralightCSpec()
        guard let newPages = auth.keyPages(forKey: newKey), let oldPages = auth.keyPages(forKey: currentKey) else {
            throw .invalidArgument("Ultralight C keys are 16 bytes")
        }
        let current = try await readConfigurationAuthenticating(ultralightCKey: currentKey)
        var steps = [
            PasswordFlowStep(.reselect, purpose: "start from ACTIVE"),
            PasswordFlowStep(
                .authenticateUltralightC(key: currentKey), purpose: "the current key unlocks the key pages"),
        ]
        let pageSize = memory.pageSize
        for (index, page) in (auth.firstKeyPage...auth.lastKeyPage).enumerated() {
            let written = (index + 1) * pageSize
            let stored = Array(newPages.prefix(written)) + Array(oldPages.dropFirst(written))
            let keyNow = auth.keyPages(forKey: stored) ?? newKey  // the halves reverse back to cipher order
            steps.append(
                PasswordFlowStep(
                    .write(page: page, bytes: Array(newPages[(index * pageSize)..<written])),
                    effect: .setsSecret(keyNow), purpose: "key page \(index + 1) of 4"))
        }
        steps += [
            PasswordFlowStep(.reselect, purpose: "the new key applies after re-activation"),
            PasswordFlowStep(.authenticateUltralightC(key: newKey), purpose: "the new key opens the tag"),
        ]
        return PasswordFlowPlan(
            chip: chip, current: current, target: current, changes: [], changesSecret: true, irreversibleChanges: [],
            steps: steps, initialState: TagPasswordState(secret: currentKey, protected: current.isProtectionActive),
            finalState: TagPasswordState(secret: newKey, protected: current.isProtectionActive))
    }

    /// Changes the Ultralight C key (see ``planUltralightCKeyChange(from:to:)``).
    @discardableResult
    package func changeUltralightCKey(from currentKey: [UInt8], to newKey: [UInt8]) async throws(TagCommandError)
        -> TagPasswordState
    {
        try await run(try await planUltralightCKeyChange(from: currentKey, to: newKey))
    }

    /// The AUTH0 / AUTH1 flow, as a dry run: proves `key` first, writes AUTH1, then AUTH0
    /// last, and reads the configuration back. `from` past the last page removes protection.
    package func planUltralightCProtection(from page: Int, writesOnly: Bool, key: [UInt8]) async throws(TagCommandError)
        -> PasswordFlowPlan
    {
        _ = try ultralightCSpec()
        guard (0...(memory.lastPage + 1)).contains(page) else {
            throw .invalidArgument(
                "AUTH0 must be 0…\(memory.lastPage + 1) (\(memory.lastPage + 1) disables protection)")
        }
        let current = try await readConfigurationAuthenticating(ultralightCKey: key)
        var target = current
        target.auth0 = page
        target.auth1 = writesOnly ? 1 : 0
        var steps = [
            PasswordFlowStep(.reselect, purpose: "start from ACTIVE"),
            PasswordFlowStep(
                .authenticateUltralightC(key: key), purpose: "prove the key before protection takes effect"),
        ]
        steps += try PasswordFlowPlanner.configurationWrites(from: current, to: target)
        steps += [
            PasswordFlowStep(.reselect, purpose: "drop the authentication"),
            PasswordFlowStep(.authenticateUltralightC(key: key), purpose: "the key opens the tag"),
            PasswordFlowStep(.verifyConfiguration(target), purpose: "AUTH0 / AUTH1 read back as written"),
        ]
        return PasswordFlowPlan(
            chip: chip, current: current, target: target, changes: target.changes(from: current), changesSecret: false,
            irreversibleChanges: [], steps: steps,
            initialState: TagPasswordState(secret: key, protected: current.isProtectionActive),
            finalState: TagPasswordState(secret: key, protected: target.isProtectionActive))
    }

    /// Sets AUTH0 / AUTH1 (see ``planUltralightCProtection(from:writesOnly:key:)``).
    @discardableResult
    package func setUltralightCProtection(from page: Int, writesOnly: Bool, key: [UInt8]) async throws(TagCommandError)
        -> TagPasswordState
    {
        try await run(try await planUltralightCProtection(from: page, writesOnly: writesOnly, key: key))
    }

    /// The configuration, authenticating with `key` first when it is read-protected.
    func readConfigurationAuthenticating(ultralightCKey key: [UInt8]) async throws(TagCommandError)
        -> Type2Configuration
    {
        do {
            return try await readConfiguration()
        } catch .nak {
            try await transport.reselectTag()
            try await authenticate(ultralightCKey: key)
            return try await readConfiguration()
        }
    }
}

import NFCChips

/// GET_VERSION, READ_SIG and PWD_AUTH.
extension Type2Commands {
    /// GET_VERSION: the 8-byte product version (raw framing).
    package func getVersion() async throws(TagCommandError) -> [UInt8] {
        let command = try command(.getVersion)
        return try data(try await run(command, []), from: command, length: command.answerLength)
    }

    /// READ_SIG: the 32-byte originality signature (never password-protected).
    package func readSignature() async throws(TagCommandError) -> [UInt8] {
        let command = try command(.readSignature)
        let answer = try await run(command, command.fixedArguments ?? [])
        return try data(answer, from: command, length: command.answerLength)
    }

    /// PWD_AUTH with a 4-byte password; returns the tag's PACK, checked against
    /// `expectedPACK` when given.
    ///
    /// A wrong password throws ``TagCommandError/authenticationFailed(remainingAttempts:)``
    /// after selecting the tag again (the NAK dropped it to IDLE); the remaining attempts
    /// are read from AUTHLIM when the ACCESS byte is readable.
    ///
    /// ```swift
    /// let pack = try await tag.authenticate(password: [0x12, 0x34, 0x56, 0x78], expectedPACK: [0xAB, 0xCD])
    /// ```
    @discardableResult
    package func authenticate(password: [UInt8], expectedPACK: [UInt8]? = nil) async throws(TagCommandError) -> [UInt8]
    {
        let command = try command(.passwordAuthenticate)
        let passwordSpec = try self.passwordSpec()
        guard password.count == passwordSpec.defaultPassword.count else {
            throw .invalidArgument(
                "PWD_AUTH: the password is \(passwordSpec.defaultPassword.count) bytes, got \(password.count)")
        }
        if let expectedPACK, expectedPACK.count != command.answerLength {
            throw .invalidArgument("PWD_AUTH: PACK is \(command.answerLength) bytes, got \(expectedPACK.count)")
        }
        let answer: RawAnswer
        do {
            answer = try await run(command, password)
        } catch .nak(let code, _) {
            throw .authenticationFailed(remainingAttempts: try await remainingAttemptsAfterFailure(nak: code))
        }
        let pack = try data(answer, from: command, length: command.answerLength)
        if let expectedPACK, pack != expectedPACK { throw .packMismatch(expected: expectedPACK, received: pack) }
        return pack
    }

    /// The password pages of the chip, or ``TagCommandError/featureNotSupported(feature:chip:)``.
    func passwordSpec() throws(TagCommandError) -> PasswordSpec {
        guard let password = memory.configuration?.password else {
            throw .featureNotSupported(feature: "PWD / PACK password", chip: chip)
        }
        return password
    }

    /// After a refused PWD_AUTH: selects the tag again and works out how many attempts are left.
    func remainingAttemptsAfterFailure(nak code: UInt8) async throws(TagCommandError) -> RemainingAttempts {
        try await transport.reselectTag()
        if NAKCode(rawValue: code)?.name == .authenticationLimitReached { return .exhausted }
        guard let field = memory.configuration?.field(.authLimit) else { return .unknown }
        do {
            let bytes = try await read(page: field.page)
            guard let limit = field.value(in: Array(bytes.prefix(memory.pageSize))) else { return .unknown }
            return limit == 0 ? .unlimited : .atMost(Int(limit) - 1)
        } catch .nak {
            try await transport.reselectTag()
            return .unknown
        }
    }
}

import NFCChips

/// Authentication, block reads and writes with the open sector tracked, and the mapping of
/// ``TagCommandError`` to ``NDEFTagError``.
///
/// A refused authentication or command halts the card (it forgets its authentication), so
/// the tag is selected again and the open sector forgotten before the error is reported.
extension ClassicNDEFDriver {
    /// Authenticates `sector` with `key`; `false` when the card refused the key (the tag
    /// has then been selected again).
    func authenticate(_ sector: Int, _ keyType: ClassicKeyType, key: [UInt8]) async throws(TagCommandError) -> Bool {
        openSector = nil
        do {
            try await commands.authenticate(sector: sector, keyType: keyType, key: key)
        } catch .authenticationFailed {
            try await commands.transport.reselectTag()
            return false
        }
        openSector = OpenSector(sector: sector, keyType: keyType)
        return true
    }

    /// Opens `sector` with the first key A of `candidates` the card accepts.
    func openWithKeyA(_ sector: Int, candidates: [[UInt8]]) async throws(TagCommandError) -> [UInt8]? {
        for key in candidates {
            if try await authenticate(sector, .a, key: key) { return key }
        }
        return nil
    }

    /// Makes sure `sector` is open with `keyType`; a refused key throws
    /// ``TagCommandError/authenticationFailed(remainingAttempts:)``.
    func ensureOpen(_ sector: Int, _ keyType: ClassicKeyType, key: [UInt8]) async throws(TagCommandError) {
        if openSector == OpenSector(sector: sector, keyType: keyType) { return }
        guard try await authenticate(sector, keyType, key: key) else {
            throw .authenticationFailed(remainingAttempts: .unlimited)
        }
    }

    /// READ of one block of the open sector.
    func readBlock(_ block: Int) async throws(TagCommandError) -> [UInt8] {
        do {
            return try await commands.readBlock(block)
        } catch {
            await forgetSession(after: error)
            throw error
        }
    }

    /// WRITE of one data block of the open sector.
    func writeBlock(_ block: Int, _ bytes: [UInt8]) async throws(TagCommandError) {
        do {
            try await commands.writeBlock(block, bytes: bytes)
        } catch {
            await forgetSession(after: error)
            throw error
        }
    }

    /// WRITE of a sector trailer (the access bits are checked; freezing ones are allowed:
    /// only ``makeReadOnly(force:)`` writes them, as asked).
    func writeTrailer(_ bytes: [UInt8], sector: Int) async throws(TagCommandError) {
        do {
            try await commands.writeSectorTrailer(bytes: bytes, sector: sector, consent: [.frozenSectorTrailer])
        } catch {
            await forgetSession(after: error)
            throw error
        }
    }

    /// After a failed command the card is halted: forget the open sector and select it again.
    private func forgetSession(after error: TagCommandError) async {
        openSector = nil
        if case .transport(.tagLost) = error { return }
        if case .transport(.connectionLost) = error { return }
        try? await commands.transport.reselect()
    }

    // MARK: Errors

    /// The error for a failure during a step that writes nothing.
    static func reading(_ error: TagCommandError, step: NDEFTagStep) -> NDEFTagError {
        switch error {
        case .transport(let transportError): .reading(transportError, step: step)
        case .nak(let code, _): .nak(code: code, step: step)
        case .authenticationFailed: .authenticationRequired(step: step)
        case .invalidAnswer(_, let bytes, let offset, let expected):
            .unexpectedResponse(
                step: step, description: "\(bytes.count)-byte answer, at byte \(offset) expected \(expected)")
        default: .readerFailure(step: step, reason: "\(error)")
        }
    }

    /// The error for a failure during a write step; `state` says what the tag holds given
    /// whether the failed command may have reached it.
    static func writing(_ error: TagCommandError, step: NDEFTagStep, state: (Bool) -> NDEFTagContentState)
        -> NDEFTagError
    {
        switch error {
        case .transport(let transportError): .writing(transportError, step: step, state: state(true))
        case .nak(let code, _): .tagUpdateFailure(step: step, state: state(false), reason: .nak(code))
        case .authenticationFailed: .tagUpdateFailure(step: step, state: state(false), reason: .authenticationFailed)
        case .invalidAnswer(_, let bytes, _, let expected):
            .tagUpdateFailure(
                step: step, state: state(true),
                reason: .unexpectedResponse("\(bytes.count)-byte answer, expected \(expected)"))
        default: .tagUpdateFailure(step: step, state: state(false), reason: .unexpectedResponse("\(error)"))
        }
    }

    /// The sector the card has authenticated, and with which key.
    struct OpenSector: Sendable, Equatable {
        var sector: Int
        var keyType: ClassicKeyType
    }
}

import NFCChips
import NFCTags

// MARK: - MIFARE Ultralight C: the 3DES key, AUTH0 / AUTH1

extension NFCType2Tag {
    /// Ultralight C: 3DES mutual authentication with `key` (`UltralightCKey.factoryDefault`
    /// on a new tag). A wrong key throws ``TagSessionError/command(operation:_:)`` with
    /// `authenticationFailed`.
    public func authenticate(key: UltralightCKey) async throws(TagSessionError) {
        let commands = try session.type2(.ultralightCAuthenticate)
        try await session.perform(.ultralightCAuthenticate) { () throws(TagCommandError) in
            try await commands.authenticate(ultralightCKey: key.bytes)
        }
        // The NDEF calls present it again after their alone check re-selects the tag.
        session.credentials.remember(ultralightCKey: key)
    }

    /// The key change as a dry run: the steps and what the tag requires before and after.
    /// Authenticates with `currentKey` to check it; writes nothing.
    public func planKeyChange(from currentKey: UltralightCKey, to newKey: UltralightCKey) async throws(TagSessionError)
        -> PasswordFlowPlan
    {
        let commands = try session.type2(.changeUltralightCKey)
        return try await session.perform(.changeUltralightCKey) { () throws(TagCommandError) in
            try await commands.planUltralightCKeyChange(from: currentKey.bytes, to: newKey.bytes)
        }
    }

    /// Changes the key: proves `currentKey`, writes the key pages, proves `newKey`.
    /// Cut between two frames, it fails with ``TagSessionError/interrupted(operation:tagNowRequires:cause:)``
    /// naming both keys, most likely first — never a key nobody knows.
    ///
    /// - Returns: what the tag requires now (the new key).
    @discardableResult
    public func changeKey(from currentKey: UltralightCKey, to newKey: UltralightCKey) async throws(TagSessionError)
        -> TagPasswordState
    {
        let commands = try session.type2(.changeUltralightCKey)
        return try await session.perform(.changeUltralightCKey) { () throws(TagCommandError) in
            try await commands.changeUltralightCKey(from: currentKey.bytes, to: newKey.bytes)
        }
    }

    /// The AUTH0 / AUTH1 change as a dry run (authenticates with `key` to read the
    /// configuration; writes nothing).
    public func planProtection(key: UltralightCKey, from page: Int, readProtected: Bool) async throws(TagSessionError)
        -> PasswordFlowPlan
    {
        let commands = try session.type2(.setUltralightCProtection)
        return try await session.perform(.setUltralightCProtection) { () throws(TagCommandError) in
            try await commands.planUltralightCProtection(from: page, writesOnly: !readProtected, key: key.bytes)
        }
    }

    /// Sets AUTH0 (first protected page; past the last page: none) and AUTH1 (`readProtected`
    /// false: writes need the key, reads stay open), proving `key` before protection takes
    /// effect. `readProtected` reads as in the NTAG21x `protect(password:pack:from:…)`.
    @discardableResult
    public func protect(key: UltralightCKey, from page: Int, readProtected: Bool) async throws(TagSessionError)
        -> TagPasswordState
    {
        let commands = try session.type2(.setUltralightCProtection)
        return try await session.perform(.setUltralightCProtection) { () throws(TagCommandError) in
            try await commands.setUltralightCProtection(from: page, writesOnly: !readProtected, key: key.bytes)
        }
    }
}

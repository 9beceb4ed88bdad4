import NFCChips
import NFCTags

/// Password protection with the lock-out guard (NTAG21x, Ultralight EV1) and the
/// Ultralight C key: dry runs, consent for irreversible bits, and flows that, cut at any
/// frame, report what the tag requires now (``TagSessionError/interrupted(operation:tagNowRequires:cause:)``).
extension TagSession {
    /// The protection flow as a dry run: the steps, the configuration changes, what cannot
    /// be undone, and what the tag requires before and after. Writes nothing.
    ///
    /// - Parameters:
    ///   - password: the new 4-byte PWD.
    ///   - pack: the 2-byte PACK the tag will answer (checked before AUTH0 is written).
    ///   - page: AUTH0, the first protected page.
    ///   - readProtected: PROT: reads need the password too, not only writes.
    ///   - authLimit: AUTHLIM, wrong passwords before the protected area locks for good (0 = unlimited).
    ///   - lockConfiguration: CFGLCK, the configuration pages locked for good.
    ///   - currentPassword: the tag's password when it is already protected.
    public func planProtection(
        password: [UInt8], pack: [UInt8], from page: Int, readProtected: Bool, authLimit: Int = 0,
        lockConfiguration: Bool = false, currentPassword: [UInt8]? = nil
    ) async throws(TagSessionError) -> PasswordFlowPlan {
        let commands = try type2(.protect)
        return try await perform(.protect) { () throws(TagCommandError) in
            try await commands.planProtection(password: password, pack: pack, from: page, readProtected: readProtected,
                                              authLimit: authLimit, lockConfiguration: lockConfiguration,
                                              currentPassword: currentPassword)
        }
    }

    /// Protects pages from `page` on: PWD and PACK first, PWD_AUTH and PACK proven, AUTH0
    /// last, read back. A finite `authLimit` needs `IrreversibleConsent.authenticationLimit`
    /// and `lockConfiguration` `IrreversibleConsent.configurationLock` in `consent`.
    ///
    /// - Returns: what the tag requires now (the new password).
    /// - Throws: ``TagSessionError/interrupted(operation:tagNowRequires:cause:)`` when the
    ///   flow was cut after its first write (the state names the password the tag requires);
    ///   any other error leaves the tag as it was.
    ///
    /// ```swift
    /// try await session.protect(password: [0x12, 0x34, 0x56, 0x78], pack: [0xAB, 0xCD], from: 4,
    ///                           readProtected: true, authLimit: 5, consent: [.authenticationLimit])
    /// ```
    @discardableResult
    public func protect(
        password: [UInt8], pack: [UInt8], from page: Int, readProtected: Bool, authLimit: Int = 0,
        lockConfiguration: Bool = false, currentPassword: [UInt8]? = nil, consent: IrreversibleConsent = []
    ) async throws(TagSessionError) -> TagPasswordState {
        let commands = try type2(.protect)
        return try await perform(.protect) { () throws(TagCommandError) in
            try await commands.protect(password: password, pack: pack, from: page, readProtected: readProtected,
                                       authLimit: authLimit, lockConfiguration: lockConfiguration,
                                       currentPassword: currentPassword, consent: consent)
        }
    }

    /// The removal flow as a dry run (authenticates with `current` to read the configuration).
    public func planPasswordRemoval(current password: [UInt8], expectedPACK: [UInt8]? = nil,
                                    resetPassword: Bool = true) async throws(TagSessionError) -> PasswordFlowPlan {
        let commands = try type2(.removePassword)
        return try await perform(.removePassword) { () throws(TagCommandError) in
            try await commands.planPasswordRemoval(current: password, expectedPACK: expectedPACK, resetPassword: resetPassword)
        }
    }

    /// Removes the password: AUTH0 back to its default, PROT off, then (with
    /// `resetPassword`) PWD / PACK back to the factory values. Refused when CFGLCK is set.
    ///
    /// - Returns: what the tag requires now (no password).
    @discardableResult
    public func removePassword(current password: [UInt8], expectedPACK: [UInt8]? = nil,
                               resetPassword: Bool = true) async throws(TagSessionError) -> TagPasswordState {
        let commands = try type2(.removePassword)
        return try await perform(.removePassword) { () throws(TagCommandError) in
            try await commands.removePassword(current: password, expectedPACK: expectedPACK, resetPassword: resetPassword)
        }
    }

    // MARK: - Ultralight C

    /// Ultralight C 3DES mutual authentication with a 16-byte key (cipher order; the
    /// factory key is in the chip's table). A wrong key throws
    /// ``TagSessionError/command(operation:_:)`` with `authenticationFailed`.
    public func authenticate(ultralightCKey key: [UInt8]) async throws(TagSessionError) {
        let commands = try type2(.ultralightCAuthenticate)
        try await perform(.ultralightCAuthenticate) { () throws(TagCommandError) in
            try await commands.authenticate(ultralightCKey: key)
        }
    }

    /// Changes the Ultralight C key: proves `currentKey`, writes the key pages, proves `newKey`.
    @discardableResult
    public func changeUltralightCKey(from currentKey: [UInt8], to newKey: [UInt8]) async throws(TagSessionError) -> TagPasswordState {
        let commands = try type2(.changeUltralightCKey)
        return try await perform(.changeUltralightCKey) { () throws(TagCommandError) in
            try await commands.changeUltralightCKey(from: currentKey, to: newKey)
        }
    }

    /// Sets Ultralight C AUTH0 (first protected page; past the last page: none) and AUTH1
    /// (`writesOnly`: reads stay open), proving `key` before protection takes effect.
    @discardableResult
    public func setUltralightCProtection(from page: Int, writesOnly: Bool, key: [UInt8]) async throws(TagSessionError) -> TagPasswordState {
        let commands = try type2(.setUltralightCProtection)
        return try await perform(.setUltralightCProtection) { () throws(TagCommandError) in
            try await commands.setUltralightCProtection(from: page, writesOnly: writesOnly, key: key)
        }
    }
}

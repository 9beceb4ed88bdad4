import NFCChips

/// Key and key-settings changes that a cut or a slip cannot turn into a card nobody can
/// open, with the discipline of NTAG 424 DNA's key changes.
///
/// - ChangeKey: the new key's version must differ from the slot's (GetKeyVersion first;
///   nothing is written otherwise), so that after a cut GetKeyVersion — which needs no key —
///   names the key the slot holds. After the change the new key is proved: by
///   authenticating with it when it was the session's own key (the session goes on with
///   it), by its version otherwise. A failure once the command may have reached the card
///   throws ``NTAG424Error/desfireKeyChangeInterrupted(keyNumber:tagNowHolds:cause:)``.
/// - ChangeKeySettings: settings without "configuration changeable" can never change again;
///   they need ``IrreversibleConsent/frozenKeySettings``. GetKeySettings reads them back.
extension DESFireCommands {
    /// ChangeKey of key `keyNumber` to `newKey`, as described above. `oldKey` is the slot's
    /// current key when it is not the session's own.
    package func changeKeySafely(_ keyNumber: UInt8, to newKey: DESFireKey, from oldKey: DESFireKey? = nil)
        async throws(TagCommandError)
    {
        guard let current = session, let authenticated = sessionKey else {
            throw .ntag424(.notAuthenticated(command: "ChangeKey"))
        }
        let ownKey = keyNumber == current.keyNumber
        guard let old = ownKey ? authenticated : oldKey else {
            throw .invalidArgument("changing key \(keyNumber) needs its current value")
        }
        let before = try await keyVersion(keyNumber)
        guard before != newKey.version else {
            throw .invalidArgument(
                "key \(keyNumber) already has version \(before): give the new key another version, so that a cut change can be told apart"
            )
        }
        let ev2 = if case .ev2 = session?.scheme { true } else { false }
        do {
            try await changeKey(keyNumber, to: newKey, from: oldKey)
        } catch .transport(let cause) {
            throw interrupted(keyNumber, newKey, old, cause: .transport(cause))
        } catch .verificationFailed(let detail) {
            throw interrupted(keyNumber, newKey, old, cause: .verificationFailed(detail))
        }
        // Nothing above this line changed the card when it threw; below, the card has the new key.
        do throws(TagCommandError) {
            if ownKey {
                if ev2 {
                    try await authenticateEV2(keyNumber: keyNumber, key: newKey)
                } else {
                    try await authenticate(keyNumber: keyNumber, key: newKey)
                }
            } else {
                let after = try await keyVersion(keyNumber)
                guard after == newKey.version else {
                    throw .verificationFailed(
                        "key \(keyNumber) has version \(after) after ChangeKey, not the new key's \(newKey.version)")
                }
            }
        } catch .ntag424(.wrongKey) {
            throw .verificationFailed("key \(keyNumber) does not open with the new key after ChangeKey")
        } catch {
            if case .verificationFailed = error { throw error }
            throw interrupted(keyNumber, newKey, old, cause: error)
        }
    }

    func interrupted(_ keyNumber: UInt8, _ new: DESFireKey, _ old: DESFireKey, cause: TagCommandError)
        -> TagCommandError
    {
        session = nil
        return .ntag424(.desfireKeyChangeInterrupted(keyNumber: keyNumber, tagNowHolds: [new, old], cause: cause))
    }

    /// ChangeKeySettings with the consent settings that freeze need, read back afterwards.
    package func changeKeySettings(_ settings: UInt8, consent: IrreversibleConsent) async throws(TagCommandError) {
        if let change = IrreversibleChange.desfireKeySettings(settings, application: selectedApplication),
            !consent.contains(change.requiredConsent)
        {
            throw .irreversibleNotConsented([change])
        }
        try await changeKeySettings(settings)
        let now = try await keySettings().settings
        guard now == settings else {
            throw .verificationFailed(
                "GetKeySettings reads \([now].hexString()) after ChangeKeySettings, not \([settings].hexString())")
        }
    }
}

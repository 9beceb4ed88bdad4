import NFCChips
import NTAG424Crypto

/// Key changes that a cut at any frame cannot turn into a key nobody knows.
///
/// The discipline of the PWD / PACK flows: a plan checked before anything is written, one
/// atomic ChangeKey, a verification afterwards — and the key version as the witness of
/// which key a slot holds after a cut (the tag changes key and version in one command).
///
/// 1. Plan: the new version must differ from the slot's current one (else a cut change
///    could not be told apart); the old key is proven by authenticating with it.
/// 2. ChangeKey, inside a key-0 session.
/// 3. Verification: EV2First with the new key.
///
/// A failure after step 1 throws ``NTAG424Error/keyChangeInterrupted(keyNumber:tagNowHolds:cause:)``
/// with both keys; ``keyInSlot(_:candidates:)`` then reads GetKeyVersion (no key needed) on
/// the tag brought back, and names the one it holds.
extension NTAG424DNACommands {
    /// Changes key `slot` from `old` to `new` with version `version`, as described above.
    /// For `slot` 0, `old` is the app master key itself; otherwise `appMasterKey` opens the
    /// key-0 session. Leaves a key-0 session open (with the new key 0 when slot 0 changed).
    ///
    /// - Throws: ``TagCommandError/invalidArgument(_:)`` when `version` equals the current
    ///   version (nothing written); ``NTAG424Error/wrongKey(keyNumber:)`` when `old` is not
    ///   the slot's key (nothing written);
    ///   ``NTAG424Error/keyChangeInterrupted(keyNumber:tagNowHolds:cause:)`` after a cut.
    package func changeKeySafely(
        _ slot: UInt8, from old: AES128Key, to new: AES128Key, version: UInt8,
        appMasterKey: AES128Key
    ) async throws(TagCommandError) {
        let masterBefore = slot == 0 ? old : appMasterKey
        // Plan: prove the old key, read the current version.
        try await authenticate(keyNumber: slot, key: old)
        if slot != 0 { try await authenticate(keyNumber: 0, key: masterBefore) }
        let current = try await keyVersion(slot)
        guard current != version else {
            throw .invalidArgument(
                "key \(slot) already has version \(version): give the new key another version, so that a cut change can be told apart"
            )
        }
        let candidates = [
            NTAG424KeyCandidate(role: "new", key: new, version: version),
            NTAG424KeyCandidate(role: "old", key: old, version: current),
        ]
        do {
            try await changeKey(slot, to: new, version: version, oldKey: slot == 0 ? nil : old)
            // Verify: the new key opens the slot, then back to key 0.
            try await authenticate(keyNumber: slot, key: new)
            if slot != 0 { try await authenticate(keyNumber: 0, key: masterBefore) }
        } catch {
            if case .ntag424(.wrongKey) = error {
                throw .verificationFailed("key \(slot) does not open with the new key after ChangeKey")
            }
            throw .ntag424(.keyChangeInterrupted(keyNumber: slot, tagNowHolds: candidates, cause: error))
        }
    }

    /// Which of `candidates` key `slot` holds, from GetKeyVersion (selects the application
    /// first; needs no key). `nil` when the version matches none of them.
    package func keyInSlot(_ slot: UInt8, candidates: [NTAG424KeyCandidate]) async throws(TagCommandError)
        -> NTAG424KeyCandidate?
    {
        try await selectApplication()
        let version = try await keyVersion(slot)
        return candidates.first { $0.version == version }
    }
}

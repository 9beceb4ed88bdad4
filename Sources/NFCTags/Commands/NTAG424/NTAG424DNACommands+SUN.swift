import NFCChips
import NTAG424Crypto

/// The keys of a SUN setup.
///
/// ```swift
/// let keys = NTAG424SUNKeys(appMasterKey: .zero, metaReadKey: meta, fileReadKey: mac)
/// ```
public struct NTAG424SUNKeys: Sendable {
    /// Key 0, the application master key, which authorises the key and settings changes.
    public var appMasterKey: AES128Key
    /// The SDM meta-read key (decrypts the PICC data; shared by all tags so a verifier can read the UID first).
    public var metaReadKey: AES128Key
    /// The SDM file-read key (keys the SDMMAC; may be diversified per tag).
    public var fileReadKey: AES128Key
    /// What the two SDM key slots hold now (factory: all zero).
    public var currentMetaReadKey: AES128Key
    /// See ``currentMetaReadKey``.
    public var currentFileReadKey: AES128Key
    /// The key version the changed SDM keys get.
    public var version: UInt8

    /// Keys; the slots are assumed to hold the factory keys now unless told.
    public init(
        appMasterKey: AES128Key = .zero, metaReadKey: AES128Key = .zero, fileReadKey: AES128Key = .zero,
        currentMetaReadKey: AES128Key = .zero, currentFileReadKey: AES128Key = .zero, version: UInt8 = 1
    ) {
        self.appMasterKey = appMasterKey
        self.metaReadKey = metaReadKey
        self.fileReadKey = fileReadKey
        self.currentMetaReadKey = currentMetaReadKey
        self.currentFileReadKey = currentFileReadKey
        self.version = version
    }
}

extension NTAG424DNACommands {
    /// Sets up SUN from `template`: selects the application, authenticates with key 0,
    /// changes the two SDM keys where they differ (safely: ``changeKeySafely(_:from:to:version:appMasterKey:)``;
    /// a slot that already holds the new key is left alone, so a setup can run again), writes
    /// the NDEF file, then the file settings, and reads them back.
    ///
    /// - Returns: the file settings the tag reports afterwards.
    /// - Throws: ``TagCommandError/verificationFailed(_:)`` when the tag reports other settings.
    @discardableResult
    package func setUpSUN(_ template: NTAG424SUNTemplate, keys: NTAG424SUNKeys) async throws(TagCommandError)
        -> NTAG424FileSettings
    {
        let ndef = NTAG424DNATable.ndefFileNumber
        try await selectApplication()
        try await authenticate(keyNumber: 0, key: keys.appMasterKey)
        let slots: [(UInt8?, AES128Key, AES128Key)] = [
            (template.sdm.metaRead.keyNumber, keys.metaReadKey, keys.currentMetaReadKey),
            (template.sdm.fileRead.keyNumber, keys.fileReadKey, keys.currentFileReadKey),
        ]
        for (slot, new, current) in slots {
            guard let slot, slot != 0, new != current else { continue }
            // A slot that holds the new key already (a setup run before, or one cut after its
            // ChangeKey) is left as it is: the failed attempt only ends the session.
            if (try? await authenticate(keyNumber: slot, key: new)) != nil {
                try await authenticate(keyNumber: 0, key: keys.appMasterKey)
                continue
            }
            try await authenticate(keyNumber: 0, key: keys.appMasterKey)
            let version = try await keyVersion(slot)
            try await changeKeySafely(
                slot, from: current, to: new, version: version == keys.version ? version &+ 1 : keys.version,
                appMasterKey: keys.appMasterKey)
        }
        try await writeData(file: ndef, data: template.fileContent, mode: .plain)
        try await changeFileSettings(ndef, to: template.fileSettings)
        let settings = try await fileSettings(ndef)
        guard settings.sdm == template.sdm, settings.read == .free else {
            throw .verificationFailed("the NDEF file's settings read back differ from those written")
        }
        return settings
    }
}

extension NTAG424Access {
    /// The key number, for `.key`.
    package var keyNumber: UInt8? {
        if case .key(let number) = self { return number }
        return nil
    }
}

import NFCChips
import NFCTags

/// A MIFARE DESFire EV1, EV2 or EV3, reached from its ISO-DEP handle
/// (``NFCISODEPTag/desfire()``): applications, keys of every cipher, data, value and record
/// files in the communication mode each file asks for, transactions, the originality
/// signature — and the NDEF calls of ``NFCNDEFTag`` on the NFC Forum application.
///
/// The handle keeps the authenticated session and the selected application between calls;
/// any refused command ends the session, as on the card. Keys are `DESFireKey` values:
/// DES and 2K3DES keys authenticate with the legacy command, 3K3DES with the ISO one, AES
/// with `AA` (or EV2First on EV2 and EV3 with `ev2: true`).
///
/// ```swift
/// let desfire = try session.isoDEPTag().desfire()
/// try await desfire.selectApplication(0)                        // the PICC
/// try await desfire.authenticate(keyNumber: 0, key: .factoryDefault)
/// try await desfire.createApplication(0x123456, keySettings: 0x0F, keyCount: 2, cipher: .aes)
/// try await desfire.selectApplication(0x123456)
/// try await desfire.authenticate(keyNumber: 0, key: DESFireKey(cipher: .aes, bytes: [UInt8](repeating: 0, count: 16))!)
/// try await desfire.createFile(1, settings: DESFireFileSettings(
///     kind: .data(size: 32, backup: false), communicationMode: .full, accessRights: 0x1110))
/// try await desfire.writeData(file: 1, data: Array("hello".utf8))
/// ```
public struct NFCDESFireTag: Sendable {
    /// The session the card is connected in.
    package let session: TagSession
    /// The commands, with the authenticated session.
    package let commands: DESFireCommands

    init(session: TagSession) {
        self.session = session
        self.commands = DESFireCommands(transport: session.transport)
    }

    // MARK: PICC and applications

    /// GetVersion: generation, storage size, UID and production data.
    public func version() async throws(TagSessionError) -> DESFireVersion {
        try await perform(.desfireCommand) { () throws(TagCommandError) in try await commands.version() }
    }

    /// SelectApplication: `0` the PICC, otherwise a 24-bit AID. Ends the session.
    public func selectApplication(_ aid: UInt32) async throws(TagSessionError) {
        try await perform(.desfireApplication) { () throws(TagCommandError) in
            try await commands.selectApplication(aid)
        }
    }

    /// GetApplicationIDs: the AIDs on the card.
    public func applicationIDs() async throws(TagSessionError) -> [UInt32] {
        try await perform(.desfireApplication) { () throws(TagCommandError) in try await commands.applicationIDs() }
    }

    /// CreateApplication `aid` with `keySettings`, `keyCount` keys of `cipher`, and an ISO
    /// file ID and DF name when given.
    public func createApplication(
        _ aid: UInt32, keySettings: UInt8, keyCount: Int, cipher: DESFireKey.Cipher,
        isoFileID: UInt16? = nil, dfName: [UInt8] = []
    ) async throws(TagSessionError) {
        try await perform(.desfireApplication) { () throws(TagCommandError) in
            try await commands.createApplication(
                aid, keySettings: keySettings, keyCount: keyCount, cipher: cipher, isoFileID: isoFileID,
                dfName: dfName)
        }
    }

    /// DeleteApplication.
    public func deleteApplication(_ aid: UInt32) async throws(TagSessionError) {
        try await perform(.desfireApplication) { () throws(TagCommandError) in
            try await commands.deleteApplication(aid)
        }
    }

    /// FreeMem: free user memory in bytes.
    public func freeMemory() async throws(TagSessionError) -> Int {
        try await perform(.desfireCommand) { () throws(TagCommandError) in try await commands.freeMemory() }
    }

    /// FormatPICC: **every application and file is deleted** (a PICC master-key session).
    public func formatPICC() async throws(TagSessionError) {
        try await perform(.desfireApplication) { () throws(TagCommandError) in try await commands.formatPICC() }
    }

    /// GetCardUID (in a session): the real UID behind a random one.
    package func cardUID() async throws(TagSessionError) -> [UInt8] {
        try await perform(.desfireCommand) { () throws(TagCommandError) in try await commands.cardUID() }
    }

    /// Read_Sig (EV2, EV3) checked against NXP's key for the chip, or `publicKey`. With a
    /// random UID the real one must be given.
    public func verifyOriginality(uid: [UInt8]? = nil, publicKey: [UInt8]? = nil) async throws(TagSessionError)
        -> OriginalityReport
    {
        let uid = uid ?? session.uid
        let chip = session.chip ?? .desfireEV3
        return try await perform(.readSignature) { () throws(TagCommandError) in
            try await commands.verifyOriginality(uid: uid, chip: chip, publicKey: publicKey)
        }
    }

    // MARK: Keys

    /// Authenticates key `keyNumber` of the selected application (or the PICC) with `key`;
    /// `ev2` uses AuthenticateEV2First (EV2, EV3; AES keys), or AuthenticateEV2NonFirst
    /// inside an EV2 session, which goes on with the new key.
    public func authenticate(keyNumber: UInt8, key: DESFireKey, ev2: Bool = false) async throws(TagSessionError) {
        try await perform(.desfireAuthenticate) { () throws(TagCommandError) in
            if ev2 {
                try await commands.authenticateEV2(keyNumber: keyNumber, key: key)
            } else {
                try await commands.authenticate(keyNumber: keyNumber, key: key)
            }
        }
    }

    /// GetKeySettings of the selected application or the PICC: the settings byte (master
    /// key changeable `01`, free listing `02`, free create / delete `04`, settings changeable
    /// `08`; in an application the high nibble names the key that changes keys), the key
    /// count and the keys' cipher (DES and 2K3DES both read as `.des`).
    public func keySettings() async throws(TagSessionError) -> (
        settings: UInt8, keyCount: Int, cipher: DESFireKey.Cipher
    ) {
        let answer = try await perform(.desfireCommand) { () throws(TagCommandError) in
            try await commands.keySettings()
        }
        return (answer.settings, answer.keyCount, answer.cipher)
    }

    /// ChangeKeySettings (a master-key session), read back with GetKeySettings. Settings
    /// without "configuration changeable" (`08`) can never change again: they need
    /// `consent: [.frozenKeySettings]`, and throw `irreversibleNotConsented` without it,
    /// nothing sent.
    public func changeKeySettings(_ settings: UInt8, consent: IrreversibleConsent = [])
        async throws(TagSessionError)
    {
        try await perform(.desfireChangeKey) { () throws(TagCommandError) in
            try await commands.changeKeySettings(settings, consent: consent)
        }
    }

    /// GetKeyVersion.
    public func keyVersion(_ keyNumber: UInt8) async throws(TagSessionError) -> UInt8 {
        try await perform(.desfireCommand) { () throws(TagCommandError) in try await commands.keyVersion(keyNumber) }
    }

    /// ChangeKey: key `keyNumber` becomes `newKey` (its version included), and a cut at any
    /// frame never leaves a key nobody knows. Another key than the session's needs its
    /// current value `oldKey`. The PICC master key may change cipher.
    ///
    /// The new key's version must differ from the slot's (checked first, nothing written
    /// otherwise): after a cut, ``keyVersion(_:)`` — which needs no key — tells which key the
    /// slot holds. The change is proved afterwards: the session's own key by authenticating
    /// with the new one (the session goes on with it), another key by its version.
    ///
    /// ```swift
    /// try await desfire.authenticate(keyNumber: 0, key: .factoryDefault)
    /// let key = DESFireKey(cipher: .aes, bytes: secret, version: 1)!
    /// do { try await desfire.changeKey(0, to: key) }
    /// catch .command(_, .ntag424(.desfireKeyChangeInterrupted(_, let keys, _))) {
    ///     // One of `keys` (new, old) opens key 0: keyVersion(0) says which.
    /// }
    /// ```
    public func changeKey(_ keyNumber: UInt8, to newKey: DESFireKey, from oldKey: DESFireKey? = nil)
        async throws(TagSessionError)
    {
        try await perform(.desfireChangeKey) { () throws(TagCommandError) in
            try await commands.changeKeySafely(keyNumber, to: newKey, from: oldKey)
        }
    }

    // MARK: Files

    /// GetFileIDs of the selected application.
    public func fileIDs() async throws(TagSessionError) -> [UInt8] {
        try await perform(.desfireFile) { () throws(TagCommandError) in try await commands.fileIDs() }
    }

    /// GetFileSettings.
    public func fileSettings(_ file: UInt8) async throws(TagSessionError) -> DESFireFileSettings {
        try await perform(.desfireFile) { () throws(TagCommandError) in try await commands.fileSettings(file) }
    }

    /// ChangeFileSettings: the communication mode and the access rights.
    public func changeFileSettings(_ file: UInt8, mode: NTAG424CommMode, accessRights: UInt16)
        async throws(TagSessionError)
    {
        try await perform(.desfireFile) { () throws(TagCommandError) in
            try await commands.changeFileSettings(file, mode: mode, accessRights: accessRights)
        }
    }

    /// Creates file `file` as `settings` say (the sizes or limits of its kind), with an ISO
    /// file ID in an application that has them.
    public func createFile(_ file: UInt8, settings: DESFireFileSettings, isoFileID: UInt16? = nil)
        async throws(TagSessionError)
    {
        try await perform(.desfireFile) { () throws(TagCommandError) in
            try await commands.createFile(file, settings: settings, isoFileID: isoFileID)
        }
    }

    /// DeleteFile.
    public func deleteFile(_ file: UInt8) async throws(TagSessionError) {
        try await perform(.desfireFile) { () throws(TagCommandError) in try await commands.deleteFile(file) }
    }

    /// ReadData: `length` bytes (0: to the end) of a data file from `offset`.
    public func readData(file: UInt8, offset: Int = 0, length: Int = 0) async throws(TagSessionError) -> [UInt8] {
        try await perform(.desfireFile) { () throws(TagCommandError) in
            try await commands.readData(file: file, offset: offset, length: length)
        }
    }

    /// WriteData into a data file from `offset` (a backup file's change counts at
    /// ``commitTransaction()``).
    public func writeData(file: UInt8, offset: Int = 0, data: [UInt8]) async throws(TagSessionError) {
        try await perform(.desfireFile) { () throws(TagCommandError) in
            try await commands.writeData(file: file, offset: offset, data: data)
        }
    }

    /// GetValue of a value file.
    public func value(file: UInt8) async throws(TagSessionError) -> Int32 {
        try await perform(.desfireFile) { () throws(TagCommandError) in try await commands.value(file: file) }
    }

    /// Credit (`amount` > 0), Debit (`amount` < 0) or, with `limited`, LimitedCredit of a value
    /// file; the change counts at ``commitTransaction()``.
    public func changeValue(file: UInt8, by amount: Int32, limited: Bool = false) async throws(TagSessionError) {
        let command: DESFireCommandName = limited ? .limitedCredit : amount < 0 ? .debit : .credit
        let magnitude = amount == .min ? Int32.max : abs(amount)
        try await perform(.desfireFile) { () throws(TagCommandError) in
            try await commands.changeValue(command, file: file, amount: magnitude)
        }
    }

    /// WriteRecord into the record being written in a record file.
    public func writeRecord(file: UInt8, offset: Int = 0, data: [UInt8]) async throws(TagSessionError) {
        try await perform(.desfireFile) { () throws(TagCommandError) in
            try await commands.writeRecord(file: file, offset: offset, data: data)
        }
    }

    /// ReadRecords: `count` records (0: all) counted back from the `newest`-th newest
    /// (0: the newest), given oldest first as the card sends them.
    public func readRecords(file: UInt8, newest: Int = 0, count: Int = 0) async throws(TagSessionError) -> [[UInt8]] {
        try await perform(.desfireFile) { () throws(TagCommandError) in
            try await commands.readRecords(file: file, newest: newest, count: count)
        }
    }

    /// ClearRecordFile (counts at ``commitTransaction()``).
    public func clearRecordFile(_ file: UInt8) async throws(TagSessionError) {
        try await perform(.desfireFile) { () throws(TagCommandError) in try await commands.clearRecordFile(file) }
    }

    /// CommitTransaction: backup, value and record changes become permanent together.
    public func commitTransaction() async throws(TagSessionError) {
        try await perform(.desfireFile) { () throws(TagCommandError) in try await commands.commitTransaction() }
    }

    /// AbortTransaction: pending backup, value and record changes are dropped.
    public func abortTransaction() async throws(TagSessionError) {
        try await perform(.desfireFile) { () throws(TagCommandError) in try await commands.abortTransaction() }
    }
}

extension NFCDESFireTag {
    /// Runs `body` in the session; when the session had to select the card again first,
    /// the card has forgotten its authentication and its selected application, and so do
    /// the commands.
    func perform<Result: Sendable>(
        _ operation: TagSessionOperation,
        _ body: sending () async throws(TagCommandError) -> Result
    ) async throws(TagSessionError) -> Result {
        let commands = commands
        return try await session.perform(operation, reselected: { await commands.forgetSelection() }, body)
    }
}

extension NFCISODEPTag {
    /// This ISO-DEP tag as a MIFARE DESFire. Nothing is sent: a tag that is not one refuses
    /// the first native command (`911C` or an ISO status word).
    public func desfire() -> NFCDESFireTag { NFCDESFireTag(session: session) }
}

extension NFCDESFireTag {
    /// GetDFNames: the applications with ISO names (for `nfctag desfire apps`).
    package func dfNames() async throws(TagSessionError) -> [DESFireApplicationName] {
        try await perform(.desfireApplication) { () throws(TagCommandError) in try await commands.dfNames() }
    }

    /// The key settings as the package sees them.
    package func keySettingsValue() async throws(TagSessionError) -> DESFireKeySettings {
        try await perform(.desfireCommand) { () throws(TagCommandError) in try await commands.keySettings() }
    }
}

extension NFCDESFireTag {
    /// SetConfiguration option `option` with `data`, enciphered in the PICC master key's
    /// session (for `nfctag desfire set-config`, which asks for consent first).
    package func setConfiguration(option: UInt8, data: [UInt8]) async throws(TagSessionError) {
        try await perform(.desfireCommand) { () throws(TagCommandError) in
            try await commands.setConfiguration(option: option, data: data)
        }
    }

    /// GetCardUID, for the package.
    package func realUID() async throws(TagSessionError) -> [UInt8] { try await cardUID() }
}

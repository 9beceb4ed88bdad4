import NFCChips
import NFCTags
import NTAG424Crypto

/// An NTAG 424 DNA, reached from its ISO-DEP handle (``NFCISODEPTag/ntag424()``): EV2
/// authentication, keys, files in any communication mode, file settings with SDM, the
/// originality signature, the random ID, and the SUN setup.
///
/// The handle keeps the authenticated session between calls (in its
/// `NTAG424DNACommands` inside); any refused command ends it, as on the tag.
///
/// ```swift
/// let ntag = try session.isoDEPTag().ntag424()
/// try await ntag.selectApplication()
/// try await ntag.authenticate(keyNumber: 0, key: .zero)
/// print(try await ntag.cardUID())
/// ```
public struct NFCNTAG424DNATag: Sendable {
    /// The session the tag is connected in.
    public let session: TagSession
    /// The commands, with the authenticated session.
    package let commands: NTAG424DNACommands

    init(session: TagSession) {
        self.session = session
        self.commands = NTAG424DNACommands(transport: session.transport)
    }

    /// ISO SELECT of the NDEF application (needed before any other command; ends a session).
    public func selectApplication() async throws(TagSessionError) {
        try await perform(.ntag424Command) { () throws(TagCommandError) in try await commands.selectApplication() }
    }

    /// GetVersion.
    public func version() async throws(TagSessionError) -> DESFireVersion {
        try await perform(.ntag424Command) { () throws(TagCommandError) in try await commands.version() }
    }

    /// AuthenticateEV2First (or NonFirst inside a session).
    public func authenticate(keyNumber: UInt8, key: AES128Key, nonFirst: Bool = false) async throws(TagSessionError) {
        try await perform(.ntag424Authenticate) { () throws(TagCommandError) in
            try await commands.authenticate(keyNumber: keyNumber, key: key, nonFirst: nonFirst)
        }
    }

    /// GetKeyVersion.
    public func keyVersion(_ keyNumber: UInt8) async throws(TagSessionError) -> UInt8 {
        try await perform(.ntag424Command) { () throws(TagCommandError) in try await commands.keyVersion(keyNumber) }
    }

    /// GetFileSettings.
    public func fileSettings(_ file: UInt8) async throws(TagSessionError) -> NTAG424FileSettings {
        try await perform(.ntag424FileSettings) { () throws(TagCommandError) in try await commands.fileSettings(file) }
    }

    /// ReadData in `mode`.
    public func readData(file: UInt8, offset: Int = 0, length: Int, mode: NTAG424CommMode) async throws(TagSessionError)
        -> [UInt8]
    {
        try await perform(.ntag424FileData) { () throws(TagCommandError) in
            try await commands.readData(file: file, offset: offset, length: length, mode: mode)
        }
    }

    /// WriteData in `mode`.
    public func writeData(file: UInt8, offset: Int = 0, data: [UInt8], mode: NTAG424CommMode)
        async throws(TagSessionError)
    {
        try await perform(.ntag424FileData) { () throws(TagCommandError) in
            try await commands.writeData(file: file, offset: offset, data: data, mode: mode)
        }
    }

    /// ChangeFileSettings (encrypted in a session with the file's Change key).
    public func changeFileSettings(_ file: UInt8, to settings: NTAG424FileSettings) async throws(TagSessionError) {
        try await perform(.ntag424FileSettings) { () throws(TagCommandError) in
            try await commands.changeFileSettings(file, to: settings)
        }
    }

    /// ChangeKey in the current key-0 session (`oldKey` required for keys other than 0).
    /// Prefer ``changeKeySafely(_:from:to:version:appMasterKey:)``, which survives a cut.
    public func changeKey(_ keyNumber: UInt8, to newKey: AES128Key, version: UInt8, oldKey: AES128Key? = nil)
        async throws(TagSessionError)
    {
        try await perform(.ntag424ChangeKey) { () throws(TagCommandError) in
            try await commands.changeKey(keyNumber, to: newKey, version: version, oldKey: oldKey)
        }
    }

    /// A key change that a cut cannot turn into a key nobody knows (plan, key version,
    /// verification): see <doc:TheTagSession>.
    public func changeKeySafely(
        _ keyNumber: UInt8, from oldKey: AES128Key, to newKey: AES128Key, version: UInt8,
        appMasterKey: AES128Key
    ) async throws(TagSessionError) {
        try await perform(.ntag424ChangeKey) { () throws(TagCommandError) in
            try await commands.changeKeySafely(
                keyNumber, from: oldKey, to: newKey, version: version, appMasterKey: appMasterKey)
        }
    }

    /// After an interrupted key change: which candidate the slot holds (from its key version).
    public func keyInSlot(_ keyNumber: UInt8, candidates: [NTAG424KeyCandidate]) async throws(TagSessionError)
        -> NTAG424KeyCandidate?
    {
        try await perform(.ntag424ChangeKey) { () throws(TagCommandError) in
            try await commands.keyInSlot(keyNumber, candidates: candidates)
        }
    }

    /// Writes the SUN URL of `template` and its SDM settings (see
    /// `NTAG424DNACommands.setUpSUN` inside); returns the settings read back.
    @discardableResult
    public func setUpSUN(_ template: NTAG424SUNTemplate, keys: NTAG424SUNKeys) async throws(TagSessionError)
        -> NTAG424FileSettings
    {
        try await perform(.ntag424SUNSetup) { () throws(TagCommandError) in
            try await commands.setUpSUN(template, keys: keys)
        }
    }

    /// GetFileCounters: the SDM read counter.
    public func readCounter(file: UInt8) async throws(TagSessionError) -> UInt32 {
        try await perform(.ntag424FileData) { () throws(TagCommandError) in try await commands.readCounter(file: file) }
    }

    /// GetCardUID (needs a session): the real UID behind a random ID.
    public func cardUID() async throws(TagSessionError) -> [UInt8] {
        try await perform(.ntag424Command) { () throws(TagCommandError) in try await commands.cardUID() }
    }

    /// SetConfiguration: the random ID from the next activation (needs a session with key 0).
    public func enableRandomID() async throws(TagSessionError) {
        try await perform(.ntag424Command) { () throws(TagCommandError) in try await commands.enableRandomID() }
    }

    /// Read_Sig checked against `publicKey`, or NXP's NTAG 424 DNA key. With a random ID the
    /// real UID must be given (``cardUID()``); otherwise the UID of the activation is used.
    public func verifyOriginality(uid: [UInt8]? = nil, publicKey: [UInt8]? = nil) async throws(TagSessionError)
        -> OriginalityReport
    {
        let uid = uid ?? session.target.uid
        return try await perform(.readSignature) { () throws(TagCommandError) in
            try await commands.verifyOriginality(uid: uid, publicKey: publicKey)
        }
    }
}

extension NFCNTAG424DNATag {
    /// Runs `body` in the session; when the session had to select the tag again first (another
    /// user had the field), the tag has forgotten its authentication, and so do the commands.
    func perform<Result: Sendable>(
        _ operation: TagSessionOperation,
        _ body: sending () async throws(TagCommandError) -> Result
    ) async throws(TagSessionError) -> Result {
        let commands = commands
        return try await session.perform(operation, reselected: { await commands.endSession() }, body)
    }
}

extension NFCISODEPTag {
    /// This ISO-DEP tag as an NTAG 424 DNA. Nothing is sent: a tag that is not one refuses
    /// the first native command (`911C` or an ISO status word).
    public func ntag424() -> NFCNTAG424DNATag { NFCNTAG424DNATag(session: session) }
}

import NFCChips
import NFCTags

/// An NFC Forum Type 2 tag — NTAG213/215/216, MIFARE Ultralight, Ultralight EV1 or
/// Ultralight C: pages (READ, WRITE, memory images), GET_VERSION, FAST_READ, PWD_AUTH and
/// PACK, the configuration pages, counters, the originality signature, and the Ultralight C
/// 3DES key. Each command is `Type2Commands` on this tag, driven by the chip's
/// table; a command the chip lacks (plain Ultralight has no PWD_AUTH, an NTAG no 3DES key) throws
/// ``TagSessionError/notSupported(operation:chip:detail:)``.
///
/// Get one from ``TagSession/tag`` or ``TagSession/type2Tag()``:
///
/// ```swift
/// let ntag = try session.type2Tag()
/// let page4 = try await ntag.read(page: 4)                          // 16 bytes: pages 4…7
/// try await ntag.protect(password: pwd, pack: pack, from: ntag.userPages.lowerBound, readProtected: false)
/// ```
public struct NFCType2Tag: NFCTagHandle {
    /// The session the tag is connected in.
    public let session: TagSession
    /// The chip's page memory from its table.
    package let memory: MemoryMap

    /// The pages an application may write, from the chip's table.
    ///
    /// ```swift
    /// ntag.userPages   // 4...129 on an NTAG215
    /// ```
    public var userPages: ClosedRange<Int> { memory.userPages }

    /// The number of pages: pages `0..<pageCount` exist (an Ultralight C's key pages, past
    /// the last readable page, included). A protection from `pageCount` on protects nothing.
    public var pageCount: Int { memory.pageCount }
}

// MARK: - Version, FAST_READ, password, configuration, signature

extension NFCType2Tag {
    /// FAST_READ of `pages` (the chip must have FAST_READ), split to the reader's frame limit.
    public func fastRead(pages: ClosedRange<Int>) async throws(TagSessionError) -> [UInt8] {
        let commands = try session.type2(.read)
        return try await session.perform(.read) { () throws(TagCommandError) in
            try await commands.fastRead(pages: pages)
        }
    }

    /// GET_VERSION: the 8-byte product version.
    public func getVersion() async throws(TagSessionError) -> [UInt8] {
        let commands = try session.type2(.getVersion)
        return try await session.perform(.getVersion) { () throws(TagCommandError) in try await commands.getVersion() }
    }

    /// PWD_AUTH with `password`; returns the PACK, checked against `expectedPACK`
    /// when given. Pages behind AUTH0 open until the tag leaves the field or is selected
    /// again. A wrong password: ``TagSessionError/command(operation:_:)`` with
    /// `TagCommandError.authenticationFailed`.
    @discardableResult
    public func authenticate(password: TagPassword, expectedPACK: PACK? = nil) async throws(TagSessionError) -> PACK {
        let commands = try session.type2(.authenticate)
        let pack = try await session.perform(.authenticate) { () throws(TagCommandError) in
            PACK(
                uncheckedBytes: try await commands.authenticate(
                    password: password.bytes, expectedPACK: expectedPACK?.bytes))
        }
        // The NDEF calls present it again after their alone check re-selects the tag.
        session.credentials.remember(password: password, expectedPACK: expectedPACK)
        return pack
    }

    /// The configuration pages decoded (MIRROR, AUTH0, PROT, CFGLCK, NFC_CNT_EN,
    /// NFC_CNT_PWD_PROT, AUTHLIM, …). Authenticate first when PROT protects them.
    public func readConfiguration() async throws(TagSessionError) -> Type2Configuration {
        let commands = try session.type2(.readConfiguration)
        return try await session.perform(.readConfiguration) { () throws(TagCommandError) in
            try await commands.readConfiguration()
        }
    }

    /// Writes `configuration` back (only the pages that change; turning protection on goes
    /// through ``protect(password:pack:from:readProtected:authLimit:lockConfiguration:currentPassword:consent:)``).
    /// CFGLCK or a finite AUTHLIM need `consent`. Returns the pages written.
    ///
    /// ```swift
    /// var config = try await ntag.readConfiguration()
    /// config.isNFCCounterEnabled = true
    /// try await ntag.writeConfiguration(config)
    /// ```
    @discardableResult
    public func writeConfiguration(_ configuration: Type2Configuration, consent: IrreversibleConsent = [])
        async throws(TagSessionError) -> [Int]
    {
        let commands = try session.type2(.writeConfiguration)
        return try await session.perform(.writeConfiguration) { () throws(TagCommandError) in
            try await commands.writeConfiguration(configuration, consent: consent)
        }
    }

    /// READ_SIG and its check against the chip's published NXP key from the tables, or
    /// `publicKey` (uncompressed point `04 ‖ X ‖ Y`) when given. The verdict is valid,
    /// invalid, or no key known.
    ///
    /// ```swift
    /// let report = try await ntag.verifyOriginality()
    /// report.verification                      // .valid(keyName: "ntag21x") on a genuine NTAG
    /// ```
    public func verifyOriginality(publicKey: [UInt8]? = nil) async throws(TagSessionError) -> OriginalityReport {
        let commands = try session.type2(.readSignature)
        return try await session.perform(.readSignature) { () throws(TagCommandError) in
            try await commands.verifyOriginality(publicKey: publicKey)
        }
    }

    /// READ_SIG alone: the 32 signature bytes.
    public func readSignature() async throws(TagSessionError) -> [UInt8] {
        let commands = try session.type2(.readSignature)
        return try await session.perform(.readSignature) { () throws(TagCommandError) in
            try await commands.readSignature()
        }
    }

    /// The name of the NXP key the tables hold for this chip, `nil` when none is known.
    package var originalityKeyName: String? {
        chip.flatMap { ChipTables.originalitySignatureKey(for: $0)?.name.rawValue }
    }
}

// MARK: - NDEF with a live UID and counter

extension NFCType2Tag {
    /// Writes `template`'s URL (`NTAGMirrorTemplate`: `{uid}`, `{counter}` or
    /// `{uid}x{counter}` as ASCII zeros) tear-safely and verified, then points the NTAG21x's
    /// ASCII mirror at the zeros, so that every later read shows the live UID and counter —
    /// on this connection, after the same alone check as ``NFCNDEFTag/writeNDEF(_:options:progress:)``.
    ///
    /// A mirror that would leave the user memory or straddle reserved bytes is refused with
    /// ``NDEFSessionError/unsupportedTag(reason:)`` before anything is written. Authenticate
    /// first when the configuration pages are write-protected.
    ///
    /// ```swift
    /// let template = try NTAGMirrorTemplate(uri: "https://example.com/t?{uid}x{counter}", chip: .ntag215)
    /// try await ntag.writeNDEF(mirroring: template)
    /// ```
    public func writeNDEF(
        mirroring template: NTAGMirrorTemplate,
        progress: @escaping @Sendable (TagSessionProgress) -> Void = { _ in }
    ) async throws(NDEFSessionError) {
        let chipName = chip?.rawValue ?? "unknown"
        guard let commands = try? session.type2(.writeConfiguration) else {
            throw .unsupportedTag(reason: "\(chipName) has no ASCII mirror")
        }
        try await session.performNDEF(exclusive: true) { driver throws(NDEFTagError) in
            guard let type2 = driver as? Type2NDEFDriver else {
                throw .unsupportedTag(reason: "\(chipName) has no ASCII mirror")
            }
            try await type2.writeMessage(mirroring: template, commands: commands) { progress(TagSessionProgress($0)) }
        }
    }
}

// MARK: - Counters

/// The NTAG21x NFC counter and the Ultralight EV1 counters with their tearing flags.
extension NFCType2Tag {
    /// The counters READ_CNT can read on this chip, from its table: the NFC counter's
    /// address on NTAG21x, 0…2 on Ultralight EV1, none elsewhere.
    public var counterAddresses: [UInt8] {
        guard let chip else { return [] }
        return ChipTables.spec(for: chip).counters
            .filter { $0.kind == .nfcReadCounter || $0.kind == .incrementCounters }
            .flatMap(\.addresses)
    }

    /// READ_CNT of counter `address`.
    public func readCounter(_ address: UInt8) async throws(TagSessionError) -> Int {
        let commands = try session.type2(.readCounter)
        return try await session.perform(.readCounter) { () throws(TagCommandError) in
            try await commands.readCounter(address)
        }
    }

    /// The NTAG21x NFC read counter. Fails with a NAK while NFC_CNT_EN is off, or while
    /// NFC_CNT_PWD_PROT is on and no PWD_AUTH was done.
    ///
    /// ```swift
    /// try await ntag.setNFCCounter(enabled: true)
    /// let reads = try await ntag.readNFCCounter()
    /// ```
    public func readNFCCounter() async throws(TagSessionError) -> Int {
        let commands = try session.type2(.readCounter)
        return try await session.perform(.readCounter) { () throws(TagCommandError) in
            try await commands.readNFCCounter()
        }
    }

    /// The Ultralight EV1 one-way counters, in address order.
    public func readCounters() async throws(TagSessionError) -> [Int] {
        let commands = try session.type2(.readCounter)
        let chip = commands.chip
        let addresses = commands.spec.counters.filter { $0.kind == .incrementCounters }.flatMap(\.addresses)
        guard !addresses.isEmpty else {
            throw .notSupported(operation: .readCounter, chip: chip, detail: "it has no INCR_CNT counters")
        }
        var values: [Int] = []
        for address in addresses {
            values.append(
                try await session.perform(.readCounter) { () throws(TagCommandError) in
                    try await commands.readCounter(address)
                })
        }
        return values
    }

    /// INCR_CNT: adds `amount` to Ultralight EV1 counter `address` (one-way).
    public func incrementCounter(_ address: UInt8, by amount: Int) async throws(TagSessionError) {
        let commands = try session.type2(.incrementCounter)
        try await session.perform(.incrementCounter) { () throws(TagCommandError) in
            try await commands.incrementCounter(address, by: amount)
        }
    }

    /// CHECK_TEARING_EVENT of Ultralight EV1 counter `address`: whether the counter's last
    /// increment completed (the tag answers the table's "no tearing" value, `BD`).
    public func checkTearingEvent(_ address: UInt8) async throws(TagSessionError) -> Bool {
        let commands = try session.type2(.checkTearingEvent)
        return try await session.perform(.checkTearingEvent) { () throws(TagCommandError) in
            try await commands.checkTearingEvent(address).isValid
        }
    }

    /// Turns the NTAG21x NFC counter on or off (NFC_CNT_EN) and, when given, its password
    /// protection (NFC_CNT_PWD_PROT). Writes only when something changes. Authenticate
    /// first when the configuration is write-protected.
    ///
    /// - Returns: the configuration now on the tag.
    @discardableResult
    public func setNFCCounter(enabled: Bool, passwordProtected: Bool? = nil) async throws(TagSessionError)
        -> Type2Configuration
    {
        let commands = try session.type2(.writeConfiguration)
        var configuration = try await readConfiguration()
        guard configuration.isNFCCounterEnabled != nil else {
            throw .notSupported(operation: .writeConfiguration, chip: commands.chip, detail: "it has no NFC counter")
        }
        configuration.isNFCCounterEnabled = enabled
        if let passwordProtected { configuration.isNFCCounterPasswordProtected = passwordProtected }
        try await writeConfiguration(configuration)
        return configuration
    }
}

// MARK: - Password protection

/// Password protection with the lock-out guard: dry runs, consent for irreversible bits, and
/// flows that, cut at any frame, report what the tag requires now
/// (``TagSessionError/interrupted(operation:tagNowRequires:cause:)``).
extension NFCType2Tag {
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
        password: TagPassword, pack: PACK, from page: Int, readProtected: Bool, authLimit: Int = 0,
        lockConfiguration: Bool = false, currentPassword: TagPassword? = nil
    ) async throws(TagSessionError) -> PasswordFlowPlan {
        let commands = try session.type2(.protect)
        return try await session.perform(.protect) { () throws(TagCommandError) in
            try await commands.planProtection(
                password: password.bytes, pack: pack.bytes, from: page,
                readProtected: readProtected, authLimit: authLimit,
                lockConfiguration: lockConfiguration, currentPassword: currentPassword?.bytes)
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
    /// try await ntag.protect(password: TagPassword(hex: "12345678")!, pack: PACK(hex: "ABCD")!, from: 4,
    ///                        readProtected: true, authLimit: 5, consent: [.authenticationLimit])
    /// ```
    @discardableResult
    public func protect(
        password: TagPassword, pack: PACK, from page: Int, readProtected: Bool, authLimit: Int = 0,
        lockConfiguration: Bool = false, currentPassword: TagPassword? = nil, consent: IrreversibleConsent = []
    ) async throws(TagSessionError) -> TagPasswordState {
        let commands = try session.type2(.protect)
        let state = try await session.perform(.protect) { () throws(TagCommandError) in
            try await commands.protect(
                password: password.bytes, pack: pack.bytes, from: page, readProtected: readProtected,
                authLimit: authLimit, lockConfiguration: lockConfiguration,
                currentPassword: currentPassword?.bytes, consent: consent)
        }
        // The tag requires the new password now: the NDEF calls present it after re-selecting.
        session.credentials.remember(password: password, expectedPACK: pack)
        return state
    }

    /// The removal flow as a dry run (authenticates with `current` to read the configuration).
    public func planPasswordRemoval(
        current password: TagPassword, expectedPACK: PACK? = nil,
        resetPassword: Bool = true
    ) async throws(TagSessionError) -> PasswordFlowPlan {
        let commands = try session.type2(.removePassword)
        return try await session.perform(.removePassword) { () throws(TagCommandError) in
            try await commands.planPasswordRemoval(
                current: password.bytes, expectedPACK: expectedPACK?.bytes,
                resetPassword: resetPassword)
        }
    }

    /// Removes the password: AUTH0 back to its default, PROT off, then (with
    /// `resetPassword`) PWD / PACK back to the factory values. Refused when CFGLCK is set.
    ///
    /// - Returns: what the tag requires now (no password).
    @discardableResult
    public func removePassword(
        current password: TagPassword, expectedPACK: PACK? = nil,
        resetPassword: Bool = true
    ) async throws(TagSessionError) -> TagPasswordState {
        let commands = try session.type2(.removePassword)
        let state = try await session.perform(.removePassword) { () throws(TagCommandError) in
            try await commands.removePassword(
                current: password.bytes, expectedPACK: expectedPACK?.bytes,
                resetPassword: resetPassword)
        }
        session.credentials.forget()
        return state
    }
}

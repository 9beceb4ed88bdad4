import NFCChips
import NFCTags

/// Page commands of NTAG21x and MIFARE Ultralight (EV1, C): memory, version, password,
/// configuration. Each is `Type2Commands` on this tag, with session errors.
extension TagSession {
    /// READ: 16 bytes from `page` on (four pages, wrapping at the end of memory as the chip does).
    public func read(page: Int) async throws(TagSessionError) -> [UInt8] {
        let commands = try type2(.read)
        return try await perform(.read) { () throws(TagCommandError) in try await commands.read(page: page) }
    }

    /// FAST_READ of `pages`, split to the reader's frame limit (READ on chips without FAST_READ).
    ///
    /// ```swift
    /// let user = try await session.readPages(4...129)      // NTAG215 user memory
    /// ```
    public func readPages(_ pages: ClosedRange<Int>) async throws(TagSessionError) -> [UInt8] {
        let commands = try type2(.read)
        return try await perform(.read) { () throws(TagCommandError) in try await commands.readPages(pages) }
    }

    /// FAST_READ of `pages` (the chip must have FAST_READ), split to the reader's frame limit.
    public func fastRead(pages: ClosedRange<Int>) async throws(TagSessionError) -> [UInt8] {
        let commands = try type2(.read)
        return try await perform(.read) { () throws(TagCommandError) in try await commands.fastRead(pages: pages) }
    }

    /// WRITE of one page (4 bytes).
    public func write(page: Int, bytes: [UInt8]) async throws(TagSessionError) {
        let commands = try type2(.write)
        try await perform(.write) { () throws(TagCommandError) in try await commands.write(page: page, bytes: bytes) }
    }

    /// COMPATIBILITY_WRITE of one page (16 bytes sent, the first 4 written).
    public func compatibilityWrite(page: Int, bytes: [UInt8]) async throws(TagSessionError) {
        let commands = try type2(.write)
        try await perform(.write) { () throws(TagCommandError) in try await commands.compatibilityWrite(page: page, bytes: bytes) }
    }

    /// GET_VERSION: the 8-byte product version.
    public func getVersion() async throws(TagSessionError) -> [UInt8] {
        let commands = try type2(.getVersion)
        return try await perform(.getVersion) { () throws(TagCommandError) in try await commands.getVersion() }
    }

    /// PWD_AUTH with a 4-byte password; returns the PACK, checked against `expectedPACK`
    /// when given. Pages behind AUTH0 open until the tag leaves the field or is selected
    /// again. A wrong password: ``TagSessionError/command(operation:_:)`` with
    /// `TagCommandError.authenticationFailed`.
    @discardableResult
    public func authenticate(password: [UInt8], expectedPACK: [UInt8]? = nil) async throws(TagSessionError) -> [UInt8] {
        let commands = try type2(.authenticate)
        return try await perform(.authenticate) { () throws(TagCommandError) in
            try await commands.authenticate(password: password, expectedPACK: expectedPACK)
        }
    }

    /// The configuration pages decoded (MIRROR, AUTH0, PROT, CFGLCK, NFC_CNT_EN,
    /// NFC_CNT_PWD_PROT, AUTHLIM, …). Authenticate first when PROT protects them.
    public func readConfiguration() async throws(TagSessionError) -> Type2Configuration {
        let commands = try type2(.readConfiguration)
        return try await perform(.readConfiguration) { () throws(TagCommandError) in try await commands.readConfiguration() }
    }

    /// Writes `configuration` back (only the pages that change; turning protection on goes
    /// through ``protect(password:pack:from:readProtected:authLimit:lockConfiguration:currentPassword:consent:)``).
    /// CFGLCK or a finite AUTHLIM need `consent`. Returns the pages written.
    ///
    /// ```swift
    /// var config = try await session.readConfiguration()
    /// config.isNFCCounterEnabled = true
    /// try await session.writeConfiguration(config)
    /// ```
    @discardableResult
    public func writeConfiguration(_ configuration: Type2Configuration, consent: IrreversibleConsent = []) async throws(TagSessionError) -> [Int] {
        let commands = try type2(.writeConfiguration)
        return try await perform(.writeConfiguration) { () throws(TagCommandError) in
            try await commands.writeConfiguration(configuration, consent: consent)
        }
    }

    /// READ_SIG and its check against the chip's published NXP key from the tables, or
    /// `publicKey` (uncompressed point `04 ‖ X ‖ Y`) when given. The verdict is valid,
    /// invalid, or no key known.
    ///
    /// ```swift
    /// let report = try await session.verifyOriginality()
    /// report.verification                      // .valid(keyName: "ntag21x") on a genuine NTAG
    /// ```
    public func verifyOriginality(publicKey: [UInt8]? = nil) async throws(TagSessionError) -> OriginalityReport {
        let commands = try type2(.readSignature)
        return try await perform(.readSignature) { () throws(TagCommandError) in
            try await commands.verifyOriginality(publicKey: publicKey)
        }
    }

    /// READ_SIG alone: the 32 signature bytes.
    public func readSignature() async throws(TagSessionError) -> [UInt8] {
        let commands = try type2(.readSignature)
        return try await perform(.readSignature) { () throws(TagCommandError) in try await commands.readSignature() }
    }

    /// The name of the NXP key the tables hold for this chip, `nil` when none is known.
    public nonisolated var originalityKeyName: String? {
        chip.flatMap { ChipTables.originalitySignatureKey(for: $0)?.name.rawValue }
    }
}

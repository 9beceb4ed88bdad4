import NFCChips
import NFCTags

/// Chip details beside NDEF, for `nfctag info` and diagnostics: configuration, lock
/// bytes, originality signature. Type 2 chips only (NTAG21x, Ultralight family).
extension NDEFSessionTag {
    /// The chip's memory map from the tables (`nil` for unknown or non-page chips).
    public var memory: MemoryMap? {
        chip.flatMap { ChipTables.spec(for: $0).memory }
    }

    /// The configuration pages decoded (AUTH0, PROT, CFGLCK, counter settings, AUTHLIM…).
    /// Read-protected configuration needs ``NDEFSessionConfiguration/password``.
    public func readConfiguration() async throws(NDEFSessionError) -> Type2Configuration {
        try await session.performCommands(on: self) { commands throws(TagCommandError) in
            try await commands.readConfiguration()
        }
    }

    /// READ_SIG, verified for the UID against the chip's published key (or `publicKey`).
    public func verifyOriginality(publicKey: [UInt8]? = nil) async throws(NDEFSessionError) -> OriginalityReport {
        try await session.performCommands(on: self) { commands throws(TagCommandError) in
            try await commands.verifyOriginality(publicKey: publicKey)
        }
    }

    /// The static and dynamic lock bytes, the capability container, and the locked pages.
    public func readLockState() async throws(NDEFSessionError) -> NDEFTagLockState {
        try await session.performCommands(on: self) { commands throws(TagCommandError) in
            let map = commands.memory
            let field = map.staticLock
            let header = try await commands.read(page: field.page)
            let staticLock = Array(header[field.byte..<(field.byte + field.length)])
            let ccPage = map.capabilityContainer.page
            let ccOffset = (ccPage - field.page) * map.pageSize
            let capabilityContainer =
                ccOffset >= 0 && ccOffset + map.pageSize <= header.count
                ? Array(header[ccOffset..<(ccOffset + map.pageSize)])
                : Array(try await commands.read(page: ccPage).prefix(map.pageSize))
            var dynamicLock: [UInt8] = []
            if let dynamic = map.dynamicLock {
                dynamicLock = Array(try await commands.read(page: dynamic.page).prefix(dynamic.byteCount))
            }
            return NDEFTagLockState(
                staticLockBytes: staticLock, dynamicLockBytes: dynamicLock, capabilityContainer: capabilityContainer,
                lockedPages: NDEFTagLockState.pagesLocked(staticLock: staticLock, dynamicLock: dynamicLock, map: map))
        }
    }
}

extension NDEFSession {
    /// Runs Type 2 chip commands on the connected `tag`, holding the gate.
    func performCommands<T: Sendable>(
        on tag: NDEFSessionTag,
        _ body: @Sendable (Type2Commands) async throws(TagCommandError) -> T
    ) async throws(NDEFSessionError) -> T {
        try await performSteps(on: tag, exclusive: false) { () async throws(NDEFSessionError) -> T in
            guard let commands = tag.commands else {
                throw .unsupportedTag(reason: "\(tag.detected.chipName) has no Type 2 page commands")
            }
            let failure: TagCommandError
            do throws(TagCommandError) {
                return try await body(commands)
            } catch {
                failure = error
            }
            let loss = await readerLoss()
            throw NDEFSessionError(failure, readerLoss: loss)
        }
    }
}

import NFCChips
import NFCTags

// MARK: - Pages: READ, WRITE, COMPATIBILITY_WRITE, lock bytes, memory images

extension NFCType2Tag {
    /// READ: 16 bytes from `page` on (four pages, wrapping at the end of memory as the chip does).
    public func read(page: Int) async throws(TagSessionError) -> [UInt8] {
        let commands = try session.type2(.read)
        return try await session.perform(.read) { () throws(TagCommandError) in try await commands.read(page: page) }
    }

    /// FAST_READ of `pages`, split to the reader's frame limit (READ on chips without FAST_READ).
    ///
    /// ```swift
    /// let user = try await ntag.readPages(ntag.userPages)
    /// ```
    public func readPages(_ pages: ClosedRange<Int>) async throws(TagSessionError) -> [UInt8] {
        let commands = try session.type2(.read)
        return try await session.perform(.read) { () throws(TagCommandError) in try await commands.readPages(pages) }
    }

    /// The static and dynamic lock bytes, the capability container, and the pages those
    /// bits lock (the byte positions from the chip's table).
    ///
    /// ```swift
    /// let locks = try await ntag.readLockState()
    /// locks.isCapabilityContainerReadOnly   // true after writeLock()
    /// ```
    public func readLockState() async throws(TagSessionError) -> NDEFTagLockState {
        let commands = try session.type2(.read)
        let map = memory
        return try await session.perform(.read) { () throws(TagCommandError) in
            let field = map.staticLock
            let header = try await commands.read(page: field.page)
            let staticLock = Array(header[field.byte..<(field.byte + field.length)])
            let ccOffset = (map.capabilityContainer.page - field.page) * map.pageSize
            let capabilityContainer =
                ccOffset >= 0 && ccOffset + map.pageSize <= header.count
                ? Array(header[ccOffset..<(ccOffset + map.pageSize)])
                : Array(try await commands.read(page: map.capabilityContainer.page).prefix(map.pageSize))
            var dynamicLock: [UInt8] = []
            if let dynamic = map.dynamicLock {
                dynamicLock = Array(try await commands.read(page: dynamic.page).prefix(dynamic.byteCount))
            }
            return NDEFTagLockState(
                staticLockBytes: staticLock, dynamicLockBytes: dynamicLock, capabilityContainer: capabilityContainer,
                lockedPages: NDEFTagLockState.pagesLocked(staticLock: staticLock, dynamicLock: dynamicLock, map: map))
        }
    }

    /// WRITE of one page (4 bytes).
    public func write(page: Int, bytes: [UInt8]) async throws(TagSessionError) {
        let commands = try session.type2(.write)
        try await session.perform(.write) { () throws(TagCommandError) in
            try await commands.write(page: page, bytes: bytes)
        }
    }

    /// COMPATIBILITY_WRITE of one page (16 bytes sent, the first 4 written).
    public func compatibilityWrite(page: Int, bytes: [UInt8]) async throws(TagSessionError) {
        let commands = try session.type2(.write)
        try await session.perform(.write) { () throws(TagCommandError) in
            try await commands.compatibilityWrite(page: page, bytes: bytes)
        }
    }

    /// Reads every readable page into a memory image (authenticate first when pages are
    /// read-protected). `progress` is called after every exchange with the tag.
    ///
    /// ```swift
    /// let dump = try await ntag.dump()
    /// try Data(dump.jsonBytes()).write(to: url)
    /// ```
    public func dump(progress: (@Sendable (TagSessionProgress) -> Void)? = nil) async throws(TagSessionError)
        -> TagMemoryDump
    {
        try await session.dumpMemory(classicKeys: [], progress: progress)
    }

    /// Writes `dump` back: user pages always; OTP and lock pages only with
    /// `RestoreOptions.otpPages` / `RestoreOptions.lockPages` and
    /// `IrreversibleConsent.lockAndOTPBits`; configuration only with
    /// `RestoreOptions.configuration`; UID, PWD / PACK and counters never. Only pages that
    /// differ are written.
    ///
    /// - Returns: the pages written, in order.
    @discardableResult
    public func restore(
        _ dump: TagMemoryDump, options: RestoreOptions = [], consent: IrreversibleConsent = [],
        progress: (@Sendable (TagSessionProgress) -> Void)? = nil
    ) async throws(TagSessionError) -> [Int] {
        try await session.restoreMemory(dump, options: options, consent: consent, classicKeys: nil, progress: progress)
    }
}

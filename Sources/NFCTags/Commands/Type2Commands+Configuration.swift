import NFCChips

/// Reading and writing the configuration pages.
extension Type2Commands {
    /// Reads the configuration pages (authenticate first when PROT protects them).
    package func readConfiguration() async throws(TagCommandError) -> Type2Configuration {
        guard let configuration = memory.configuration, let first = configuration.pages.first,
            let last = configuration.pages.last
        else {
            throw .featureNotSupported(feature: "configuration pages", chip: chip)
        }
        let bytes = try await readPages(first...last)
        var pages: [Int: [UInt8]] = [:]
        for page in configuration.pages {
            let offset = (page - first) * memory.pageSize
            pages[page] = Array(bytes[offset..<(offset + memory.pageSize)])
        }
        return try Type2Configuration(chip: chip, pages: pages)
    }

    /// Writes `configuration` back: only the pages whose bytes change, AUTH0's page last
    /// and CFGLCK after it. Turning protection on is refused here — use
    /// ``protect(password:pack:from:readProtected:authLimit:lockConfiguration:currentPassword:consent:)``,
    /// which proves the password first. Irreversible changes need `consent`.
    ///
    /// ```swift
    /// var config = try await tag.readConfiguration()
    /// config.isNFCCounterEnabled = true
    /// let written = try await tag.writeConfiguration(config)   // [0x84] on NTAG215
    /// ```
    /// - Returns: the pages written, in order.
    @discardableResult
    package func writeConfiguration(_ configuration: Type2Configuration, consent: IrreversibleConsent = [])
        async throws(TagCommandError) -> [Int]
    {
        guard configuration.chip == chip else {
            throw .invalidArgument("configuration of \(configuration.chip.rawValue), tag is \(chip.rawValue)")
        }
        let current = try Type2Configuration(chip: chip, pages: configuration.pages)
        if configuration.isProtectionActive, !current.isProtectionActive {
            throw .invalidArgument("turning protection on goes through protect(…), which proves the password first")
        }
        let missing = consent.missing(for: configuration.irreversibleChanges(from: current))
        guard missing.isEmpty else { throw .irreversibleNotConsented(missing) }
        var written: [Int] = []
        for step in try PasswordFlowPlanner.configurationWrites(from: current, to: configuration) {
            guard case .write(let page, let bytes) = step.action else { continue }
            try await write(page: page, bytes: bytes)
            written.append(page)
        }
        return written
    }
}

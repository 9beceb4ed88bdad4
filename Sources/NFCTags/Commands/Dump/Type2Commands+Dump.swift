import NFCChips

/// Dump and restore of Type 2 memory.
extension Type2Commands {
    /// What `page` holds, by the chip's tables.
    package func role(ofPage page: Int) -> PageRole {
        if let password = memory.configuration?.password, page == password.pwdPage || page == password.packPage {
            return .secret
        }
        if let auth = spec.ultralightCAuthentication, (auth.firstKeyPage...auth.lastKeyPage).contains(page) {
            return .secret
        }
        if page == memory.staticLock.page || page == memory.dynamicLock?.page { return .lock }
        if memory.identification.contains(where: { $0.page == page }) { return .uid }
        if page == memory.capabilityContainer.page { return .otp }
        if memory.configuration?.pages.contains(page) == true { return .configuration }
        if spec.counters.contains(where: { $0.page == page }) { return .counter }
        if memory.userPages.contains(page) { return .user }
        return .other
    }

    /// Reads every readable page (authenticate first when pages are read-protected).
    package func dump() async throws(TagCommandError) -> TagMemoryDump {
        let bytes = try await readPages(0...memory.lastReadablePage)
        let pages = stride(from: 0, to: bytes.count, by: memory.pageSize).map {
            Array(bytes[$0..<($0 + memory.pageSize)])
        }
        return TagMemoryDump(chip: chip, uid: transport.target.uid, pages: pages)
    }

    /// Writes a dump back: user pages always, lock / OTP pages and configuration only when
    /// `options` says so (lock and OTP bits also need consent), UID, secrets and counters
    /// never. Only pages that differ from the tag are written — user pages first, OTP,
    /// configuration, and lock pages last — then the user pages are read back.
    ///
    /// ```swift
    /// let dump = try TagMemoryDump(jsonBytes: fileBytes)
    /// let written = try await tag.restore(dump)     // user pages only
    /// ```
    /// - Returns: the pages written, in order.
    @discardableResult
    package func restore(_ dump: TagMemoryDump, options: RestoreOptions = [], consent: IrreversibleConsent = [])
        async throws(TagCommandError) -> [Int]
    {
        try dump.validate()
        guard dump.chip == chip, let pages = dump.pages else {
            throw .invalidArgument("the dump is of \(dump.chip.rawValue), the tag is \(chip.rawValue)")
        }
        let current = try await self.dump()
        guard let now = current.pages else { return [] }
        func differing(_ kind: PageRole) -> [Int] {
            pages.indices.filter { role(ofPage: $0) == kind && pages[$0] != now[$0] && $0 >= memory.firstWritablePage }
        }
        var oneWay: [IrreversibleChange] = []
        if options.contains(.otpPages) { oneWay += differing(.otp).map { .lockOrOTPBits(page: $0) } }
        if options.contains(.lockPages) { oneWay += differing(.lock).map { .lockOrOTPBits(page: $0) } }
        let missing = consent.missing(for: oneWay)
        guard missing.isEmpty else { throw .irreversibleNotConsented(missing) }

        var written: [Int] = []
        for page in differing(.user) {
            try await write(page: page, bytes: pages[page])
            written.append(page)
        }
        if options.contains(.otpPages) {
            for page in differing(.otp) {
                try await write(page: page, bytes: pages[page])
                written.append(page)
            }
        }
        if options.contains(.configuration), memory.configuration != nil {
            var target = try await readConfiguration()
            let wanted = try Type2Configuration(
                chip: chip, pages: Dictionary(uniqueKeysWithValues: target.pages.keys.map { ($0, pages[$0]) }))
            target.values = wanted.values
            written += try await writeConfiguration(target, consent: consent)
        }
        if options.contains(.lockPages) {
            for page in differing(.lock) {
                try await write(page: page, bytes: pages[page])
                written.append(page)
            }
        }
        let check = try await readPages(memory.userPages)
        let expected = memory.userPages.flatMap { pages[$0] }
        if let index = zip(check, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            throw .verificationFailed(
                "user memory reads back different at byte \(index) (page \(memory.firstUserPage + index / memory.pageSize))"
            )
        }
        return written
    }
}

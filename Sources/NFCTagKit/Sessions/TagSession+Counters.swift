import NFCChips
import NFCTags

/// The NTAG21x NFC counter and the Ultralight EV1 counters with their tearing flags.
extension TagSession {
    /// The counters READ_CNT can read on this chip, from its table: the NFC counter's
    /// address on NTAG21x, 0…2 on Ultralight EV1, none elsewhere.
    public nonisolated var counterAddresses: [UInt8] {
        guard let chip else { return [] }
        return ChipTables.spec(for: chip).counters
            .filter { $0.kind == .nfcReadCounter || $0.kind == .incrementCounters }
            .flatMap(\.addresses)
    }

    /// READ_CNT of counter `address`.
    public func readCounter(_ address: UInt8) async throws(TagSessionError) -> Int {
        let commands = try type2(.readCounter)
        return try await perform(.readCounter) { () throws(TagCommandError) in try await commands.readCounter(address) }
    }

    /// The NTAG21x NFC read counter. Fails with a NAK while NFC_CNT_EN is off, or while
    /// NFC_CNT_PWD_PROT is on and no PWD_AUTH was done.
    ///
    /// ```swift
    /// try await session.setNFCCounter(enabled: true)
    /// let reads = try await session.readNFCCounter()
    /// ```
    public func readNFCCounter() async throws(TagSessionError) -> Int {
        let commands = try type2(.readCounter)
        return try await perform(.readCounter) { () throws(TagCommandError) in try await commands.readNFCCounter() }
    }

    /// The Ultralight EV1 one-way counters, in address order.
    public func readCounters() async throws(TagSessionError) -> [Int] {
        let commands = try type2(.readCounter)
        let chip = commands.chip
        let addresses = commands.spec.counters.filter { $0.kind == .incrementCounters }.flatMap(\.addresses)
        guard !addresses.isEmpty else {
            throw .notSupported(operation: .readCounter, chip: chip, detail: "it has no INCR_CNT counters")
        }
        var values: [Int] = []
        for address in addresses {
            values.append(try await perform(.readCounter) { () throws(TagCommandError) in try await commands.readCounter(address) })
        }
        return values
    }

    /// INCR_CNT: adds `amount` to Ultralight EV1 counter `address` (one-way).
    public func incrementCounter(_ address: UInt8, by amount: Int) async throws(TagSessionError) {
        let commands = try type2(.incrementCounter)
        try await perform(.incrementCounter) { () throws(TagCommandError) in
            try await commands.incrementCounter(address, by: amount)
        }
    }

    /// CHECK_TEARING_EVENT of Ultralight EV1 counter `address`.
    public func checkTearingEvent(_ address: UInt8) async throws(TagSessionError) -> TearingFlag {
        let commands = try type2(.checkTearingEvent)
        return try await perform(.checkTearingEvent) { () throws(TagCommandError) in
            try await commands.checkTearingEvent(address)
        }
    }

    /// Turns the NTAG21x NFC counter on or off (NFC_CNT_EN) and, when given, its password
    /// protection (NFC_CNT_PWD_PROT). Writes only when something changes. Authenticate
    /// first when the configuration is write-protected.
    ///
    /// - Returns: the configuration now on the tag.
    @discardableResult
    public func setNFCCounter(enabled: Bool, passwordProtected: Bool? = nil) async throws(TagSessionError) -> Type2Configuration {
        let commands = try type2(.writeConfiguration)
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

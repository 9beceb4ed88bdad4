import NDEF

/// NDEF on NFC Forum Type 2 tags: NTAG213/215/216, MIFARE Ultralight, Ultralight EV1 and
/// Ultralight C.
///
/// Status comes from the CC, the static and dynamic lock bits (lock pages from the chip
/// table) and the password configuration (AUTH0 inside the NDEF area makes it read-only
/// without authentication). Reads use FAST_READ where the chip has it, split to the
/// reader's frame size. Writes follow ``Type2WritePlan``, driven by ``NDEFWriteMachine``.
///
/// ```swift
/// let driver = try NDEFTagDrivers.driver(for: .ntag213, transport: transport)
/// try await driver.writeMessage(message)
/// ```
package actor Type2NDEFDriver: NDEFTagDriver {
    let io: Type2PageIO
    let profile: Type2TagProfile
    let mapping: Type2Mapping
    /// The message bytes this driver last read back and verified (for the lock guard).
    private var verifiedMessage: [UInt8]?
    /// The dynamic lock and configuration pages as this connection read them, reused by
    /// later calls: nothing but this driver's own lock changes them while the tag stays
    /// selected for the connection (a lock, a format and ``forgetConfiguration()`` drop them).
    private var knownConfiguration: [UInt8]?

    init(
        profile: Type2TagProfile, mapping: Type2Mapping, transport: any TagTransport,
        passwordAuthenticated: Bool = false
    ) {
        self.io = Type2PageIO(transport: transport, profile: profile)
        self.profile = profile
        self.mapping = mapping
        self.passwordAuthenticated = passwordAuthenticated
    }

    /// The caller authenticated with PWD_AUTH on this connection (and re-authenticates
    /// after every re-selection): the password-protected area is writable.
    private(set) var passwordAuthenticated: Bool

    /// The caller authenticated, or stopped presenting a password, since the driver was made
    /// (a ``TagSession`` user ran PWD_AUTH or protected the tag): the protected area is
    /// judged afresh, and a message verified on this connection stays verified.
    package func setPasswordAuthenticated(_ authenticated: Bool) {
        passwordAuthenticated = authenticated
    }

    // MARK: NDEFTagDriver

    /// Reads the lock bytes, the CC, the TLVs as far as the message and the lock and
    /// configuration pages (on chips with FAST_READ; the whole TLV area on the others).
    package func queryStatus() async throws(NDEFTagError) -> NDEFStatus {
        try await readPartialSnapshot { $0.dataPages?.upperBound }.status()
    }

    /// Reads and decodes the NDEF message.
    package func readMessage() async throws(NDEFTagError) -> NDEFMessage {
        verifiedMessage = nil
        let snapshot: Type2TagSnapshot
        if let partial = try await readMessageSnapshot() {
            snapshot = partial
        } else {
            snapshot = try await readSnapshot()
        }
        let (bytes, addresses) = try snapshot.messageBytes()
        let message = try NDEFMessage.fromTagBytes(bytes, addresses: addresses)
        verifiedMessage = bytes
        return message
    }

    /// Writes `message` tear-safely, only the pages that change unless `options.fullWrite`.
    package func writeMessage(
        _ message: NDEFMessage, options: NDEFWriteOptions, progress: @Sendable (NDEFWriteProgress) -> Void
    ) async throws(NDEFTagError) {
        verifiedMessage = nil
        let bytes = try message.tagBytes()
        let snapshot = try await readWriteSnapshot(tlvLength: 1 + mapping.lengthField(bytes.count).count + bytes.count)
        let status: NDEFStatus
        do throws(NDEFTagError) {
            status = try snapshot.status()
        } catch .invalidTLV {
            // A corrupt TLV area is repaired by writing over it at the first bad TLV.
            status = NDEFStatus(
                availability: snapshot.writeBlock == nil ? .readWrite : .readOnly,
                capacity: snapshot.capacity, length: 0)
        }
        if status.availability == .notSupported {
            throw .invalidCapabilityContainer(
                offset: profile.capabilityContainerPage * profile.pageSize,
                reason: .notFormatted(found: snapshot.memory[profile.capabilityContainerPage * profile.pageSize]))
        }
        guard bytes.count <= status.capacity else {
            throw .tagSizeTooSmall(needed: bytes.count, capacity: status.capacity)
        }
        guard status.availability == .readWrite else { throw .tagNotWritable }
        guard let plan = Type2WritePlan(snapshot: snapshot, message: bytes, fullWrite: options.fullWrite) else {
            throw .tagSizeTooSmall(needed: bytes.count, capacity: status.capacity)
        }
        try await run(plan, progress: progress)
        verifiedMessage = bytes
    }

    /// Sets the CC write nibble, then the static lock bits, then the dynamic lock bits.
    package func makeReadOnly(force: Bool) async throws(NDEFTagError) {
        // The lock sets dynamic lock bits: read them afresh, and again after it.
        knownConfiguration = nil
        defer { knownConfiguration = nil }
        let snapshot = try await readSnapshot()
        let (bytes, _) = try snapshot.messageBytes()
        guard force || verifiedMessage == bytes else { throw .notVerified }
        if case .password = snapshot.writeBlock {
            throw .authenticationRequired(step: .writeCapabilityContainer(page: profile.capabilityContainerPage))
        }
        let plan = Type2LockPlan(snapshot: snapshot)
        try await runLock(plan)
    }

    /// Writes the CC and an empty NDEF TLV (the chip's factory TLV area) on a blank tag.
    package func format(force: Bool) async throws(NDEFTagError) {
        verifiedMessage = nil
        knownConfiguration = nil
        defer { knownConfiguration = nil }
        let snapshot = try await readSnapshot()
        if snapshot.hasNDEF, !force { throw .alreadyFormatted }
        let plan = try Type2FormatPlan(snapshot: snapshot)
        try await runFormat(plan)
        verifiedMessage = []
    }

    // MARK: Reading

    /// Reads the header, the lock / configuration pages and the data area.
    func readSnapshot() async throws(NDEFTagError) -> Type2TagSnapshot {
        var memory = [UInt8](repeating: 0, count: profile.pageCount * profile.pageSize)
        let header = try await io.readFourPages(at: 0, step: .readCapabilityContainer)
        memory.replaceSubrange(0..<header.count, with: header)
        let ccAddress = profile.capabilityContainerPage * profile.pageSize
        let cc: Result<Type2CapabilityContainerPage, NDEFTagError>
        do throws(NDEFTagError) {
            cc = .success(
                try Type2CapabilityContainerPage(
                    bytes: Array(memory[ccAddress..<(ccAddress + profile.pageSize)]), address: ccAddress,
                    mapping: mapping))
        } catch {
            cc = .failure(error)
        }

        let configurationReadable = try await readConfiguration(into: &memory)
        var scan: Type2TLVScan?
        if case .success(let container) = cc {
            let start = mapping.dataAreaStartByte
            let end = start + container.dataAreaBytes
            guard end <= (profile.lastUserPage + 1) * profile.pageSize else {
                throw .invalidCapabilityContainer(offset: ccAddress + 2, reason: .invalidSize(container.dataAreaBytes))
            }
            if end > start {
                let pages = (start / profile.pageSize)...((end - 1) / profile.pageSize)
                let data: [UInt8]
                do throws(NDEFTagError) {
                    data = try await io.readPages(pages) { .readData(page: $0) }
                } catch .nak(_, let step) {
                    throw .authenticationRequired(step: step)
                }
                memory.replaceSubrange(
                    (pages.lowerBound * profile.pageSize)..<(pages.lowerBound * profile.pageSize + data.count),
                    with: data)
            }
            scan = Type2TLVScan(
                memory: memory, area: Type2DataArea(start: start, end: end),
                memorySize: memory.count, mapping: mapping)
        }
        return Type2TagSnapshot(
            profile: profile, mapping: mapping, memory: memory, capabilityContainer: cc,
            scan: scan, configurationReadable: configurationReadable,
            passwordAuthenticated: passwordAuthenticated)
    }

    /// The snapshot a write of a TLV of `tlvLength` bytes needs: the partial snapshot (see
    /// ``readPartialSnapshot(probing:)``, the probe at the last page the TLV will span), and
    /// past the old message only the pages the TLV shares with bytes it must keep. The rest
    /// of the data area is written blind.
    func readWriteSnapshot(tlvLength: Int) async throws(NDEFTagError) -> Type2TagSnapshot {
        var snapshot = try await readPartialSnapshot { Type2WritePlan.lastPage(before: $0, tlvLength: tlvLength) }
        if let probe = snapshot.passwordProbe, !probe.readable {
            throw .authenticationRequired(step: .readData(page: probe.page))
        }
        if let knownEnd = snapshot.knownEnd,
            let last = Type2WritePlan.lastPageToRead(before: snapshot, tlvLength: tlvLength)
        {
            let first = knownEnd / profile.pageSize
            let data = try await io.readPages(first...last) { .readData(page: $0) }
            snapshot.memory.replaceSubrange(knownEnd..<(knownEnd + data.count), with: data)
            snapshot.knownEnd = knownEnd + data.count
        }
        return snapshot
    }

    /// Reads the dynamic lock and configuration pages into `memory`, or takes them from an
    /// earlier read on this connection. False when PROT covers the configuration (the
    /// dynamic lock bytes are still read where they can be; nothing is kept then).
    func readConfiguration(into memory: inout [UInt8]) async throws(NDEFTagError) -> Bool {
        // FAST_READ (where the chip has it) NAKs a range that PROT covers; READ would roll
        // over silently at AUTH0 and show page 0 instead.
        let configurationPages = profile.configurationPages
        guard let first = configurationPages.first, let last = configurationPages.last else { return true }
        let start = first * profile.pageSize
        if let known = knownConfiguration {
            memory.replaceSubrange(start..<(start + known.count), with: known)
            return true
        }
        do throws(NDEFTagError) {
            let bytes = try await io.readPages(first...last) { .readConfiguration(page: $0) }
            memory.replaceSubrange(start..<(start + bytes.count), with: bytes)
            knownConfiguration = bytes
            return true
        } catch .nak {
            // PROT covers the configuration pages: a read of the data area (or the password
            // probe of a partial snapshot) tells whether it reaches the NDEF area.
            if let dynamicLock = profile.dynamicLock,
                let bytes = try? await io.readPages(
                    dynamicLock.page...dynamicLock.page, step: { .readConfiguration(page: $0) })
            {
                memory.replaceSubrange(
                    (dynamicLock.page * profile.pageSize)..<((dynamicLock.page + 1) * profile.pageSize), with: bytes)
            }
            return false
        }
    }

    /// Drops the configuration pages this connection read: the next call reads them again.
    /// For whoever may have changed them other than this driver (a configuration write on the
    /// same connection, another user of the field).
    package func forgetConfiguration() {
        knownConfiguration = nil
    }

    // MARK: Writing

    /// Carries out a write plan through its state machine, then verifies.
    private func run(_ plan: Type2WritePlan, progress: @Sendable (NDEFWriteProgress) -> Void) async throws(NDEFTagError)
    {
        try await NDEFWriteMachine.run(
            phases: plan.writes.map(\.phase), previousReadsEmpty: plan.previousReadsEmpty,
            progress: progress
        ) { index, machine throws(NDEFTagError) in
            let write = plan.writes[index]
            do throws(Type2PageIO.WriteFailure) {
                try await io.writePage(write.page, write.bytes)
            } catch {
                throw failure(error, step: write.step) { machine.stateAfterFailure(mayHaveReachedTag: $0) }
            }
        } verify: { tagHolds throws(NDEFTagError) in
            for run in plan.verifyRuns {
                try await verify(run, against: plan.finalMemory, state: tagHolds)
            }
        }
    }

    /// Reads `pages` back and compares them with `expected`.
    func verify(_ pages: ClosedRange<Int>, against expected: [UInt8], state: NDEFTagContentState)
        async throws(NDEFTagError)
    {
        let data: [UInt8]
        do throws(NDEFTagError) {
            data = try await io.readPages(pages) { .verify(page: $0) }
        } catch {
            throw Self.verificationError(error, state: state)
        }
        let base = pages.lowerBound * profile.pageSize
        for (index, byte) in data.enumerated() where expected[base + index] != byte {
            throw .tagUpdateFailure(
                step: .verify(page: (base + index) / profile.pageSize), state: .unknown,
                reason: .verificationMismatch(offset: base + index))
        }
    }

    /// Turns a read error during verification into the error that carries the tag state.
    static func verificationError(_ error: NDEFTagError, state: NDEFTagContentState) -> NDEFTagError {
        switch error {
        case .connectionLost(let step, _): .connectionLost(step: step, state: state)
        case .timeout(let step): .tagUpdateFailure(step: step, state: state, reason: .timeout)
        case .nak(let code, let step): .tagUpdateFailure(step: step, state: state, reason: .nak(code))
        case .readerFailure(let step, let reason):
            .tagUpdateFailure(step: step, state: state, reason: .readerFailure(reason))
        case .unexpectedResponse(let step, let description):
            .tagUpdateFailure(step: step, state: state, reason: .unexpectedResponse(description))
        default: error
        }
    }

    /// The error for a failed page write; `state` says what the tag holds given whether the
    /// write may have reached it.
    func failure(_ error: Type2PageIO.WriteFailure, step: NDEFTagStep, state: (Bool) -> NDEFTagContentState)
        -> NDEFTagError
    {
        switch error {
        case .nak(let code): .tagUpdateFailure(step: step, state: state(false), reason: .nak(code))
        case .unexpected(let description):
            .tagUpdateFailure(step: step, state: state(true), reason: .unexpectedResponse(description))
        case .transport(let transportError): .writing(transportError, step: step, state: state(true))
        }
    }
}

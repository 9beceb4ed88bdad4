import NFCChips
import NFCTags

/// One tag, connected and identified, for what NDEF never does: raw commands, pages and
/// blocks, configuration, password protection, counters, the originality signature,
/// Ultralight C keys, MIFARE Classic keys and trailers, whole memory images.
///
/// The session is the connection: one tag alone in the field, selected and identified
/// exactly. ``tag`` hands out what the tag is — an ``NFCType2Tag``,
/// ``NFCMiFareClassicTag`` or ``NFCISODEPTag`` — and each of those carries only the
/// commands of its family, built in `NFCTags` from the datasheet tables. Every failure is a
/// ``TagSessionError`` that names the step and tells a tag that left the field from a
/// reader that went away — never a hang: every exchange has the table's timeout.
///
/// The session runs on the ``NFCDevice``'s own thread, beside ``NDEFSession``; it never
/// opens libnfc itself. One user of the tag at a time: each command holds the device's tag
/// access. After a NAK the session selects the tag again (the NAK dropped it to IDLE), so
/// the next call works — but any authentication is lost.
///
/// ```swift
/// let session = try await TagSession.connect(on: device, timeout: .seconds(10))
/// print(session.chip ?? "unknown")                                  // ntag215
/// let answer = try await session.send([0x30, 0x04])                 // READ page 4: 16 bytes
/// let ntag = try session.type2Tag()
/// let plan = try await ntag.planProtection(password: pwd, pack: pack, from: ntag.userPages.lowerBound, readProtected: false)
/// try await ntag.protect(password: pwd, pack: pack, from: ntag.userPages.lowerBound, readProtected: false)
/// ```
public actor TagSession {
    /// The device the tag is selected on.
    public nonisolated let device: NFCDevice
    /// The tag as the reader found it: a type A tag's UID, ATQA, SAK and ATS, or a FeliCa
    /// card's IDm, PMm and system code.
    public nonisolated let target: NFCTarget
    /// What identification found: the chip (or unknown) and the raw answers.
    public nonisolated let identification: TagIdentificationReport
    /// The link to the tag that every command uses.
    nonisolated let transport: any TagTransport
    /// The password or key that last opened the tag, presented again after a re-selection
    /// inside the NDEF calls (``NFCNDEFTag``).
    nonisolated let credentials = TagCredentials()
    /// Whether every NDEF write and lock looks at the field again first (``connect(on:timeout:aloneCheckBeforeEveryWrite:)``).
    package nonisolated let aloneCheckBeforeEveryWrite: Bool
    /// The ``NDEFSession`` that handed this connection out, and the connection's number: each
    /// call first checks that the connection still stands, and a lost tag or reader, or a
    /// second tag, sends that session back to polling. `nil` for a session of its own.
    nonisolated let owner: (session: NDEFSession, connection: Int)?
    /// The NDEF driver of this connection, made at its first NDEF call: it remembers what it
    /// verified, which `writeLock` needs; and whether it was last told the tag is open.
    var ndefDriver: (driver: any NDEFTagDriver, authenticated: Bool)?
    /// The MAC session of a FeliCa Lite or Lite-S since ``NFCFeliCaTag/authenticate(cardKey:)``.
    var feliCaMAC: FeliCaMACSession?

    /// Keeps the MAC session a FeliCa authentication opened.
    func setFeliCaMAC(_ session: FeliCaMACSession) { feliCaMAC = session }

    /// The session shares the device's thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        device.unownedExecutor
    }

    /// The chip, or `nil` when it is unknown.
    public nonisolated var chip: Chip? { identification.chip }

    /// The tag's UID (a FeliCa card's IDm).
    public nonisolated var uid: [UInt8] { target.uid }

    /// A session on a tag already selected and identified (tests wrap the transport).
    init(
        device: NFCDevice, target: ISO14443ATarget, identification: TagIdentificationReport,
        transport: any TagTransport, aloneCheckBeforeEveryWrite: Bool = true,
        owner: (session: NDEFSession, connection: Int)? = nil
    ) {
        self.init(
            device: device, target: .iso14443A(target), identification: identification, transport: transport,
            aloneCheckBeforeEveryWrite: aloneCheckBeforeEveryWrite, owner: owner)
    }

    /// A session on a tag of any technology, already selected and identified.
    init(
        device: NFCDevice, target: NFCTarget, identification: TagIdentificationReport,
        transport: any TagTransport, aloneCheckBeforeEveryWrite: Bool = true,
        owner: (session: NDEFSession, connection: Int)? = nil
    ) {
        self.aloneCheckBeforeEveryWrite = aloneCheckBeforeEveryWrite
        self.owner = owner
        self.device = device
        self.target = target
        self.identification = identification
        self.transport = transport
    }

    /// Waits until a tag is in the field, checks that it is alone, selects and identifies
    /// it (ATQA / SAK, GET_VERSION, the Ultralight C probe — an NTAG215 is never taken for an
    /// Ultralight; an unknown chip keeps its raw answers in ``identification``).
    ///
    /// - Parameters:
    ///   - device: a connected device.
    ///   - timeout: how long to wait for a tag (`nil`: until cancelled).
    ///   - aloneCheckBeforeEveryWrite: `true` (the default): every NDEF write and lock first
    ///     looks at the field again, since a person may have added a tag. `false`, for a
    ///     station where nothing enters the field between the steps of one tag: the look that
    ///     found the tag alone (here, or the station's poll) stays its
    ///     alone check while nothing selects the tag again (a NAK, a password proven from a
    ///     fresh selection) — one look per tag for a write, verify and lock.
    /// - Throws: ``TagSessionError/noTag`` after `timeout`,
    ///   ``TagSessionError/severalTags(uids:)`` when more than one tag answers,
    ///   ``TagSessionError/readerLost(operation:reason:)`` / ``TagSessionError/tagLost(operation:)``.
    public static func connect(
        on device: NFCDevice, timeout: Duration? = NFCDevice.defaultTimeout, aloneCheckBeforeEveryWrite: Bool = true
    ) async throws(TagSessionError) -> TagSession {
        try await device.withExclusiveTagAccess(purpose: "a tag session waiting for a tag", busy: TagSessionError.init)
        {
            () async throws(TagSessionError) -> TagSession in
            try await connectHoldingTagAccess(
                on: device, timeout: timeout, aloneCheckBeforeEveryWrite: aloneCheckBeforeEveryWrite)
        }
    }

    /// ``connect(on:timeout:)`` while the device's tag access is held.
    private static func connectHoldingTagAccess(
        on device: NFCDevice, timeout: Duration?, aloneCheckBeforeEveryWrite: Bool
    ) async throws(TagSessionError) -> TagSession {
        // A tag that a counting poll found alone and left selected (a station's
        // ``NFCDevice/pollField()``) is identified where it is: that poll is its alone check
        // while the identification leaves it selected. When the identification selected it
        // again or saw it fail (it may have left), the field is looked at and the tag
        // identified afresh below.
        if let proven = await device.targetAloneSincePoll {
            do throws(TagSessionError) {
                let session = try await identified(
                    device: device, target: proven,
                    transport: await DeviceTagTransport(device: device, target: proven),
                    aloneCheckBeforeEveryWrite: aloneCheckBeforeEveryWrite)
                if await device.targetAloneSincePoll?.uid == proven.uid { return session }
                // The identification selected the tag again or saw it fail: the tag may have
                // left and come back (IDLE, silent to GET_VERSION), so what it found is not
                // trusted (an NTAG would read as an Ultralight). Identify afresh below.
            } catch .readerLost(let operation, let reason) {
                throw .readerLost(operation: operation, reason: reason)
            } catch .cancelled {
                throw .cancelled
            } catch {
                // Not answering where it was: wait for a tag as usual.
            }
        }
        let occupancy: FieldOccupancy
        do throws(NFCDeviceError) {
            let first: ISO14443ATarget
            let found = try await device.waitForAnyTarget(timeout: timeout)
            guard case .iso14443A(let tag) = found else {
                // A FeliCa card, type B card or Type 1 tag: no type A tag answered the select
                // before its poll.
                let transport = await DeviceTagTransport(device: device, found: found)
                return TagSession(
                    device: device, target: found,
                    identification: TagIdentificationReport(activation: transport.target), transport: transport,
                    aloneCheckBeforeEveryWrite: aloneCheckBeforeEveryWrite)
            }
            first = tag
            occupancy = try await device.selectIfAlone(uid: first.uid, isoDEP: first.isISODEP)
        } catch {
            throw await failure(error, device: device, operation: .connect)
        }
        switch occupancy {
        case .alone(let selected):
            return try await identified(
                device: device, target: selected,
                transport: await DeviceTagTransport(device: device, target: selected),
                aloneCheckBeforeEveryWrite: aloneCheckBeforeEveryWrite)
        case .several:
            let inField: [ISO14443ATarget]
            do {
                inField = try await device.listTargets(maximum: 2)
            } catch {
                throw await failure(error, device: device, operation: .connect)
            }
            throw .severalTags(uids: inField.map(\.uid))
        case .absent, .aloneCard:
            throw .tagLost(operation: .connect)
        }
    }

    /// Identifies the tag behind `transport` and makes a session for it.
    static func identified(
        device: NFCDevice, target: ISO14443ATarget, transport: any TagTransport, aloneCheckBeforeEveryWrite: Bool = true
    ) async throws(TagSessionError) -> TagSession {
        let report: TagIdentificationReport
        do {
            report = try await TagIdentifier.identify(over: transport)
        } catch {
            throw await classify(error, device: device, uid: target.uid, operation: .identify)
        }
        return TagSession(
            device: device, target: target, identification: report, transport: transport,
            aloneCheckBeforeEveryWrite: aloneCheckBeforeEveryWrite)
    }

    /// Sends `bytes` to the tag and returns its answer: data, or an ACK. The reader adds
    /// and checks CRC_A. A NAK throws ``TagSessionError/command(operation:_:)`` with
    /// `TagCommandError.nak` (read it with ``TagSessionError/nakCode``),
    /// like Core NFC's `sendMiFareCommand`.
    ///
    /// - Parameters:
    ///   - bytes: the command frame, without CRC.
    ///   - framing: `nil` picks the chip's way: a raw frame for Type 2 tags (4-bit ACK / NAK
    ///     codes arrive) and for unknown chips; the reader's data exchange for MIFARE Classic
    ///     (Crypto1) and Type 4 (ISO-DEP).
    ///   - timeout: how long the tag may take (`nil`: the table's value for that command).
    ///
    /// ```swift
    /// let version = try await session.send([0x60]).bytes        // GET_VERSION
    /// ```
    public func send(_ bytes: [UInt8], framing: TagFraming? = nil, timeout: Duration? = nil)
        async throws(TagSessionError) -> RawAnswer
    {
        let chosen = framing ?? defaultFraming
        return try await perform(.send) { () throws(TagCommandError) in
            if let chip, ChipTables.spec(for: chip).family.isType2 {
                return try await Type2Commands(transport: transport, chip: chip).send(
                    bytes, framing: chosen, timeout: timeout)
            }
            return try await transport.send(bytes, framing: chosen, timeout: timeout)
        }
    }

    /// The framing ``send(_:framing:timeout:)`` uses when none is given.
    package nonisolated var defaultFraming: TagFraming {
        guard let chip else { return target.typeA?.ats.isEmpty ?? false ? .raw : .standard }
        return ChipTables.spec(for: chip).family.isType2 ? .raw : .standard
    }

    /// Selects the tag again: it leaves any authentication and is ACTIVE. Throws
    /// ``TagSessionError/tagLost(operation:)`` when it is gone.
    public func reselect() async throws(TagSessionError) {
        try await acquireTagAccess(for: .connect)
        defer { device.tagAccess.release() }
        do {
            try await transport.reselect()
        } catch {
            let failure = await Self.classify(.transport(error), device: device, uid: uid, operation: .connect)
            await tellOwner(failure)
            throw failure
        }
    }

    // MARK: - Running commands

    /// Runs `body` as the only user of the device's tag and turns its failure into the
    /// session error for `operation`. When another user (an ``NDEFSession`` poll, say) had
    /// the field since this session's last command, the tag is selected again first: any
    /// authentication (PWD_AUTH, 3DES, a Classic sector) does not outlast another user's turn.
    /// `reselected` runs when the tag was selected again first (its authentication is gone).
    func perform<Result: Sendable>(
        _ operation: TagSessionOperation,
        reselected: () async -> Void = {},
        _ body: () async throws(TagCommandError) -> Result
    ) async throws(TagSessionError) -> Result {
        let fieldUsedElsewhere = try await acquireTagAccess(for: operation)
        defer { device.tagAccess.release() }
        do throws(TagCommandError) {
            if fieldUsedElsewhere {
                do { try await transport.reselect() } catch { throw TagCommandError.transport(error) }
                await reselected()
            }
            return try await body()
        } catch {
            if case .nak = error { try? await transport.reselect() }
            let failure = await Self.classify(error, device: device, uid: uid, operation: operation)
            await tellOwner(failure)
            throw failure
        }
    }

    /// Waits for the device's tag access (``TagAccessGate``) for `operation`; returns
    /// whether another user had the field since this session's last turn.
    @discardableResult
    func acquireTagAccess(for operation: TagSessionOperation) async throws(TagSessionError) -> Bool {
        let fieldUsedElsewhere: Bool
        do {
            fieldUsedElsewhere = try await acquireTagAccess(
                purpose: "a tag session \(operation) on tag \(uid.hexString())")
        } catch {
            switch error {
            case .waiting(let failure): throw TagSessionError(failure)
            case .ended: throw .connectionEnded
            }
        }
        return fieldUsedElsewhere
    }

    /// Why the tag access was not granted: the wait failed, or the owner's connection ended.
    enum AccessFailure: Error {
        case waiting(TagAccessGate.WaitFailure)
        case ended(NDEFSessionError)
    }

    /// Waits for the device's tag access, then checks that the owner's connection (if any)
    /// still stands (before the wait too). An ``NDEFSession``'s connections take the access as that session does,
    /// so its polling and its connect count as this session's own turns.
    func acquireTagAccess(purpose: String) async throws(AccessFailure) -> Bool {
        // A connection that has already ended fails at once, without waiting for the reader.
        if let owner {
            do { try await owner.session.checkConnection(owner.connection) } catch { throw .ended(error) }
        }
        let fieldUsedElsewhere: Bool
        do {
            if let owner {
                fieldUsedElsewhere = try await device.tagAccess.acquire(owner: owner.session, purpose: purpose)
            } else {
                fieldUsedElsewhere = try await device.tagAccess.acquire(owner: self, purpose: purpose)
            }
        } catch {
            throw .waiting(error)
        }
        guard let owner else { return fieldUsedElsewhere }
        do {
            try await owner.session.checkConnection(owner.connection)
        } catch {
            device.tagAccess.release()
            throw .ended(error)
        }
        return fieldUsedElsewhere
    }

    /// Tells the owning ``NDEFSession`` that the tag or the reader is gone: it polls again.
    private func tellOwner(_ failure: TagSessionError) async {
        guard let owner else { return }
        let loss: DisconnectReason?
        switch failure {
        case .tagLost: loss = nil
        case .readerLost(_, let reason?): loss = reason
        case .readerLost(_, nil): loss = await device.readerLoss() ?? .notResponding
        default: return
        }
        _ = await owner.session.connectionFailed(
            owner.connection, .connectionLost(step: nil, state: .previousMessageIntact, readerLoss: loss))
    }

    /// The chip, or ``TagSessionError/unknownChip(_:)``.
    nonisolated func knownChip() throws(TagSessionError) -> Chip {
        guard let chip else { throw .unknownChip(identification) }
        return chip
    }

    /// The Type 2 commands of this tag, or the error that says why there are none.
    nonisolated func type2(_ operation: TagSessionOperation) throws(TagSessionError) -> Type2Commands {
        let chip = try knownChip()
        do {
            return try Type2Commands(transport: transport, chip: chip)
        } catch {
            throw .notSupported(operation: operation, chip: chip, detail: "it is not a page-based (Type 2) tag")
        }
    }

    /// The MIFARE Classic commands of this tag, or the error that says why there are none.
    nonisolated func classic(_ operation: TagSessionOperation) throws(TagSessionError) -> ClassicCommands {
        let chip = try knownChip()
        do {
            return try ClassicCommands(transport: transport, chip: chip)
        } catch {
            throw .notSupported(operation: operation, chip: chip, detail: "it is not a MIFARE Classic tag")
        }
    }
}

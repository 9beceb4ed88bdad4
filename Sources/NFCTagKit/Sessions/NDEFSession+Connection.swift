import NDEF
import NFCChips
import NFCTags

/// Connecting to a tag: the session hands out the tag's family handle, whose NDEF calls
/// answer to the session (the connection must still stand; a lost tag sends it back to polling).
extension NDEFSession {
    /// Connects to `tag` (one of the tags the session reported) and pauses polling until
    /// ``restartPolling()``.
    ///
    /// The field is checked first: with more than one tag the connection is refused with
    /// ``NDEFSessionError/severalTags(count:)`` (the session asks for all but one to be
    /// removed and polls again after ``NDEFSessionConfiguration/restartDelay``); a tag no
    /// longer in the field is ``NDEFSessionError/connectionLost(step:state:readerLoss:)``.
    /// With ``NDEFSessionConfiguration/password`` the tag is authenticated (PWD_AUTH, PACK
    /// checked) before this returns. A tag whose chip is not identified is refused with
    /// ``NDEFSessionError/unsupportedTag(reason:)`` and polling goes on.
    ///
    /// The tag comes as its family's handle — an ``NFCType2Tag``,
    /// ``NFCMiFareClassicTag`` or ``NFCISODEPTag`` — seen through ``NFCNDEFTag``: the same
    /// connection answers the family's chip commands (cast it), with one alone check.
    ///
    /// ```swift
    /// let tag = try await session.connect(to: tags[0])
    /// let status = try await tag.queryNDEFStatus()
    /// if let ntag = tag as? NFCType2Tag { print(try await ntag.readConfiguration()) }
    /// ```
    public func connect(to tag: NDEFDetectedTag) async throws(NDEFSessionError) -> any NFCNDEFTag {
        try checkNotInvalidated()
        guard state != .ready else { throw .sessionNotActive }
        connectionCounter += 1
        let connection = connectionCounter
        let tagSession = await makeTagSession(for: tag, connection: connection)
        guard let handle = tagSession.ndefHandle else {
            throw .unsupportedTag(reason: "the chip is not identified (\(tagSession.identification))")
        }
        // Straight from polling, the round's poll (repeated every poll interval) is the
        // tag's alone check while it stays selected. Connecting again without polling in
        // between, the tag may have been taken away and presented again since: look afresh.
        let fromPolling = state == .polling
        stopPolling()
        dropConnection()
        state = .connected(uid: tag.uid)
        do throws(NDEFSessionError) {
            try await acquireGate(for: "an NDEF session connecting to tag \(tag.uid.hexString())")
        } catch {
            // Nothing was sent: the session polls again, as after any failed connect.
            if state == .connected(uid: tag.uid), connectedID == nil {
                state = .polling
                startPolling(after: .zero)
            }
            throw error
        }
        defer { releaseGate() }
        connectedID = connection
        do throws(NDEFSessionError) {
            try checkNotInvalidated()
            if !fromPolling { await device.endAloneProof() }
            try await open(tagSession, aloneCheck: true)
        } catch {
            recover(from: error, connection: connection, duringConnect: true)
            throw error
        }
        emit(.prompt(.holdStill))
        return handle
    }

    /// A tag session for `tag` on the session's device, as identification found it, with
    /// the configuration's alone-check policy; `connection` makes it this session's
    /// connection (`nil`: a read the polling loop does itself).
    func makeTagSession(for tag: NDEFDetectedTag, connection: Int?) async -> TagSession {
        let base = await DeviceTagTransport(device: device, found: tag.target)
        let report = identifications[tag.uid].flatMap { $0.chip == tag.chip ? $0 : nil }
        return TagSession(
            device: device, target: tag.target,
            identification: report ?? TagIdentificationReport(activation: base.target),
            transport: transportDecorator?(base) ?? base,
            aloneCheckBeforeEveryWrite: configuration.aloneCheckBeforeEveryWrite,
            owner: connection.map { (self, $0) })
    }

    /// Makes sure `tag` is selected — with `aloneCheck`, that it is the only tag in the field,
    /// resting on the polling round's own poll while the tag stays selected — and opens it
    /// with the configuration's password or key, which the tag session then presents again
    /// after every re-selection.
    func open(_ tag: TagSession, aloneCheck: Bool) async throws(NDEFSessionError) {
        let selectedUID = await tag.target.typeA == nil ? device.selectedCard?.uid : device.selectedTarget?.uid
        let selected = selectedUID == tag.uid && !fieldUsedElsewhere
        if aloneCheck {
            try await selectAlone(tag)
        } else if !selected {
            try await select(tag)
        }
        fieldUsedElsewhere = false
        try await authenticate(tag)
    }

    /// Selects `tag` if it is alone in the field; with several, reports them and asks for
    /// all but one to be removed.
    private func selectAlone(_ tag: TagSession) async throws(NDEFSessionError) {
        let occupancy: FieldOccupancy
        do {
            occupancy = try await device.selectIfAlone(tag.target, reusingPoll: true)
        } catch {
            throw NDEFSessionError(error)
        }
        switch occupancy {
        case .alone, .aloneCard:
            return
        case .absent:
            throw .connectionLost(step: nil, state: .previousMessageIntact, readerLoss: nil)
        case .several(let count):
            throw .severalTags(count: await reportSeveralTags(count))
        }
    }

    /// Names the tags in the field for the app (a listing, only on this path), asks for all
    /// but one to be removed, and returns how many there are.
    private func reportSeveralTags(_ count: Int) async -> Int {
        let targets = (try? await device.listTargets(maximum: 2)) ?? []
        let tags = targets.map { target in
            detectedTags.first { $0.uid == target.uid }
                ?? NDEFDetectedTag(target: target, chip: NDEFDetectedTag.chipFromActivation(target))
        }
        if tags.count > 1, Set(tags.map(\.uid)) != Set(detectedTags.map(\.uid)) {
            detectedTags = tags
            emit(.tagsDetected(tags))
        }
        emit(.prompt(.removeAllButOne))
        return max(count, tags.count)
    }

    /// Selects `tag` again (after another user of the field, or when another tag was selected).
    private func select(_ tag: TagSession) async throws(NDEFSessionError) {
        let selected: Bool
        do {
            selected = try await device.reselect(tag.target)
        } catch {
            throw NDEFSessionError(error)
        }
        if !selected { throw .connectionLost(step: nil, state: .previousMessageIntact, readerLoss: nil) }
    }

    /// PWD_AUTH with the configured password, PACK checked; on an Ultralight C, 3DES
    /// authentication with the configured key. The tag session remembers what opened the tag.
    private func authenticate(_ tag: TagSession) async throws(NDEFSessionError) {
        let chip = tag.chip
        let commands = chip.flatMap { try? Type2Commands(transport: tag.transport, chip: $0) }
        if let key = configuration.ultralightCKey, let chip, ChipTables.spec(for: chip).family == .ultralightC {
            guard let commands else { return }
            do {
                try await commands.authenticate(ultralightCKey: key.bytes)
            } catch {
                throw NDEFSessionError(error, readerLoss: await readerLoss())
            }
            tag.credentials.remember(ultralightCKey: key)
            return
        }
        guard let credentials = configuration.credentials(forUID: tag.uid) else { return }
        guard let commands else {
            throw .unsupportedTag(reason: "\(chip?.rawValue ?? "unknown") has no PWD_AUTH password")
        }
        do {
            _ = try await commands.authenticate(
                password: credentials.password.bytes, expectedPACK: credentials.expectedPACK?.bytes)
        } catch {
            throw NDEFSessionError(error, readerLoss: await readerLoss())
        }
        tag.credentials.remember(password: credentials.password, expectedPACK: credentials.expectedPACK)
    }

    /// Throws unless `connection` is the one that stands.
    func checkConnection(_ connection: Int) throws(NDEFSessionError) {
        try checkNotInvalidated()
        guard connectedID == connection else { throw .tagNotConnected }
    }

    /// A call on `connection` failed: several tags are named to the app, and the connection
    /// ends where ``recover(from:connection:duringConnect:)`` says. Returns the error to throw.
    func connectionFailed(_ connection: Int, _ error: NDEFSessionError) async -> NDEFSessionError {
        var error = error
        if case .severalTags(let count) = error, connectedID == connection {
            error = .severalTags(count: await reportSeveralTags(count))
        }
        recover(from: error, connection: connection, duringConnect: false)
        return error
    }

    /// After a failed connect or operation: a lost tag or reader, or several tags, end the
    /// connection and polling resumes (after the restart delay for several tags).
    func recover(from error: NDEFSessionError, connection: Int, duringConnect: Bool) {
        guard connectedID == connection, case .connected = state else { return }
        switch error {
        case .severalTags:
            dropConnection()
            state = .polling
            startPolling(after: configuration.restartDelay)
        case .connectionLost(let step, _, let loss):
            dropConnection()
            state = .polling
            // A lost reader: every tag is reported afresh once it is back, even when the
            // device reconnects before the next polling round looks at the field.
            if loss != nil { forgetTags() }
            if step != nil { emit(.prompt(loss == nil ? .tagLost : .readerLost)) }
            startPolling(after: .zero)
        default:
            // Connect failed for another reason (authentication, reader failure): poll again.
            if duringConnect {
                dropConnection()
                state = .polling
                startPolling(after: configuration.pollInterval)
            }
        }
    }
}

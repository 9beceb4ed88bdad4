import NDEF
import NFCChips
import NFCTags

/// Connecting to a tag and running operations on it, one at a time.
extension NDEFSession {
    /// Connects to `tag` (one of the tags the session reported) and pauses polling until
    /// ``restartPolling()``.
    ///
    /// The field is checked first: with more than one tag the connection is refused with
    /// ``NDEFSessionError/severalTags(count:)`` (the session asks for all but one to be
    /// removed and polls again after ``NDEFSessionConfiguration/restartDelay``); a tag no
    /// longer in the field is ``NDEFSessionError/connectionLost(step:state:readerLoss:)``.
    /// With ``NDEFSessionConfiguration/password`` the tag is authenticated (PWD_AUTH, PACK
    /// checked) before this returns.
    ///
    /// ```swift
    /// let tag = try await session.connect(to: tags[0])
    /// let status = try await tag.queryNDEFStatus()
    /// ```
    public func connect(to tag: NDEFDetectedTag) async throws(NDEFSessionError) -> NDEFSessionTag {
        try checkNotInvalidated()
        guard state != .ready else { throw .sessionNotActive }
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
        let handle = await makeHandle(for: tag)
        connectedID = handle.connectionID
        do throws(NDEFSessionError) {
            try checkNotInvalidated()
            if !fromPolling { await device.endAloneProof() }
            try await prepare(handle, exclusive: true, connecting: true)
        } catch {
            recover(from: error, connected: handle, duringConnect: true)
            throw error
        }
        emit(.prompt(.holdStill))
        return handle
    }

    /// A handle for `tag` with its own transport and one driver for the whole connection
    /// (the driver remembers what it verified, which ``NDEFSessionTag/writeLock(force:)`` needs).
    func makeHandle(for tag: NDEFDetectedTag) async -> NDEFSessionTag {
        connectionCounter += 1
        let base = await DeviceTagTransport(device: device, target: tag.target)
        let transport = NDEFSessionTransport(
            base: transportDecorator?(base) ?? base, chip: tag.chip,
            credentials: configuration.credentials(forUID: tag.uid),
            ultralightCKey: configuration.ultralightCKey?.bytes)
        let driver: Result<any NDEFTagDriver, NDEFTagError>
        if let chip = tag.chip {
            do {
                driver = .success(
                    try NDEFTagDrivers.driver(
                        for: chip, transport: transport,
                        passwordAuthenticated: transport.password != nil || transport.ultralightC != nil))
            } catch {
                driver = .failure(error)
            }
        } else {
            driver = .failure(.unsupportedTag(reason: "the chip is not identified (\(tag.target))"))
        }
        let commands = tag.chip.flatMap { chip in try? Type2Commands(transport: transport, chip: chip) }
        return NDEFSessionTag(
            session: self, detected: tag, connectionID: connectionCounter, driver: driver, commands: commands)
    }

    /// Makes sure `tag` is selected (and authenticated): `exclusive` first checks that it
    /// is the only tag in the field, as every write, lock and format does. The check
    /// selects the tag too (one InAutoPoll on a PN532, see ``NFCDevice/selectIfAlone(uid:isoDEP:reusingPoll:)``).
    /// A `connecting` check straight from polling may rest on the polling round's own poll;
    /// an operation's does only when ``NDEFSessionConfiguration/aloneCheckBeforeEveryWrite`` is off.
    func prepare(_ tag: NDEFSessionTag, exclusive: Bool, connecting: Bool = false) async throws(NDEFSessionError) {
        let reselect = await device.selectedTarget?.uid != tag.uid || fieldUsedElsewhere
        fieldUsedElsewhere = false
        // Someone else had the field: what the driver read of the tag's configuration may
        // no longer hold.
        if reselect, case .success(let driver as Type2NDEFDriver) = tag.driver { await driver.forgetConfiguration() }
        if exclusive {
            try await selectAlone(tag, reusingPoll: connecting || !configuration.aloneCheckBeforeEveryWrite)
        } else if reselect {
            try await select(tag)
        } else {
            return
        }
        try await authenticate(tag)
    }

    /// Selects `tag` if it is alone in the field; with several, reports them and asks for
    /// all but one to be removed.
    private func selectAlone(_ tag: NDEFSessionTag, reusingPoll: Bool) async throws(NDEFSessionError) {
        let occupancy: FieldOccupancy
        do {
            occupancy = try await device.selectIfAlone(
                uid: tag.uid, isoDEP: tag.detected.target.isISODEP,
                reusingPoll: reusingPoll)
        } catch {
            throw NDEFSessionError(error)
        }
        switch occupancy {
        case .alone:
            return
        case .absent:
            throw .connectionLost(step: nil, state: .previousMessageIntact, readerLoss: nil)
        case .several(let count):
            // Name them for the app (a listing, only on this path).
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
            throw .severalTags(count: max(count, tags.count))
        }
    }

    /// Selects `tag` again (after another user of the field, or when another tag was selected).
    private func select(_ tag: NDEFSessionTag) async throws(NDEFSessionError) {
        do {
            guard try await device.selectTarget(uid: tag.uid) != nil else {
                throw NDEFSessionError.connectionLost(step: nil, state: .previousMessageIntact, readerLoss: nil)
            }
        } catch let error as NDEFSessionError {
            throw error
        } catch let error as NFCDeviceError {
            throw NDEFSessionError(error)
        } catch {
            throw .readerFailure(step: nil, reason: "\(error)")
        }
    }

    /// PWD_AUTH with the configured password, PACK checked; on an Ultralight C, 3DES
    /// authentication with the configured key.
    private func authenticate(_ tag: NDEFSessionTag) async throws(NDEFSessionError) {
        if let key = configuration.ultralightCKey, let chip = tag.detected.chip,
            ChipTables.spec(for: chip).family == .ultralightC
        {
            guard let commands = tag.commands else { return }
            do {
                try await commands.authenticate(ultralightCKey: key.bytes)
            } catch {
                throw NDEFSessionError(error, readerLoss: await readerLoss())
            }
            return
        }
        guard let credentials = configuration.credentials(forUID: tag.detected.uid) else { return }
        guard let commands = tag.commands else {
            throw .unsupportedTag(reason: "\(tag.detected.chipName) has no PWD_AUTH password")
        }
        do {
            _ = try await commands.authenticate(password: credentials.password, expectedPACK: credentials.expectedPACK)
        } catch {
            throw NDEFSessionError(error, readerLoss: await readerLoss())
        }
    }

    /// Runs a driver call, mapping its error (a lost reader is told from a tag gone).
    func runDriver<T: Sendable>(
        _ tag: NDEFSessionTag,
        _ body: @Sendable (any NDEFTagDriver) async throws(NDEFTagError) -> T
    ) async throws(NDEFSessionError) -> T {
        let driver: any NDEFTagDriver
        switch tag.driver {
        case .success(let value): driver = value
        case .failure(let error): throw NDEFSessionError(error, readerLoss: nil)
        }
        do {
            return try await body(driver)
        } catch {
            throw NDEFSessionError(error, readerLoss: await readerLoss())
        }
    }

    /// Runs one operation on the connected `tag`, holding the gate.
    func perform<T: Sendable>(
        on tag: NDEFSessionTag, exclusive: Bool,
        _ body: @Sendable (any NDEFTagDriver) async throws(NDEFTagError) -> T
    ) async throws(NDEFSessionError) -> T {
        try await performSteps(on: tag, exclusive: exclusive) { () async throws(NDEFSessionError) -> T in
            try await runDriver(tag, body)
        }
    }

    /// Runs `body` on the connected `tag` after ``prepare(_:exclusive:)``, holding the gate;
    /// a lost connection ends it and resumes polling.
    func performSteps<T: Sendable>(
        on tag: NDEFSessionTag, exclusive: Bool,
        _ body: () async throws(NDEFSessionError) -> T
    ) async throws(NDEFSessionError) -> T {
        try checkNotInvalidated()
        guard connectedID == tag.connectionID else { throw .tagNotConnected }
        try await acquireGate(for: "an NDEF session's operation on tag \(tag.uid.hexString())")
        defer { releaseGate() }
        try checkNotInvalidated()
        guard connectedID == tag.connectionID else { throw .tagNotConnected }
        do throws(NDEFSessionError) {
            try await prepare(tag, exclusive: exclusive)
            return try await body()
        } catch {
            let classified = await tagLossAware(error, tag: tag)
            recover(from: classified, connected: tag, duringConnect: false)
            throw classified
        }
    }

    /// A tag that leaves the field mid-exchange often shows as a timeout (the reader waits
    /// for an answer that never comes: a Classic READ through the PN532's data exchange).
    /// After a timeout during a step, select the tag again: when it does not answer, the
    /// failure is ``NDEFSessionError/connectionLost(step:state:readerLoss:)`` with the same
    /// content state, so the app is told to bring the tag back rather than to retry.
    func tagLossAware(_ error: NDEFSessionError, tag: NDEFSessionTag) async -> NDEFSessionError {
        let step: NDEFTagStep
        let state: NDEFTagContentState
        switch error {
        case .timeout(.some(let timedOut)): (step, state) = (timedOut, .previousMessageIntact)
        case .tagUpdateFailure(let failed, let content, .timeout): (step, state) = (failed, content)
        default: return error
        }
        do {
            if try await device.selectTarget(uid: tag.uid) != nil { return error }
        } catch {
            return .connectionLost(step: step, state: state, readerLoss: await readerLoss())
        }
        return .connectionLost(step: step, state: state, readerLoss: nil)
    }

    /// After a failed connect or operation: a lost tag or reader, or several tags, end the
    /// connection and polling resumes (after the restart delay for several tags).
    func recover(from error: NDEFSessionError, connected tag: NDEFSessionTag, duringConnect: Bool) {
        guard connectedID == tag.connectionID, case .connected = state else { return }
        switch error {
        case .severalTags:
            dropConnection()
            state = .polling
            startPolling(after: configuration.restartDelay)
        case .connectionLost(let step, _, let loss):
            dropConnection()
            state = .polling
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

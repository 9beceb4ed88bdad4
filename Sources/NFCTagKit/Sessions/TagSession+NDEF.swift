import NDEF
import NFCChips
import NFCTags

extension TagSession {
    /// Runs an NDEF driver call on this connection's tag as the only user of the device's
    /// tag. `exclusive` (a write, lock or format) first checks that the tag is alone in the
    /// field; the check selects the tag again, so the password or key that opened it is
    /// presented again (``TagCredentials``). Without ``aloneCheckBeforeEveryWrite`` the poll
    /// that found the tag alone stays the check while nothing has selected the tag again
    /// since, nor seen it NAK or fail.
    ///
    /// A timeout is looked into (the tag may have left: then the failure is
    /// ``NDEFSessionError/connectionLost(step:state:readerLoss:)``); an ``NDEFSession`` that
    /// handed the connection out hears of every failure and polls again when it ends the
    /// connection.
    func performNDEF<T: Sendable>(
        exclusive: Bool,
        _ body: @Sendable (any NDEFTagDriver) async throws(NDEFTagError) -> T
    ) async throws(NDEFSessionError) -> T {
        let fieldUsedElsewhere: Bool
        do {
            fieldUsedElsewhere = try await acquireTagAccess(
                purpose: "an NDEF operation on tag \(uid.hexString())")
        } catch {
            switch error {
            case .waiting(let failure): throw NDEFSessionError(failure)
            case .ended(let ended): throw ended
            }
        }
        defer { device.tagAccess.release() }
        do throws(NDEFSessionError) {
            return try await performNDEFHoldingTagAccess(
                exclusive: exclusive, fieldUsedElsewhere: fieldUsedElsewhere, body)
        } catch {
            let classified = await tagLossAware(error)
            guard let owner else { throw classified }
            throw await owner.session.connectionFailed(owner.connection, classified)
        }
    }

    /// ``performNDEF(exclusive:_:)`` while the caller holds the device's tag access.
    func performNDEFHoldingTagAccess<T: Sendable>(
        exclusive: Bool, fieldUsedElsewhere: Bool,
        _ body: @Sendable (any NDEFTagDriver) async throws(NDEFTagError) -> T
    ) async throws(NDEFSessionError) -> T {
        let driver = try await ndefDriverForCurrentCredentials()
        // Someone else had the field: what the driver read of the configuration may no longer hold.
        if fieldUsedElsewhere, let type2 = driver as? Type2NDEFDriver { await type2.forgetConfiguration() }
        // Without a look before every write, the poll that found the tag alone and selected it
        // stands while nothing has selected the tag again since, nor seen it NAK or fail: the
        // tag is still selected (and still open with any password presented on it).
        var proven = false
        if !aloneCheckBeforeEveryWrite { proven = await device.targetAloneSincePoll?.uid == uid }
        let reopening = ReopeningTransport(base: transport, chip: chip, credentials: credentials)
        if exclusive, !proven {
            // The alone check selects the tag: only the password or key is presented again.
            try await selectAlone()
            if !credentials.isEmpty { try await reopen(reopening.presentCredentials) }
        } else if !proven, await !isSelected(fieldUsedElsewhere: fieldUsedElsewhere) {
            try await reopen(reopening.reselect)
        }
        do {
            return try await body(driver)
        } catch {
            throw NDEFSessionError(error, readerLoss: await device.readerLoss())
        }
    }

    /// Whether the tag is still the selected one and nobody else had the field since.
    private func isSelected(fieldUsedElsewhere: Bool) async -> Bool {
        guard !fieldUsedElsewhere else { return false }
        if target.typeA == nil { return await device.selectedCard?.uid == uid }
        return await device.selectedTarget?.uid == uid
    }

    /// The driver for this connection's chip, one for the connection (what it verified allows
    /// `writeLock`); told when a password started or stopped opening the tag.
    private func ndefDriverForCurrentCredentials() async throws(NDEFSessionError) -> any NDEFTagDriver {
        let authenticated = !credentials.isEmpty
        if let ndefDriver {
            if ndefDriver.authenticated != authenticated, let type2 = ndefDriver.driver as? Type2NDEFDriver {
                await type2.setPasswordAuthenticated(authenticated)
            }
            self.ndefDriver = (ndefDriver.driver, authenticated)
            return ndefDriver.driver
        }
        if case .feliCa(let card) = target {
            let driver = Type3NDEFDriver(transport: transport, idm: card.idm, pmm: card.pmm)
            ndefDriver = (driver, authenticated)
            return driver
        }
        if case .type1 = target {
            let driver = Type1NDEFDriver(transport: transport)
            ndefDriver = (driver, authenticated)
            return driver
        }
        if case .st25tb = target {
            throw .unsupportedTag(reason: "an ST25TB or SRx card is not an NFC Forum tag: it holds no NDEF")
        }
        guard let chip else {
            throw .unsupportedTag(reason: "the chip is not identified (\(identification))")
        }
        let driver: any NDEFTagDriver
        do {
            driver = try NDEFTagDrivers.driver(
                for: chip, transport: ReopeningTransport(base: transport, chip: chip, credentials: credentials),
                passwordAuthenticated: authenticated)
        } catch {
            throw NDEFSessionError(error, readerLoss: nil)
        }
        ndefDriver = (driver, authenticated)
        return driver
    }

    /// Checks that this session's tag is the only one in the field (and selects it).
    private func selectAlone() async throws(NDEFSessionError) {
        let occupancy: FieldOccupancy
        do {
            occupancy = try await device.selectIfAlone(target)
        } catch {
            throw NDEFSessionError(error)
        }
        switch occupancy {
        case .alone, .aloneCard: return
        case .several(let count): throw .severalTags(count: count)
        case .absent:
            throw .connectionLost(step: nil, state: .previousMessageIntact, readerLoss: await device.readerLoss())
        }
    }

    /// Runs `step` (a re-selection, or the password or key presented); a failure is the tag lost.
    private func reopen(_ step: () async throws(TagTransportError) -> Void) async throws(NDEFSessionError) {
        do {
            try await step()
        } catch {
            throw .connectionLost(step: nil, state: .previousMessageIntact, readerLoss: await device.readerLoss())
        }
    }

    /// A tag that leaves the field mid-exchange often shows as a timeout (the reader waits
    /// for an answer that never comes: a Classic READ through the PN532's data exchange).
    /// After a timeout during a step the tag is selected again: when it does not answer, the
    /// failure is ``NDEFSessionError/connectionLost(step:state:readerLoss:)`` with the same
    /// content state, so the app is told to bring the tag back rather than to retry.
    private func tagLossAware(_ error: NDEFSessionError) async -> NDEFSessionError {
        let step: NDEFTagStep
        let state: NDEFTagContentState
        switch error {
        case .timeout(.some(let timedOut)): (step, state) = (timedOut, .previousMessageIntact)
        case .tagUpdateFailure(let failed, let content, .timeout): (step, state) = (failed, content)
        default: return error
        }
        do {
            if try await device.reselect(target) { return error }
        } catch {
            return .connectionLost(step: step, state: state, readerLoss: await device.readerLoss())
        }
        return .connectionLost(step: step, state: state, readerLoss: nil)
    }
}

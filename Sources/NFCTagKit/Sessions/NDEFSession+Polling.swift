import NDEF
import NFCChips
import NFCTags

/// Polling: a loop of rounds, each counting the tags in the field (``NFCDevice/pollField()``),
/// identifying new ones and reporting changes. A round holds the session's gate, so it never runs during an
/// operation on a connected tag.
extension NDEFSession {
    /// What a round tells the loop to do next.
    enum PollOutcome {
        /// Poll again after the poll interval.
        case again
        /// More than one tag: poll again after the restart delay.
        case severalTags
        /// The reader is gone: wait for the reconnection.
        case readerLost(DisconnectReason?)
        /// The session ended or polling was cancelled.
        case stop
    }

    /// Starts a fresh polling loop (any earlier one stops).
    ///
    /// The loop holds the session only while a round runs: a session the app drops without
    /// ``invalidate()`` ends (its `deinit` cancels the loop) and releases its device, which
    /// then closes the reader, instead of polling for ever.
    func startPolling(after delay: Duration) {
        pollTask?.cancel()
        pollGeneration += 1
        let generation = pollGeneration
        pollTask = Task { [weak self] in
            var delay = delay
            while true {
                if delay > .zero {
                    do { try await Task.sleep(for: delay) } catch { return }
                }
                guard let session = self, let next = await session.pollStep(generation: generation) else { return }
                delay = next
            }
        }
    }

    /// Stops polling (a connect or an operation takes over).
    func stopPolling() {
        pollTask?.cancel()
        pollTask = nil
        pollGeneration += 1
    }

    private func isPolling(_ generation: Int) -> Bool {
        generation == pollGeneration && state == .polling && !Task.isCancelled
    }

    /// One round of the loop, holding the gate; the pause before the next, or nil to stop.
    private func pollStep(generation: Int) async -> Duration? {
        guard isPolling(generation) else { return nil }
        do {
            try await acquireGate(for: "an NDEF session polling the field", limited: false)
        } catch {
            return nil  // cancelled: polling stops
        }
        guard isPolling(generation) else {
            releaseGate()
            return nil
        }
        let outcome = await pollRound()
        releaseGate()
        switch outcome {
        case .again:
            return configuration.pollInterval
        case .severalTags:
            return configuration.restartDelay
        case .readerLost(let reason):
            guard await waitForReader(after: reason, generation: generation) else { return nil }
            return .zero
        case .stop:
            return nil
        }
    }

    /// One round: look at the field, report removals and arrivals, identify new tags.
    ///
    /// The look counts the tags and leaves a lone tag selected (on a PN532 UART one
    /// InAutoPoll, which is also the tag's alone check until its selection changes); only
    /// several tags are listed, to name them all.
    private func pollRound() async -> PollOutcome {
        let targets: [NFCTarget]
        do {
            switch try await device.pollField() {
            case .absent, .aloneCard:
                // No type A tag: a FeliCa card answering Polling, a type B card, or a Type 1
                // tag (a field with a type A tag never costs these polls).
                targets = try await device.selectCardOrNothing().map { [$0] } ?? []
            case .alone(let target): targets = [.iso14443A(target)]
            case .several: targets = try await device.listTargets(maximum: 2).map(NFCTarget.iso14443A)
            }
        } catch .connectionLost(let reason) {
            return .readerLost(reason)
        } catch .notConnected {
            return .readerLost(nil)
        } catch .cancelled {
            return .stop
        } catch {
            // An RF hiccup (collision, a tag half in the field): look again.
            return .again
        }
        return await update(with: targets)
    }

    /// Compares `targets` with the tags seen last round and reports what changed.
    private func update(with targets: [NFCTarget]) async -> PollOutcome {
        let known = detectedTags
        let uids = targets.map(\.uid)
        for tag in known where !uids.contains(tag.uid) {
            emit(.tagRemoved(tag))
        }
        var current: [NDEFDetectedTag] = []
        for target in targets {
            // After restartPolling every tag is identified and reported afresh.
            if !reportAllOnNextRound, let tag = known.first(where: { $0.uid == target.uid }) {
                current.append(tag)
                continue
            }
            guard case .iso14443A(let typeA) = target else {
                current.append(NDEFDetectedTag(card: target))
                continue
            }
            do {
                current.append(try await identify(typeA))
            } catch .connectionLost(let reason) {
                detectedTags = current
                return .readerLost(reason)
            } catch {
                current.append(NDEFDetectedTag(target: typeA, chip: NDEFDetectedTag.chipFromActivation(typeA)))
            }
        }
        detectedTags = current
        identifications = identifications.filter { uid, _ in current.contains { $0.uid == uid } }
        let changed = Set(current.map(\.uid)) != Set(known.map(\.uid)) || reportAllOnNextRound
        reportAllOnNextRound = false
        if changed, !current.isEmpty {
            emit(.tagsDetected(current))
            if current.count > 1 { emit(.prompt(.removeAllButOne)) }
        }
        if current.count > 1 { return .severalTags }
        if changed, current.count == 1, configuration.invalidateAfterFirstRead {
            return await readFirst(current[0])
        }
        return .again
    }

    /// Selects `target` (unless the round's poll left it selected) and names its chip
    /// (GET_VERSION, the Ultralight C probe, ATQA / SAK). Throws only when the reader is
    /// lost; a tag that does not answer is named from ATQA / SAK.
    func identify(_ target: ISO14443ATarget) async throws(NFCDeviceError) -> NDEFDetectedTag {
        let fallback = NDEFDetectedTag(target: target, chip: NDEFDetectedTag.chipFromActivation(target))
        let selected: ISO14443ATarget?
        do {
            if let current = await device.selectedTarget, current == target {
                selected = current
            } else {
                selected = try await device.selectTarget(uid: target.uid)
            }
        } catch .connectionLost(let reason) {
            throw .connectionLost(reason)
        } catch {
            return fallback
        }
        guard let selected else { return fallback }
        do {
            let report = try await TagIdentifier.identify(
                over: await DeviceTagTransport(device: device, target: selected))
            if report.chip != nil { identifications[selected.uid] = report }
            return NDEFDetectedTag(target: selected, chip: report.chip ?? fallback.chip)
        } catch {
            if let loss = await readerLoss() { throw .connectionLost(loss) }
            return fallback
        }
    }

    /// `invalidateAfterFirstRead`: reads the tag alone in the field, reports the message and
    /// ends the session; a failed read is reported and polling goes on.
    private func readFirst(_ tag: NDEFDetectedTag) async -> PollOutcome {
        let tagSession = await makeTagSession(for: tag, connection: nil)
        do throws(NDEFSessionError) {
            try await open(tagSession, aloneCheck: false)
            let message = try await tagSession.performNDEFHoldingTagAccess(exclusive: false, fieldUsedElsewhere: false)
            {
                driver throws(NDEFTagError) in try await driver.readMessage()
            }
            emit(.messageRead(tag, message))
            invalidate(reason: .firstReadCompleted)
            return .stop
        } catch {
            emit(.readFailed(tag, error))
            if case .connectionLost(_, _, let loss?) = error { return .readerLost(loss) }
            return .again
        }
    }

    /// The reader went away: each tag seen is reported removed, and reported afresh when
    /// polling finds it again.
    func forgetTags() {
        for tag in detectedTags { emit(.tagRemoved(tag)) }
        detectedTags = []
    }

    /// After a lost reader: forget the tags, wait for the device's automatic reconnection.
    /// False when the reader is gone for good (the session is then invalidated).
    private func waitForReader(after reason: DisconnectReason?, generation: Int) async -> Bool {
        forgetTags()
        emit(.prompt(.readerLost))
        for await status in device.statusUpdates {
            guard generation == pollGeneration, state == .polling else { return false }
            switch status {
            case .connected:
                return true
            case .connecting, .discovering:
                continue
            case .notConnected:
                let lastLoss = await device.link.lastLoss
                invalidate(reason: .readerUnavailable(reason ?? lastLoss))
                return false
            }
        }
        return false
    }
}

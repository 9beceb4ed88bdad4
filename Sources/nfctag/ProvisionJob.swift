import NFCTagKit

/// Provisions the one tag in the field: identify, write (tear-safe), verify, then optionally
/// protect (password, with the lock-out guard) and lock (permanent). The write reads back
/// every page it wrote and compares it byte for byte; verify checks, record by record, that
/// those bytes decode to the message asked for (with `--mirror` it reads the message again,
/// since the chip's mirror shows only in a read). The lock step, on a new connection after
/// the protect step, reads the message again before anything permanent is written.
///
/// Every step goes through the library's sessions on the station's device: a
/// ``NFCTagKit/TagSession`` to identify and protect, an ``NFCTagKit/NDEFSession`` to write,
/// verify and lock. Nothing is written when more than one tag is in the field. A tag
/// already protected with the station's password (a retry after a failure past the
/// protect step) is written and locked with PWD_AUTH.
struct ProvisionJob {
    /// What came of a job.
    enum Outcome {
        /// The tag was handled: provisioned, or failed (the record says where).
        case handled(ProvisionRecord)
        /// More than one tag in the field: nothing was sent to any.
        case severalTags(Int)
        /// The tag left before it could be identified: nothing was done.
        case vanished
    }

    let device: NFCDevice
    let options: ProvisionOptions
    /// How long one tag may take to answer its identification.
    let timeout: Duration
    /// The tag as the station saw it alone in the field.
    let target: ISO14443ATarget

    private var uid: [UInt8] { target.uid }

    /// Provisions the tag the station saw; `isProvisioned` tells, once the tag is
    /// identified, whether it was done before (then it is skipped, untouched).
    func run(isProvisioned: (String) -> Bool) async -> Outcome {
        let start = ContinuousClock.now
        var record = ProvisionRecord(uid: target.uid, chip: "unknown", result: .failed, actions: [], milliseconds: 0)
        func finish(_ failure: ProvisionRecord.Failure?) -> Outcome {
            record.result = failure == nil ? .ok : .failed
            record.failure = failure
            record.milliseconds = Self.milliseconds(since: start)
            return .handled(record)
        }

        let tag: TagSession
        do {
            tag = try await TagSession.connect(on: device, timeout: timeout)
        } catch .severalTags(let uids) {
            return .severalTags(uids.count)
        } catch .noTag {
            return .vanished
        } catch {
            return finish(await failure(error, step: "identify", state: "nothing was written"))
        }
        record.uid = tag.uid
        guard let chip = tag.chip else {
            if isProvisioned(tag.uid.hexString()) {
                record.result = .skipped
                return .handled(record)
            }
            return finish(
                ProvisionRecord.Failure(
                    step: "identify", message: "the chip is not one NFCTagKit knows (\(tag.target))",
                    state: "nothing was written"))
        }
        record.chip = chip.rawValue
        if isProvisioned(tag.uid.hexString()) {
            record.result = .skipped
            record.milliseconds = Self.milliseconds(since: start)
            return .handled(record)
        }
        if let template = options.ntag424SUN {
            if let failure = await setUpSUN(tag, template: template, actions: &record.actions) {
                return finish(failure)
            }
            return finish(nil)
        }
        let detected = NDEFDetectedTag(target: tag.target, chip: chip)

        // Write and verify (and lock here when no password comes between).
        let lockNow = options.lock && options.protection == nil
        if let failure = await writeAndVerify(detected, lock: lockNow, actions: &record.actions) {
            return finish(failure)
        }
        if let protection = options.protection {
            if let failure = await protect(detected, with: protection) { return finish(failure) }
            record.actions.append("protect")
            if options.lock {
                if let failure = await lock(detected, password: protection.password, pack: protection.pack) {
                    return finish(failure)
                }
                record.actions.append("lock")
            }
        }
        return finish(nil)
    }

    // MARK: - Steps

    /// `--ntag424-sun`: the SUN URL and its SDM settings (verified by reading them back),
    /// then the URL read once as a phone reads it and compared with the template.
    private func setUpSUN(_ session: TagSession, template: NTAG424SUNTemplate, actions: inout [String]) async
        -> ProvisionRecord.Failure?
    {
        var step = "sun-setup"
        do throws(TagSessionError) {
            let ntag = try session.isoDEPTag().ntag424()
            var macKey = AES128Key.zero
            if let master = options.ntag424MasterKey {
                do { macKey = try KeyDiversification.sunMACKey(masterKey: master, uid: session.uid) } catch {
                    return ProvisionRecord.Failure(
                        step: step, message: "cannot diversify the MAC key: \(error)", state: "nothing was written")
                }
            }
            try await ntag.setUpSUN(
                template, keys: NTAG424SUNKeys(metaReadKey: options.ntag424MetaKey, fileReadKey: macKey))
            actions.append("sun-setup")
            step = "verify"
            try await ntag.selectApplication()
            let length = template.fileContent.count
            let file = try await ntag.readData(file: NTAG424DNATable.ndefFileNumber, length: length, mode: .plain)
            // The mirrors differ at every read: compare everything else.
            let same = zip(file, template.fileContent).allSatisfy { $0 == $1 || $1 == UInt8(ascii: "0") }
            guard file.count == length, same else {
                return ProvisionRecord.Failure(
                    step: step, message: "the URL read back differs from the template",
                    state: "SUN settings written; the NDEF file holds another URL")
            }
            actions.append("verify")
            return nil
        } catch {
            return await failure(
                error, step: step,
                state: actions.isEmpty
                    ? "SUN not set up (see the error for a key change cut short)" : "SUN set up, not verified")
        }
    }

    /// Writes and verifies the message; locks it too with `lock`. A tag that refuses the
    /// write and may be protected with the station's password is tried again with it.
    private func writeAndVerify(_ detected: NDEFDetectedTag, lock: Bool, actions: inout [String]) async
        -> ProvisionRecord.Failure?
    {
        let first = await writeAndVerify(
            detected, lock: lock, password: options.authentication.map { ($0.password, $0.pack) },
            actions: &actions)
        guard let first, actions.isEmpty, let protection = options.protection, first.refusedWrite else {
            return first?.failure
        }
        let retry = await writeAndVerify(
            detected, lock: lock, password: (protection.password, protection.pack), actions: &actions)
        // A password refused means the tag was not ours to begin with: report the first refusal.
        if let retry, actions.isEmpty, retry.passwordRefused { return first.failure }
        return retry?.failure
    }

    private struct WriteFailure {
        var failure: ProvisionRecord.Failure
        var refusedWrite = false
        var passwordRefused = false
    }

    private func writeAndVerify(
        _ detected: NDEFDetectedTag, lock: Bool, password: (TagPassword, PACK?)?,
        actions: inout [String]
    ) async -> WriteFailure? {
        let session = NDEFSession(
            device: device, configuration: .station(password: password?.0, expectedPACK: password?.1))
        var step = "write"
        do throws(NDEFSessionError) {
            try await session.begin()
            let tag = try await session.connect(to: detected)
            let template: NTAGMirrorTemplate?
            if options.mirror {
                let mirrorTemplate: NTAGMirrorTemplate
                do throws(ToolError) {
                    mirrorTemplate = try MirrorWriting.template(
                        for: options.message, chip: detected.chip, command: "provision")
                } catch {
                    await session.invalidate()
                    return WriteFailure(
                        failure: ProvisionRecord.Failure(
                            step: "write", message: error.summary,
                            state: "nothing was written"))
                }
                try await tag.writeNDEF(mirroring: mirrorTemplate)
                template = mirrorTemplate
            } else {
                template = nil
                try await tag.writeNDEF(options.message)
            }
            actions.append("write")
            step = "verify"
            let back: NDEFMessage?
            if template != nil {
                // The chip's mirror shows only in what a read returns: read the message again.
                back = try await tag.readNDEF()
            } else {
                // The write read back every page it wrote and compared it byte for byte with the
                // message's bytes, and read the pages it left alone on this connection just
                // before: those bytes, decoded as a reader decodes them, are the message read
                // back. Reading them once more would repeat the same frames (as `nfctag write`).
                back = WriteCommand.decodedAsStored(options.message)
            }
            guard let back, template.map({ MirrorWriting.matches(back, $0) }) ?? (back == options.message) else {
                await session.invalidate()
                return WriteFailure(
                    failure: ProvisionRecord.Failure(
                        step: "verify", message: "verify failed: the message read back differs from the one written",
                        state: "the tag holds another message than the one written"))
            }
            actions.append("verify")
            if lock {
                step = "lock"
                try await tag.writeLock()
                actions.append("lock")
            }
            await session.invalidate()
            return nil
        } catch {
            await session.invalidate()
            var result = WriteFailure(failure: await failure(error, step: step, done: actions))
            if case .tagNotWritable = error { result.refusedWrite = true }
            if case .authenticationRequired = error { result.refusedWrite = true }
            if case .authenticationFailed = error { result.passwordRefused = true }
            if case .packMismatch = error { result.passwordRefused = true }
            return result
        }
    }

    /// Password protection on a fresh selection of the tag (its current password is the
    /// station's own when a retry finds it already protected).
    private func protect(_ detected: NDEFDetectedTag, with protection: ProvisionOptions.Protection) async
        -> ProvisionRecord.Failure?
    {
        let done = "the new message is written and verified; "
        do throws(TagSessionError) {
            let session = try await TagSession.connect(on: device, timeout: timeout)
            guard session.uid == detected.uid else {
                return ProvisionRecord.Failure(
                    step: "protect", message: "another tag (\(session.uid.hexString())) came into the field",
                    state: done + "not protected")
            }
            guard case .type2(let ntag) = session.tag else {
                return ProvisionRecord.Failure(
                    step: "protect", message: "\(detected.chipName) has no password protection (PWD_AUTH)",
                    state: done + "not protected")
            }
            try await ntag.protect(
                password: protection.password, pack: protection.pack,
                from: protection.fromPage ?? ntag.memory.firstUserPage,
                readProtected: protection.readProtect, authLimit: protection.authLimit,
                lockConfiguration: protection.lockConfiguration, currentPassword: protection.password,
                consent: protection.consent)
            return nil
        } catch {
            var state = done + "not protected"
            if case .interrupted(_, let passwordState, _) = error { state = done + passwordState.sentence }
            return await failure(error, step: "protect", state: state)
        }
    }

    /// Locks the protected tag: PWD_AUTH, the message read back and compared, then the lock.
    private func lock(_ detected: NDEFDetectedTag, password: TagPassword, pack: PACK) async -> ProvisionRecord.Failure?
    {
        let session = NDEFSession(device: device, configuration: .station(password: password, expectedPACK: pack))
        do throws(NDEFSessionError) {
            try await session.begin()
            let tag = try await session.connect(to: detected)
            guard try await tag.readNDEF() == options.message else {
                await session.invalidate()
                return ProvisionRecord.Failure(
                    step: "lock", message: "the message read back before locking differs from the one written",
                    state: "protected, not locked")
            }
            try await tag.writeLock()
            await session.invalidate()
            return nil
        } catch {
            await session.invalidate()
            return await failure(error, step: "lock", done: ["write", "verify", "protect"])
        }
    }

    // MARK: - Failures

    /// A session failure at `step`: the message a person reads, and what the tag holds.
    private func failure(_ error: NDEFSessionError, step: String, done: [String]) async -> ProvisionRecord.Failure {
        let summary = TagSelection.failure(error, operation: step).summary
        let state: String
        switch error {
        case .connectionLost(_, let content, _), .tagUpdateFailure(_, let content, _):
            state = content.description
        default:
            state =
                done.contains("verify")
                ? "the new message is written and verified" + (done.contains("protect") ? " and protected" : "")
                    + ", not locked" : "the tag holds its previous message"
        }
        var tagLeft = false
        if case .connectionLost(_, _, nil) = error { tagLeft = true }
        let readerLost = await isReaderLost()
        if !readerLost, !tagLeft { tagLeft = await hasLeft() }
        return ProvisionRecord.Failure(
            step: step, message: Self.withoutToolName(summary), state: state,
            readerLost: readerLost, tagLeft: tagLeft)
    }

    private func failure(_ error: TagSessionError, step: String, state: String) async -> ProvisionRecord.Failure {
        let summary = ChipSession.failure(error, command: step, timeout: Double(timeout.components.seconds)).summary
        var tagLeft = false
        switch error {
        case .tagLost, .interrupted(_, _, .tagLost): tagLeft = true
        default: break
        }
        let readerLost = await isReaderLost()
        if !readerLost, !tagLeft { tagLeft = await hasLeft() }
        return ProvisionRecord.Failure(
            step: step, message: Self.withoutToolName(summary), state: state,
            readerLost: readerLost, tagLeft: tagLeft)
    }

    /// Whether the tag being provisioned is no longer in the field (a tag pulled away
    /// mid-write often shows only as a write that was not acknowledged).
    private func hasLeft() async -> Bool {
        guard let targets = try? await device.listTargets(maximum: 2) else { return false }
        return !targets.contains { $0.uid == uid }
    }

    /// Whether the device lost its reader (it is reconnecting, or gave up).
    private func isReaderLost() async -> Bool {
        await device.status != .connected
    }

    private static func withoutToolName(_ summary: String) -> String {
        summary.hasPrefix("nfctag: ") ? String(summary.dropFirst("nfctag: ".count)) : summary
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}

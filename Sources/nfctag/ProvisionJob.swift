import NFCTagKit

/// Provisions the one tag in the field: identify, write (tear-safe), verify, then optionally
/// protect (password, with the lock-out guard) and lock (permanent). The write reads back
/// every page it wrote and compares it byte for byte; verify checks, record by record, that
/// those bytes decode to the message asked for (with `--mirror` it reads the message again,
/// since the chip's mirror shows only in a read). The lock step reads the message again
/// before anything permanent is written.
///
/// Every step runs on one ``NFCTagKit/TagSession`` connection: the family handle's chip
/// commands and its NDEF calls (``NFCTagKit/NFCNDEFTag``). The station's poll that found
/// the tag alone is the alone check of the write, verify and lock while nothing selects the
/// tag again (`aloneCheckBeforeEveryWrite: false`); protect proves its password from a fresh
/// selection, so a lock after it looks at the field once more. Nothing is written when more
/// than one tag is in the field. A tag already
/// protected with the station's password (a retry after a failure past the protect step)
/// is opened with PWD_AUTH on the same connection and finished.
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
            tag = try await TagSession.connect(on: device, timeout: timeout, aloneCheckBeforeEveryWrite: false)
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
        guard let ndef = Self.ndefTag(tag.tag) else {
            return finish(
                ProvisionRecord.Failure(
                    step: "write", message: "\(chip.rawValue) holds no NDEF NFCTagKit can write",
                    state: "nothing was written"))
        }
        let type2: NFCType2Tag?
        if case .type2(let ntag) = tag.tag { type2 = ntag } else { type2 = nil }
        let steps = Steps(job: self, tag: ndef, type2: type2)

        // Write and verify (and lock here when no password comes between).
        let lockNow = options.lock && options.protection == nil
        if let failure = await steps.writeAndVerify(lock: lockNow, actions: &record.actions) {
            return finish(failure)
        }
        if let protection = options.protection {
            if let failure = await steps.protect(with: protection) { return finish(failure) }
            record.actions.append("protect")
            if options.lock {
                if let failure = await steps.lock() { return finish(failure) }
                record.actions.append("lock")
            }
        }
        return finish(nil)
    }

    /// The NDEF view of the tag's family handle.
    private static func ndefTag(_ tag: NFCTag) -> (any NFCNDEFTag)? {
        switch tag {
        case .type2(let handle): handle
        case .ultralightC(let handle): handle
        case .miFareClassic(let handle): handle
        case .isoDEP(let handle): handle
        case .unknown: nil
        }
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

    /// The write, protect and lock steps on the job's one connection.
    private struct Steps {
        let job: ProvisionJob
        /// The tag's NDEF calls.
        let tag: any NFCNDEFTag
        /// The same handle's chip commands, on a Type 2 tag (PWD_AUTH, protection, mirror).
        let type2: NFCType2Tag?

        private var options: ProvisionOptions { job.options }

        /// Writes and verifies the message; locks it too with `lock`. With `--password` the
        /// tag is opened first; a tag that refuses the write and may be protected with the
        /// station's own password is opened with it and written again.
        func writeAndVerify(lock: Bool, actions: inout [String]) async -> ProvisionRecord.Failure? {
            if let (password, pack) = options.authentication,
                let refusal = await authenticate(password: password, pack: pack)
            {
                return refusal.failure
            }
            let first = await writeVerifyAndLock(lock: lock, actions: &actions)
            guard let first, actions.isEmpty, let protection = options.protection, first.refusedWrite else {
                return first?.failure
            }
            // The refused write may have left the tag IDLE (a NAK): select it before PWD_AUTH.
            do throws(TagSessionError) {
                try await type2?.session.reselect()
            } catch {
                return await job.failure(error, step: "write", state: "nothing was written")
            }
            // A password refused means the tag was not ours to begin with: report the first refusal.
            if let refusal = await authenticate(password: protection.password, pack: protection.pack) {
                return refusal.passwordRefused ? first.failure : refusal.failure
            }
            return await writeVerifyAndLock(lock: lock, actions: &actions)?.failure
        }

        private struct WriteFailure {
            var failure: ProvisionRecord.Failure
            var refusedWrite = false
            var passwordRefused = false
        }

        /// PWD_AUTH with `password`, the PACK checked: the NDEF calls that follow present it
        /// again whenever they select the tag.
        private func authenticate(password: TagPassword, pack: PACK?) async -> WriteFailure? {
            guard let type2 else {
                return WriteFailure(
                    failure: ProvisionRecord.Failure(
                        step: "write", message: "\(tag.chip?.rawValue ?? "unknown") has no PWD_AUTH password",
                        state: "nothing was written"))
            }
            do throws(TagSessionError) {
                try await type2.authenticate(password: password, expectedPACK: pack)
                return nil
            } catch {
                var result = WriteFailure(
                    failure: await job.failure(error, step: "write", state: "nothing was written"))
                if case .command(_, .authenticationFailed) = error { result.passwordRefused = true }
                if case .command(_, .packMismatch) = error { result.passwordRefused = true }
                return result
            }
        }

        private func writeVerifyAndLock(lock: Bool, actions: inout [String]) async -> WriteFailure? {
            var step = "write"
            do throws(NDEFSessionError) {
                let template: NTAGMirrorTemplate?
                if options.mirror {
                    let mirrorTemplate: NTAGMirrorTemplate
                    do throws(ToolError) {
                        mirrorTemplate = try MirrorWriting.template(
                            for: options.message, chip: tag.chip, command: "provision")
                    } catch {
                        return WriteFailure(
                            failure: ProvisionRecord.Failure(
                                step: "write", message: error.summary, state: "nothing was written"))
                    }
                    guard let type2 else { throw .unsupportedTag(reason: "the tag has no ASCII mirror") }
                    try await type2.writeNDEF(mirroring: mirrorTemplate)
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
                    // The write read back every page it wrote and compared it byte for byte with
                    // the message's bytes, and read the pages it left alone on this connection
                    // just before: those bytes, decoded as a reader decodes them, are the message
                    // read back. Reading them once more would repeat the same frames.
                    back = WriteCommand.decodedAsStored(options.message)
                }
                guard let back, matches(back, template: template) else {
                    return WriteFailure(
                        failure: ProvisionRecord.Failure(
                            step: "verify",
                            message: "verify failed: the message read back differs from the one written",
                            state: "the tag holds another message than the one written"))
                }
                actions.append("verify")
                if lock {
                    step = "lock"
                    try await tag.writeLock()
                    actions.append("lock")
                }
                return nil
            } catch {
                var result = WriteFailure(failure: await job.failure(error, step: step, done: actions))
                if case .tagNotWritable = error { result.refusedWrite = true }
                if case .authenticationRequired = error { result.refusedWrite = true }
                return result
            }
        }

        private func matches(_ back: NDEFMessage, template: NTAGMirrorTemplate?) -> Bool {
            template.map { MirrorWriting.matches(back, $0) } ?? (back == options.message)
        }

        /// Password protection, on the connection that wrote the message (its current
        /// password is the station's own when a retry finds it already protected).
        func protect(with protection: ProvisionOptions.Protection) async -> ProvisionRecord.Failure? {
            let done = "the new message is written and verified; "
            guard let ntag = type2 else {
                return ProvisionRecord.Failure(
                    step: "protect",
                    message: "\(tag.chip?.rawValue ?? "unknown") has no password protection (PWD_AUTH)",
                    state: done + "not protected")
            }
            do throws(TagSessionError) {
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
                return await job.failure(error, step: "protect", state: state)
            }
        }

        /// Locks the protected tag: the message read back and compared, then the lock.
        func lock() async -> ProvisionRecord.Failure? {
            do throws(NDEFSessionError) {
                let template =
                    options.mirror
                    ? try? MirrorWriting.template(for: options.message, chip: tag.chip, command: "provision") : nil
                guard matches(try await tag.readNDEF(), template: template) else {
                    return ProvisionRecord.Failure(
                        step: "lock", message: "the message read back before locking differs from the one written",
                        state: "protected, not locked")
                }
                try await tag.writeLock()
                return nil
            } catch {
                return await job.failure(error, step: "lock", done: ["write", "verify", "protect"])
            }
        }
    }

    // MARK: - Failures

    /// A session failure at `step`: the message a person reads, and what the tag holds.
    fileprivate func failure(_ error: NDEFSessionError, step: String, done: [String]) async -> ProvisionRecord.Failure {
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

    fileprivate func failure(_ error: TagSessionError, step: String, state: String) async -> ProvisionRecord.Failure {
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

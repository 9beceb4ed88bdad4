import Foundation
import NFCChips

/// One tag through a ``ProvisioningStation``: identify, write (tear-safe), verify, then
/// optionally protect and lock, all on one ``TagSession`` connection.
///
/// The station's poll that found the tag alone is the alone check of the write, verify and
/// lock while nothing selects the tag again; protect proves its password from a fresh
/// selection. A tag already protected with the plan's password (a retry after a failure
/// past the protect step) is opened with PWD_AUTH on the same connection and finished.
/// The write reads back every page it wrote; verify decodes those bytes (with a mirror it
/// reads the message again, since the chip's mirror shows only in a read).
struct ProvisioningJob {
    enum Outcome {
        /// Provisioned, failed (the record says where) or skipped.
        case handled(ProvisioningRecord)
        /// More than one tag in the field: nothing was sent to any.
        case severalTags(Int)
        /// The tag left before it could be identified: nothing was done.
        case vanished
    }

    let device: NFCDevice
    let plan: ProvisioningPlan
    let timeout: Duration
    /// The tag as the station saw it alone in the field.
    let target: ISO14443ATarget

    func run(isProvisioned: ([UInt8]) -> Bool) async -> Outcome {
        let start = ContinuousClock.now
        var record = ProvisioningRecord(uid: target.uid, result: .failed)
        func finish(_ failure: ProvisioningRecord.Failure?) -> Outcome {
            record.result = failure == nil ? .ok : .failed
            record.failure = failure
            record.milliseconds = Self.milliseconds(since: start)
            return .handled(record)
        }

        let session: TagSession
        do {
            session = try await TagSession.connect(on: device, timeout: timeout, aloneCheckBeforeEveryWrite: false)
        } catch .severalTags(let uids) {
            return .severalTags(uids.count)
        } catch .noTag {
            return .vanished
        } catch {
            return finish(await failure(error, step: .identify, state: "nothing was written"))
        }
        record.uid = session.uid
        record.chip = session.chip
        if isProvisioned(session.uid) {
            record.result = .skipped
            record.milliseconds = Self.milliseconds(since: start)
            return .handled(record)
        }
        guard let chip = session.chip else {
            return finish(
                .init(
                    step: .identify, message: "the chip is not one NFCTagKit knows (\(session.target))",
                    state: "nothing was written"))
        }
        if let sun = plan.sun {
            return finish(await setUpSUN(session, sun: sun, actions: &record.actions))
        }
        guard let ndef = session.ndefHandle else {
            return finish(
                .init(
                    step: .write, message: "\(chip.rawValue) holds no NDEF NFCTagKit can write",
                    state: "nothing was written"))
        }
        // PWD_AUTH, protection and the mirror need a chip whose table has PWD_AUTH; another
        // (plain Ultralight, Ultralight C) is refused in the words below, nothing sent.
        let type2: NFCType2Tag?
        if case .type2(let ntag) = session.tag, ChipTables.spec(for: chip).supports(.passwordAuthenticate) {
            type2 = ntag
        } else {
            type2 = nil
        }
        let steps = Steps(job: self, tag: ndef, type2: type2)

        // Write and verify (and lock here when no password comes between).
        if let failure = await steps.writeAndVerify(
            lock: plan.lock && plan.protection == nil, actions: &record.actions)
        {
            return finish(failure)
        }
        if let protection = plan.protection {
            if let failure = await steps.protect(with: protection) { return finish(failure) }
            record.actions.append(.protect)
            if plan.lock {
                if let failure = await steps.lock() { return finish(failure) }
                record.actions.append(.lock)
            }
        }
        return finish(nil)
    }

    /// The SUN URL and its SDM settings (verified by reading them back), then the URL read
    /// once as a phone reads it and compared with the template.
    private func setUpSUN(_ session: TagSession, sun: ProvisioningPlan.SUN, actions: inout [ProvisioningRecord.Step])
        async -> ProvisioningRecord.Failure?
    {
        var step = ProvisioningRecord.Step.sunSetup
        do throws(TagSessionError) {
            let ntag = try session.isoDEPTag().ntag424()
            var macKey = AES128Key.zero
            if let master = sun.masterKey {
                do { macKey = try KeyDiversification.sunMACKey(masterKey: master, uid: session.uid) } catch {
                    return .init(
                        step: step, message: "cannot diversify the MAC key: \(error)", state: "nothing was written")
                }
            }
            try await ntag.setUpSUN(
                sun.template, keys: NTAG424SUNKeys(metaReadKey: sun.metaReadKey, fileReadKey: macKey))
            actions.append(.sunSetup)
            step = .verify
            try await ntag.selectApplication()
            let expected = sun.template.fileContent
            let file = try await ntag.readData(
                file: NTAG424DNATable.ndefFileNumber, length: expected.count, mode: .plain)
            // The mirrors differ at every read: compare everything else.
            let same = zip(file, expected).allSatisfy { $0 == $1 || $1 == UInt8(ascii: "0") }
            guard file.count == expected.count, same else {
                return .init(
                    step: step, message: "the URL read back differs from the template",
                    state: "SUN settings written; the NDEF file holds another URL")
            }
            actions.append(.verify)
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
        let job: ProvisioningJob
        /// The tag's NDEF calls.
        let tag: any NFCNDEFTag
        /// The same handle's chip commands, on a Type 2 tag (PWD_AUTH, protection, mirror).
        let type2: NFCType2Tag?

        private var plan: ProvisioningPlan { job.plan }

        /// Writes and verifies the message; locks it too with `lock`. With an authentication
        /// the tag is opened first; a tag that refuses the write and may be protected with
        /// the plan's own password is opened with it and written again.
        func writeAndVerify(lock: Bool, actions: inout [ProvisioningRecord.Step]) async
            -> ProvisioningRecord.Failure?
        {
            if let (password, pack) = plan.authentication,
                let refusal = await authenticate(password: password, pack: pack)
            {
                return refusal.failure
            }
            let first = await writeVerifyAndLock(lock: lock, actions: &actions)
            guard let first, actions.isEmpty, let protection = plan.protection, first.refusedWrite else {
                return first?.failure
            }
            // The refused write may have left the tag IDLE (a NAK): select it before PWD_AUTH.
            do throws(TagSessionError) {
                try await type2?.session.reselect()
            } catch {
                return await job.failure(error, step: .write, state: "nothing was written")
            }
            // A password refused means the tag was not ours to begin with: report the first refusal.
            if let refusal = await authenticate(password: protection.password, pack: protection.pack) {
                return refusal.passwordRefused ? first.failure : refusal.failure
            }
            return await writeVerifyAndLock(lock: lock, actions: &actions)?.failure
        }

        private struct WriteFailure {
            var failure: ProvisioningRecord.Failure
            var refusedWrite = false
            var passwordRefused = false
        }

        /// PWD_AUTH with `password`, the PACK checked: the NDEF calls that follow present it
        /// again whenever they select the tag.
        private func authenticate(password: TagPassword, pack: PACK?) async -> WriteFailure? {
            guard let type2 else {
                return WriteFailure(
                    failure: .init(
                        step: .write, message: "\(tag.chip?.rawValue ?? "unknown") has no PWD_AUTH password",
                        state: "nothing was written"))
            }
            do throws(TagSessionError) {
                try await type2.authenticate(password: password, expectedPACK: pack)
                return nil
            } catch {
                var result = WriteFailure(failure: await job.failure(error, step: .write, state: "nothing was written"))
                if case .command(_, .authenticationFailed) = error { result.passwordRefused = true }
                if case .command(_, .packMismatch) = error { result.passwordRefused = true }
                return result
            }
        }

        private func writeVerifyAndLock(lock: Bool, actions: inout [ProvisioningRecord.Step]) async -> WriteFailure? {
            var step = ProvisioningRecord.Step.write
            do throws(NDEFSessionError) {
                let template: NTAGMirrorTemplate?
                if plan.mirror {
                    let mirrorTemplate: NTAGMirrorTemplate
                    do { mirrorTemplate = try job.mirrorTemplate(chip: tag.chip) } catch {
                        return WriteFailure(
                            failure: .init(step: .write, message: "\(error)", state: "nothing was written"))
                    }
                    guard let type2 else { throw .unsupportedTag(reason: "the tag has no ASCII mirror") }
                    try await type2.writeNDEF(mirroring: mirrorTemplate)
                    template = mirrorTemplate
                } else {
                    template = nil
                    try await tag.writeNDEF(plan.message)
                }
                actions.append(.write)
                step = .verify
                let back: NDEFMessage?
                if template != nil {
                    // The chip's mirror shows only in what a read returns: read the message again.
                    back = try await tag.readNDEF()
                } else {
                    // The write read back every page it wrote and compared it byte for byte, and
                    // read the pages it left alone on this connection just before: those bytes,
                    // decoded as a reader decodes them, are the message read back.
                    back = plan.message.decodedAsStored
                }
                guard let back, matches(back, template: template) else {
                    return WriteFailure(
                        failure: .init(
                            step: .verify, message: "verify failed: the message read back differs from the one written",
                            state: "the tag holds another message than the one written"))
                }
                actions.append(.verify)
                if lock {
                    step = .lock
                    try await tag.writeLock()
                    actions.append(.lock)
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
            template.map { $0.isShown(in: back) } ?? (back == plan.message)
        }

        /// Password protection, on the connection that wrote the message (its current
        /// password is the plan's own when a retry finds it already protected).
        func protect(with protection: ProvisioningPlan.Protection) async -> ProvisioningRecord.Failure? {
            let done = "the new message is written and verified; "
            guard let ntag = type2 else {
                return .init(
                    step: .protect,
                    message: "\(tag.chip?.rawValue ?? "unknown") has no password protection (PWD_AUTH)",
                    state: done + "not protected")
            }
            do throws(TagSessionError) {
                try await ntag.protect(
                    password: protection.password, pack: protection.pack,
                    from: protection.fromPage ?? ntag.memory.firstUserPage, readProtected: protection.readProtected,
                    authLimit: protection.authLimit, lockConfiguration: protection.lockConfiguration,
                    currentPassword: protection.password, consent: protection.consent)
                return nil
            } catch {
                var state = done + "not protected"
                if case .interrupted(_, let passwordState, _) = error { state = done + passwordState.description }
                return await job.failure(error, step: .protect, state: state)
            }
        }

        /// Locks the protected tag: the message read back and compared, then the lock.
        func lock() async -> ProvisioningRecord.Failure? {
            do throws(NDEFSessionError) {
                let template = plan.mirror ? try? job.mirrorTemplate(chip: tag.chip) : nil
                guard matches(try await tag.readNDEF(), template: template) else {
                    return .init(
                        step: .lock, message: "the message read back before locking differs from the one written",
                        state: "protected, not locked")
                }
                try await tag.writeLock()
                return nil
            } catch {
                return await job.failure(error, step: .lock, done: [.write, .verify, .protect])
            }
        }
    }

    /// The plan's mirror template on `chip`.
    func mirrorTemplate(chip: Chip?) throws -> NTAGMirrorTemplate {
        guard plan.message.records.count == 1, let uri = plan.message.records.first?.uri else {
            throw MirrorRefusal(description: "a mirror takes a message of one URI record")
        }
        guard let chip else { throw MirrorRefusal(description: "the chip is unknown, so its mirror is too") }
        return try NTAGMirrorTemplate(uri: uri, chip: chip)
    }

    private struct MirrorRefusal: Error, CustomStringConvertible {
        let description: String
    }

    // MARK: - Failures

    /// A session failure at `step`, and what the tag holds.
    fileprivate func failure(_ error: NDEFSessionError, step: ProvisioningRecord.Step, done: [ProvisioningRecord.Step])
        async -> ProvisioningRecord.Failure
    {
        let state: String
        switch error {
        case .connectionLost(_, let content, _), .tagUpdateFailure(_, let content, _):
            state = content.description
        default:
            state =
                done.contains(.verify)
                ? "the new message is written and verified" + (done.contains(.protect) ? " and protected" : "")
                    + ", not locked" : "the tag holds its previous message"
        }
        var tagLeft = false
        if case .connectionLost(_, _, nil) = error { tagLeft = true }
        return await located(
            .init(step: step, message: error.description, state: state, error: error), tagLeft: tagLeft)
    }

    fileprivate func failure(_ error: TagSessionError, step: ProvisioningRecord.Step, state: String) async
        -> ProvisioningRecord.Failure
    {
        var tagLeft = false
        switch error {
        case .tagLost, .interrupted(_, _, .tagLost): tagLeft = true
        default: break
        }
        return await located(
            .init(step: step, message: error.description, state: state, error: error), tagLeft: tagLeft)
    }

    /// `failure` with where the tag and the reader are: a tag pulled away mid-write often
    /// shows only as a write that was not acknowledged, so the field is looked at.
    private func located(_ failure: ProvisioningRecord.Failure, tagLeft: Bool) async -> ProvisioningRecord.Failure {
        var failure = failure
        failure.readerLost = await device.status != .connected
        failure.tagLeft = tagLeft
        if !failure.readerLost, !tagLeft, let targets = try? await device.listTargets(maximum: 2) {
            failure.tagLeft = !targets.contains { $0.uid == target.uid }
        }
        return failure
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}

extension NDEFSession {
    /// Waits for the session's gate (one operation of this session at a time: a polling
    /// round, a connect, or a tag operation), then for the device's tag access (so that
    /// other sessions on the device wait as well), and holds both until ``releaseGate()``.
    /// When another user had the field since this session's last turn,
    /// ``fieldUsedElsewhere`` is set so that the next operation selects its tag again.
    ///
    /// - Parameters:
    ///   - purpose: what the session does, named to a user that waits too long behind it.
    ///   - limited: whether the gates' wait limit applies (not to the polling loop, which
    ///     is cancelled when it should stop).
    /// - Throws: ``NDEFSessionError/cancelled`` or ``NDEFSessionError/readerBusy(heldBy:)``;
    ///   neither gate is held then.
    func acquireGate(for purpose: String, limited: Bool = true) async throws(NDEFSessionError) {
        do {
            try await gate.acquire(owner: nil, purpose: purpose, limited: limited)
        } catch {
            throw NDEFSessionError(error)
        }
        do {
            if try await device.tagAccess.acquire(owner: self, purpose: purpose, limited: limited) {
                fieldUsedElsewhere = true
            }
        } catch {
            gate.release()
            throw NDEFSessionError(error)
        }
    }

    /// Hands the device's tag access and the session's gate on.
    func releaseGate() {
        device.tagAccess.release()
        gate.release()
    }
}

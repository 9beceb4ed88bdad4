internal import Locking
import NDEF
import NFCChips
import NFCTags

extension TagSession {
    /// Runs an NDEF driver call on this connection's tag as the only user of the device's
    /// tag. `exclusive` (a write or lock) first checks that the tag is alone in the field,
    /// as the NDEF session does; the check selects the tag again, so the password or key
    /// that opened it is presented again (``TagCredentials``). Without
    /// ``aloneCheckBeforeEveryWrite`` the poll that found the tag alone stays the check while
    /// nothing has selected the tag again since, nor seen it NAK or fail.
    func performNDEF<T: Sendable>(
        exclusive: Bool,
        _ body: @Sendable (any NDEFTagDriver) async throws(NDEFTagError) -> T
    ) async throws(NDEFSessionError) -> T {
        let driver = try await ndefDriverForCurrentCredentials()
        let fieldUsedElsewhere: Bool
        do {
            fieldUsedElsewhere = try await device.tagAccess.acquire(
                owner: self, purpose: "a tag session's NDEF operation on tag \(uid.hexString())")
        } catch {
            throw NDEFSessionError(error)
        }
        defer { device.tagAccess.release() }
        // Someone else had the field: what the driver read of the configuration may no longer hold.
        if fieldUsedElsewhere, let type2 = driver as? Type2NDEFDriver { await type2.forgetConfiguration() }
        // Without a look before every write, the poll that found the tag alone and selected it
        // stands while nothing has selected the tag again since, nor seen it NAK or fail: the
        // tag is still selected (and still open with any password presented on it).
        var proven = false
        if !aloneCheckBeforeEveryWrite { proven = await device.targetAloneSincePoll?.uid == uid }
        let reopening = NDEFSessionTransport(base: transport, chip: chip, remembered: credentials)
        if exclusive, !proven {
            // The alone check selects the tag: only the password or key is presented again.
            try await selectAlone()
            if credentials.value != TagCredentials.Value() { try await reopen(reopening.presentCredentials) }
        } else if fieldUsedElsewhere, !proven {
            try await reopen(reopening.reselect)
        }
        do {
            return try await body(driver)
        } catch {
            throw NDEFSessionError(error, readerLoss: await readerLoss())
        }
    }

    /// The driver for this connection's chip, one for the connection (what it verified allows
    /// `writeLock`); told when a password started or stopped opening the tag.
    private func ndefDriverForCurrentCredentials() async throws(NDEFSessionError) -> any NDEFTagDriver {
        let authenticated = credentials.value != TagCredentials.Value()
        if let ndefDriver {
            if ndefDriver.authenticated != authenticated, let type2 = ndefDriver.driver as? Type2NDEFDriver {
                await type2.setPasswordAuthenticated(authenticated)
            }
            self.ndefDriver = (ndefDriver.driver, authenticated)
            return ndefDriver.driver
        }
        guard let chip else {
            throw .unsupportedTag(reason: "the chip is not identified (\(identification))")
        }
        let driver: any NDEFTagDriver
        do {
            driver = try NDEFTagDrivers.driver(
                for: chip, transport: NDEFSessionTransport(base: transport, chip: chip, remembered: credentials),
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
            occupancy = try await device.selectIfAlone(uid: uid, isoDEP: target.isISODEP)
        } catch {
            throw NDEFSessionError(error)
        }
        switch occupancy {
        case .alone: return
        case .several(let count): throw .severalTags(count: count)
        case .absent:
            throw .connectionLost(step: nil, state: .previousMessageIntact, readerLoss: await readerLoss())
        }
    }

    /// Runs `step` (a re-selection, or the password or key presented); a failure is the tag lost.
    private func reopen(_ step: () async throws(TagTransportError) -> Void) async throws(NDEFSessionError) {
        do {
            try await step()
        } catch {
            throw .connectionLost(step: nil, state: .previousMessageIntact, readerLoss: await readerLoss())
        }
    }

    /// Why the reader is gone, or `nil` while it is there.
    private func readerLoss() async -> DisconnectReason? {
        await device.readerLoss()
    }
}

/// The password (and PACK) or Ultralight C key that last authenticated on a ``TagSession``,
/// kept so that the NDEF calls can open the tag again after they re-select it.
final class TagCredentials: Sendable {
    struct Value: Sendable, Equatable {
        var password: TagPassword?
        var expectedPACK: PACK?
        var ultralightCKey: UltralightCKey?
    }

    private let storage = Locked(Value())

    var value: Value { storage.withLock { $0 } }

    func remember(password: TagPassword, expectedPACK: PACK?) {
        storage.withLock { $0 = Value(password: password, expectedPACK: expectedPACK) }
    }

    func remember(ultralightCKey: UltralightCKey) {
        storage.withLock { $0 = Value(ultralightCKey: ultralightCKey) }
    }

    func forget() {
        storage.withLock { $0 = Value() }
    }
}

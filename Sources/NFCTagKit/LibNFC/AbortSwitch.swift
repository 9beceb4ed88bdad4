internal import CLibNFC
import Foundation
internal import Locking

/// Ends a blocking libnfc call from another thread with `nfc_abort_command`.
///
/// libnfc's pn532_uart driver aborts by closing and re-creating a pipe that its
/// `uart_receive` watches with `select`; the abort only lands while the device thread is
/// inside a receive, and is lost otherwise. So the switch remembers whether a call is in
/// flight, aborts only then, and repeats the abort every ``retryInterval`` until the call
/// returns. The device pointer is read and used under the lock, and ``disarm()`` (before
/// `nfc_close`) takes the same lock: no abort ever reaches a closed device.
final class AbortSwitch: Sendable {
    private struct State {
        var device: UInt?  // nfc_device * as a bit pattern
        var inCall = false
        var callID: UInt64 = 0
        var abortRequested = false
    }

    private let state = Locked(State())

    /// How often an abort is repeated while the call has not returned.
    let retryInterval: Duration = .milliseconds(100)

    /// Makes `device` the target of later aborts.
    func arm(_ device: LibNFCDeviceHandle) {
        state.withLock {
            $0.device = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(device.pointer)))
            $0.abortRequested = false
        }
    }

    /// Forgets the device; call before `nfc_close`.
    func disarm() {
        state.withLock { $0.device = nil }
    }

    /// True once ``requestAbort()`` was called, until the next ``reset()``.
    var isAbortRequested: Bool { state.withLock { $0.abortRequested } }

    /// Clears a past request (at the start of a new cancellable operation).
    func reset() {
        state.withLock { $0.abortRequested = false }
    }

    /// Runs `body` (a blocking libnfc call) marked as abortable.
    func abortable<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        state.withLock {
            $0.inCall = true
            $0.callID &+= 1
        }
        defer { state.withLock { $0.inCall = false } }
        return try body()
    }

    /// Asks the current and any later abortable call to end. Safe from any thread.
    func requestAbort() {
        let callID: UInt64? = state.withLock {
            $0.abortRequested = true
            return $0.inCall ? $0.callID : nil
        }
        if let callID { abort(callID: callID) }
    }

    private func abort(callID: UInt64) {
        let stillRunning = state.withLock { state -> Bool in
            guard state.inCall, state.callID == callID, let bits = state.device,
                let pointer = OpaquePointer(bitPattern: bits)
            else { return false }
            nfc_abort_command(pointer)
            return true
        }
        guard stillRunning else { return }
        let delay = retryInterval.components
        let nanoseconds = Int(delay.seconds) * 1_000_000_000 + Int(delay.attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
            abort(callID: callID)
        }
    }
}

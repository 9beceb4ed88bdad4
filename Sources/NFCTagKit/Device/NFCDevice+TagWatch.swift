extension NFCDevice {
    /// Watches the field until the task is cancelled and emits ``ReaderEvent/tagDetected(uid:chip:)``
    /// when a tag arrives and ``ReaderEvent/tagRemoved(uid:)`` when it leaves (what
    /// `nfctag monitor` streams). `identify` names the chip from what selection learnt
    /// (`"unknown"` by default). Survives automatic reconnections; ends with the
    /// connection error when the reader is gone for good.
    public func watchTags(interval: Duration = .milliseconds(200),
                          identify: @escaping @Sendable (ISO14443ATarget) async -> String = { _ in "unknown" })
        async throws(NFCDeviceError) {
        var current: ISO14443ATarget?
        while !Task.isCancelled {
            do {
                if let present = current {
                    if try !isTargetPresent() {
                        current = nil
                        emit(.tagRemoved(uid: present.uid))
                        continue
                    }
                } else if let target = try selectTarget() {
                    current = target
                    emit(.tagDetected(uid: target.uid, chip: await identify(target)))
                }
            } catch .connectionLost(let reason) {
                if let present = current {
                    current = nil
                    emit(.tagRemoved(uid: present.uid))
                }
                guard status == .connecting else { throw .connectionLost(reason) }
            } catch .noTargetSelected {
                // The selection was dropped by another call (or a reset): look again.
                current = nil
            }
            do { try await Task.sleep(for: interval) } catch { return }
        }
    }
}

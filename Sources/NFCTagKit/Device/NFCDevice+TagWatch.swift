import NFCChips
import NFCTags

extension NFCDevice {
    /// Watches the field until the task is cancelled and emits ``ReaderEvent/tagDetected(uid:chip:)``
    /// when a tag arrives and ``ReaderEvent/tagRemoved(uid:)`` when it leaves (what
    /// `nfctag monitor` streams). With `identifyChips` each new type A tag is identified as
    /// ``TagSession`` does it (ATQA / SAK, GET_VERSION, the Ultralight C probe); without, the
    /// event's chip is `nil`. When no type A tag answers, a FeliCa card, a type B card (an
    /// ISO-DEP one is `type4`) or a Type 1 tag is looked for, and watched by polling for it
    /// again. Survives automatic reconnections; ends with the connection error when the
    /// reader is gone for good.
    public func watchTags(interval: Duration = .milliseconds(200), identifyChips: Bool = true)
        async throws(NFCDeviceError)
    {
        var current: NFCTarget?
        while !Task.isCancelled {
            do {
                if let present = current {
                    let stillThere = present.typeA == nil ? try reselect(present) : try isTargetPresent()
                    if !stillThere {
                        current = nil
                        emit(.tagRemoved(uid: present.uid))
                        continue
                    }
                } else if let target = try selectTarget() {
                    current = .iso14443A(target)
                    emit(.tagDetected(uid: target.uid, chip: identifyChips ? await chip(of: target) : nil))
                } else if let card = try selectCardOrNothing() {
                    current = card
                    emit(.tagDetected(uid: card.uid, chip: card.typeB?.isISODEP == true ? .type4 : nil))
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

    /// The chip of the selected `target`, or nil when identification fails.
    private func chip(of target: ISO14443ATarget) async -> Chip? {
        try? await TagIdentifier.identify(over: await DeviceTagTransport(device: self, target: target)).chip
    }
}

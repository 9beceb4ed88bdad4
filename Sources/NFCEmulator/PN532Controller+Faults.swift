import NFCChips

/// Where the planned faults strike: every frame to a tag passes ``exchangeWithTag(_:_:)``.
extension PN532Controller {
    /// The counters and pending state the fault plan needs.
    struct FaultState: Sendable, Equatable {
        /// The tag `tear-after` watches (the first tag in the field when counting starts).
        var watchedTag: Field.TagHandle?
        /// Frames delivered to the watched tag.
        var framesToWatchedTag = 0
        /// Command frames from the host.
        var hostFrames = 0
        /// Answer frames sent to the host.
        var answerFrames = 0
        /// Page writes carried out, for `tear-in-write`.
        var pageWrites = 0
    }

    /// Sends `frame` to a tag, unless a planned fault answers for it.
    mutating func exchangeWithTag(_ frame: [UInt8], _ handle: Field.TagHandle) -> TagAnswer {
        if let code = frame.first {
            statistics.tagFramesByCode[code, default: 0] += 1
            lastTagCode = code
        }
        guard countFrameToTag(handle) else { return TagAnswer(reply: .silence) }
        if let answer = failEEPROMCycle(frame, handle) { return answer }
        if let code = frame.first, faults.timeoutCommands.contains(code) { return TagAnswer(reply: .silence) }
        if let page = Self.addressedPage(frame) {
            if faults.nakPages.contains(page) {
                return field.impose(.nak(Type2Acknowledgement.invalidArgument), on: handle)
            }
            if faults.timeoutPages.contains(page) { return TagAnswer(reply: .silence) }
        }
        return field.exchange(frame, with: handle)
    }

    /// Whether the host command `code` carries a tag command of `mute-command` (InDataExchange
    /// `Tg cmd…`, InCommunicateThru `cmd…`): the chip then holds its answer.
    func holdsMutedExchange(_ code: UInt8, _ data: [UInt8]) -> Bool {
        guard !faults.muteCommands.isEmpty else { return false }
        let tagCommand: UInt8? =
            switch code {
            case spec.code(.inDataExchange): data.dropFirst().first
            case spec.code(.inCommunicateThru): data.first
            default: nil
            }
        return tagCommand.map(faults.muteCommands.contains) ?? false
    }

    /// A page write the tag would carry out, when a fault strikes its EEPROM cycle:
    /// `eeprom-fail-page` (half-written, the EEPROM-error NAK) or `tear-in-write` (torn, the
    /// tag gone without an answer). `nil` when the frame goes to the tag as usual.
    mutating func failEEPROMCycle(_ frame: [UInt8], _ handle: Field.TagHandle) -> TagAnswer? {
        guard field.state(of: handle) == .active, let write = field.tag(handle)?.eepromWrite(for: frame) else {
            return nil
        }
        if faults.eepromFailurePages.contains(write.address) {
            _ = field.withTag(handle) { $0.interruptWrite(write, leaving: write.failedContent) }
            return field.impose(.nak(write.failureCode), on: handle)
        }
        guard let tear = faults.tearInWrite else { return nil }
        faultState.pageWrites += 1
        guard faultState.pageWrites == tear.write else { return nil }
        _ = field.withTag(handle) { $0.interruptWrite(write, leaving: write.tornContent(seed: tear.seed)) }
        field.remove(handle)
        return TagAnswer(reply: .silence)
    }

    /// Counts a frame for `tear-after`; `false` once the watched tag has left the field.
    mutating func countFrameToTag(_ handle: Field.TagHandle) -> Bool {
        guard let limit = faults.tagLeavesAfterFrames else { return true }
        if faultState.watchedTag == nil { faultState.watchedTag = field.handles.first }
        guard handle == faultState.watchedTag else { return true }
        guard faultState.framesToWatchedTag < limit else {
            field.remove(handle)
            return false
        }
        faultState.framesToWatchedTag += 1
        return true
    }

    /// The page or block a tag command addresses (its second byte), when the command's
    /// datasheet layout has one (`AA`, `BB` or `SS`).
    static func addressedPage(_ frame: [UInt8]) -> Int? {
        guard frame.count >= 2 else { return nil }
        let addressed = ChipTables.chips.contains { chip in
            guard chip.family != .type4, let command = chip.command(code: frame[0]) else { return false }
            return ["AA", "BB", "SS"].contains { command.request.contains($0) }
        }
        return addressed ? Int(frame[1]) : nil
    }

    /// Garbles the DCS of the planned answer frame.
    mutating func garbleIfPlanned(_ frame: [UInt8]) -> [UInt8] {
        faultState.answerFrames += 1
        guard faultState.answerFrames == faults.garbleAnswerFrame, frame.count >= 2 else { return frame }
        var garbled = frame
        garbled[garbled.count - 2] ^= 0xFF
        return garbled
    }

    /// Counts a host command frame and notes when the plan unplugs the reader.
    mutating func countHostFrame() {
        faultState.hostFrames += 1
        if let limit = faults.unplugAfterFrames, faultState.hostFrames == limit { unplugRequested = true }
    }
}

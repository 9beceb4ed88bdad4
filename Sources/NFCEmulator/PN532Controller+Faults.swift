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
        /// A Classic WRITE to an EEPROM-failure block whose data frame comes next.
        var failingClassicWrite: (handle: Field.TagHandle, block: Int)?

        static func == (lhs: FaultState, rhs: FaultState) -> Bool {
            lhs.watchedTag == rhs.watchedTag && lhs.framesToWatchedTag == rhs.framesToWatchedTag
                && lhs.hostFrames == rhs.hostFrames && lhs.answerFrames == rhs.answerFrames
                && lhs.failingClassicWrite?.handle == rhs.failingClassicWrite?.handle
                && lhs.failingClassicWrite?.block == rhs.failingClassicWrite?.block
        }
    }

    /// Sends `frame` to a tag, unless a planned fault answers for it.
    mutating func exchangeWithTag(_ frame: [UInt8], _ handle: Field.TagHandle) -> TagAnswer {
        if let code = frame.first {
            statistics.tagFramesByCode[code, default: 0] += 1
            lastTagCode = code
        }
        guard countFrameToTag(handle) else { return TagAnswer(reply: .silence) }
        if let pending = faultState.failingClassicWrite, pending.handle == handle {
            faultState.failingClassicWrite = nil
            return failClassicWriteData(frame, block: pending.block, handle)
        }
        if let code = frame.first, faults.timeoutCommands.contains(code) { return TagAnswer(reply: .silence) }
        if let page = Self.addressedPage(frame) {
            if faults.nakPages.contains(page) { return field.impose(.nak(Type2Acknowledgement.invalidArgument), on: handle) }
            if faults.timeoutPages.contains(page) { return TagAnswer(reply: .silence) }
            if faults.eepromFailurePages.contains(page), let answer = failWrite(frame, page: page, handle) { return answer }
        }
        return field.exchange(frame, with: handle)
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

    /// A WRITE to an EEPROM-failure page of a Type 2 tag: NAK 5, the page kept when it is
    /// tearing-protected, else half-written. A Classic WRITE is ACKed and its data frame
    /// fails. `nil` for anything else (it goes to the tag as usual).
    mutating func failWrite(_ frame: [UInt8], page: Int, _ handle: Field.TagHandle) -> TagAnswer? {
        let written: Bool? = field.withTag(handle) { tag -> Bool? in
            guard var type2 = tag as? Type2Tag, let write = type2.spec.command(.write), frame.first == write.code,
                  frame.count == write.requestLength, type2.writeRefusal(page) == nil else { return nil }
            if !type2.memoryMap.isTearingProtected(page) {
                let half = type2.memoryMap.pageSize / 2
                type2.program(Array(frame[2..<(2 + half)]) + type2.page(page)[half...], page: page)
            }
            tag = type2
            return true
        } ?? nil
        if written == true { return field.impose(.nak(Type2Acknowledgement.eepromWriteError), on: handle) }
        guard let classic = field.tag(handle) as? ClassicTag, let write = classic.spec.command(.write),
              frame.first == write.code, frame.count == write.requestLength else { return nil }
        let answer = field.exchange(frame, with: handle)
        if case .acknowledge = answer.reply { faultState.failingClassicWrite = (handle, page) }
        return answer
    }

    /// The data frame of a failing Classic WRITE: the first half of the block takes the new
    /// bytes, the rest keeps the old ones, and the card answers NAK 5.
    mutating func failClassicWriteData(_ frame: [UInt8], block: Int, _ handle: Field.TagHandle) -> TagAnswer {
        guard let classic = field.tag(handle) as? ClassicTag, frame.count == classic.geometry.blockSize else {
            return field.exchange(frame, with: handle)
        }
        let half = frame.count / 2
        _ = field.exchange(Array(frame.prefix(half)) + classic.block(block)[half...], with: handle)
        return field.impose(.nak(classic.acknowledgement(.transmissionError)), on: handle)
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

import NFCChips

/// Splits the host's byte stream into PN532 frames, as the chip's HSU interface does.
///
/// A pure value: feed it whatever a `read` returned (one byte, half a frame, two frames
/// and some noise) and it returns the events that are complete. It scans for the start
/// code to resynchronise after garbage, checks LCS and DCS, tells ACK and NACK frames
/// from information frames and reports the HSU wake-up preamble. It never keeps more than
/// one frame's worth of bytes.
///
/// ```swift
/// var parser = PN532FrameParser(spec: ChipTables.pn532.frame)
/// let events = parser.feed(bytesFromHost)
/// ```
public struct PN532FrameParser: Sendable {
    /// The frame constants from the tables.
    package let spec: PN532FrameSpec
    /// Bytes received but not yet part of a complete event.
    private var pending: [UInt8] = []
    /// Stream offset of `pending[0]`.
    private var pendingOffset = 0
    /// Whether the current run of noise already produced a ``PN532HostEvent/wakeUp``.
    private var wakeUpReported = false

    /// A parser at the start of a stream.
    package init(spec: PN532FrameSpec) {
        self.spec = spec
    }

    /// The number of bytes held while waiting for the rest of a frame.
    public var bufferedByteCount: Int { pending.count }

    /// Appends `bytes` and returns every event they complete, in order.
    public mutating func feed(_ bytes: [UInt8]) -> [PN532HostEvent] {
        pending += bytes
        var events: [PN532HostEvent] = []
        while let event = nextEvent() { events.append(event) }
        return events
    }

    /// Whether a frame has started (start code seen) and its remaining bytes are awaited.
    /// A host whose LEN was corrupted in a way LCS still accepts leaves the parser here:
    /// the chip gives up on such a frame when the line goes quiet (``timeOutIncompleteFrame()``).
    public var isWaitingForFrame: Bool {
        pending.count >= spec.startCode.count && Array(pending.prefix(spec.startCode.count)) == spec.startCode
    }

    /// The line went quiet in the middle of a frame: as the PN532 does, drop that frame
    /// (reported as ``PN532FrameError/Check/incompleteFrame``) and scan again from the byte
    /// after its start code, returning any frame found in the bytes already received.
    public mutating func timeOutIncompleteFrame() -> [PN532HostEvent] {
        guard isWaitingForFrame else { return [] }
        let error = PN532FrameError(
            offset: pendingOffset, check: .incompleteFrame,
            expected: "the rest of the frame; the line went quiet after \(pending.count) bytes")
        drop(1)
        return [.malformed(error)] + feed([])
    }

    /// Forgets a half-received frame (used when the port is reopened).
    public mutating func reset() {
        pendingOffset += pending.count
        pending.removeAll()
        wakeUpReported = false
    }

    private mutating func drop(_ count: Int) {
        pending.removeFirst(count)
        pendingOffset += count
    }

    /// The next complete event, or `nil` when more bytes are needed.
    private mutating func nextEvent() -> PN532HostEvent? {
        let start = spec.startCode
        guard let startIndex = firstIndex(of: start) else {
            // Keep only a tail that could still begin a start code.
            let keep = min(pending.count, start.count - 1)
            noteNoise(pending.prefix(pending.count - keep))
            drop(pending.count - keep)
            return nil
        }
        noteNoise(pending.prefix(startIndex))
        drop(startIndex)
        if let wakeUp = takeWakeUp() { return wakeUp }
        return frameAtStart()
    }

    /// Reports a wake-up once per run of noise that contains the wake-up byte.
    private var sawWakeUpInNoise = false
    private mutating func noteNoise(_ noise: ArraySlice<UInt8>) {
        guard let wakeByte = spec.wakeUpPreamble.first, !wakeUpReported else { return }
        if noise.contains(wakeByte) { sawWakeUpInNoise = true }
    }

    private mutating func takeWakeUp() -> PN532HostEvent? {
        guard sawWakeUpInNoise else { return nil }
        sawWakeUpInNoise = false
        wakeUpReported = true
        return .wakeUp
    }

    /// Parses the frame whose start code is at `pending[0]`.
    private mutating func frameAtStart() -> PN532HostEvent? {
        let headerStart = spec.startCode.count
        guard pending.count >= headerStart + 2 else { return nil }
        let pair = [pending[headerStart], pending[headerStart + 1]]
        if pair == Array(spec.ackFrame.dropFirst(spec.preamble.count + headerStart).prefix(2)) {
            drop(headerStart + 2)
            wakeUpReported = false
            return .ack
        }
        if pair == Array(spec.nackFrame.dropFirst(spec.preamble.count + headerStart).prefix(2)) {
            drop(headerStart + 2)
            wakeUpReported = false
            return .nack
        }
        let length: Int
        let bodyStart: Int
        if pair == spec.extendedLengthMarker {
            guard pending.count >= headerStart + 5 else { return nil }
            let high = pending[headerStart + 2]
            let low = pending[headerStart + 3]
            let checksum = pending[headerStart + 4]
            guard high &+ low &+ checksum == 0 else {
                return rejectHeader(
                    .lengthChecksum,
                    "LENhi \(high.hexString(uppercase: true)) + LENlo \(low.hexString(uppercase: true)) + LCS must be 0, got \(checksum.hexString(uppercase: true))"
                )
            }
            length = Int(high) << 8 | Int(low)
            bodyStart = headerStart + 5
        } else {
            guard pair[0] &+ pair[1] == 0 else {
                return rejectHeader(
                    .lengthChecksum,
                    "LEN \(pair[0].hexString(uppercase: true)) + LCS must be 0, got \(pair[1].hexString(uppercase: true))"
                )
            }
            length = Int(pair[0])
            bodyStart = headerStart + 2
        }
        guard length >= 2, length <= spec.maximumDataLength + 2 else {
            return rejectHeader(.length, "LEN between 2 and \(spec.maximumDataLength + 2), got \(length)")
        }
        guard pending.count >= bodyStart + length + 1 else { return nil }
        let body = Array(pending[bodyStart..<(bodyStart + length)])
        let checksum = pending[bodyStart + length]
        let offset = pendingOffset
        drop(bodyStart + length + 1)
        wakeUpReported = false
        guard body.reduce(checksum, &+) == 0 else {
            return .malformed(
                PN532FrameError(
                    offset: offset, check: .dataChecksum,
                    expected:
                        "DCS \(PN532FrameSpec.dataChecksum(body).hexString(uppercase: true)), got \(checksum.hexString(uppercase: true))"
                ))
        }
        guard body[0] == spec.hostToChipTFI else {
            return .malformed(
                PN532FrameError(
                    offset: offset, check: .frameIdentifier,
                    expected:
                        "TFI \(spec.hostToChipTFI.hexString(uppercase: true)), got \(body[0].hexString(uppercase: true))"
                ))
        }
        return .command(code: body[1], data: Array(body.dropFirst(2)))
    }

    /// Reports a bad header and resumes the scan one byte further, so a start code hidden
    /// inside the rejected bytes is still found.
    private mutating func rejectHeader(_ check: PN532FrameError.Check, _ expected: String) -> PN532HostEvent {
        let error = PN532FrameError(offset: pendingOffset, check: check, expected: expected)
        drop(1)
        return .malformed(error)
    }

    private func firstIndex(of pattern: [UInt8]) -> Int? {
        guard !pattern.isEmpty, pending.count >= pattern.count else { return nil }
        for index in 0...(pending.count - pattern.count) where pending[index] == pattern[0] {
            if Array(pending[index..<(index + pattern.count)]) == pattern { return index }
        }
        return nil
    }
}

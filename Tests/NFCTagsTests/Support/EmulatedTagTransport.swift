import NFCEmulator
@testable import NFCTags

/// A ``TagTransport`` that drives an ``EmulatedTag`` in process (no PN532, no libnfc).
///
/// Tear injection: ``cut(after:mode:)`` lets `k` more frames through, then the tag
/// "leaves the field": every later frame throws ``TagTransportError/tagLost``.
/// ``bringBack()`` puts it back (field reset, same memory) and selects it.
///
/// Like a real reader it models the tag's activation state: after a NAK or silence the
/// tag is no longer ACTIVE and ignores frames (they time out) until ``reselect()``.
actor EmulatedTagTransport: TagTransport {
    /// When the cut frame is lost.
    enum CutMode: Sendable, CaseIterable {
        /// Frame k+1 never reaches the tag.
        case beforeDelivery
        /// Frame k+1 reaches the tag (and is carried out), but its answer is lost.
        case answerLost
    }

    nonisolated let target: TagTarget
    nonisolated let maximumFrameLength: Int
    /// The tag model (its memory is what the tests inspect).
    private(set) var tag: any EmulatedTag
    /// Every frame the tag received, in order.
    private(set) var frames: [[UInt8]] = []
    private var remainingBeforeCut: Int?
    private var cutMode: CutMode = .beforeDelivery
    private var inField = true
    private var active = true

    init(tag: any EmulatedTag, maximumFrameLength: Int = 252) {
        self.tag = tag
        self.target = TagTarget(uid: tag.identity.uid, atqa: tag.identity.atqa, sak: tag.identity.sak, ats: tag.identity.ats)
        self.maximumFrameLength = maximumFrameLength
        self.tag.fieldReset()
    }

    /// Lets `frames` more frames through, then the tag leaves the field.
    func cut(after frames: Int, mode: CutMode = .beforeDelivery) {
        remainingBeforeCut = frames
        cutMode = mode
    }

    /// The tag comes back into the field: volatile state reset, memory kept, selected again.
    func bringBack() {
        remainingBeforeCut = nil
        inField = true
        active = true
        tag.fieldReset()
    }

    /// The tag model, cast to its type.
    func model<T: EmulatedTag>(as type: T.Type = T.self) -> T? { tag as? T }

    /// Frames whose first byte is `code`.
    func frames(withCode code: UInt8) -> [[UInt8]] { frames.filter { $0.first == code } }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError) -> TagResponse {
        guard inField else { throw .tagLost }
        if let remaining = remainingBeforeCut {
            if remaining == 0 {
                inField = false
                if cutMode == .answerLost, active {
                    frames.append(frame)
                    _ = tag.receive(frame)
                }
                tag.fieldReset()
                throw .tagLost
            }
            remainingBeforeCut = remaining - 1
        }
        guard active else { throw .timeout }
        frames.append(frame)
        let answer = tag.receive(frame)
        if answer.leavesActiveState {
            active = false
            tag.leaveActiveState()
        }
        switch answer.reply {
        case .bytes(let bytes): return .bytes(bytes)
        case .acknowledge: return .ack
        case .negativeAcknowledge(let code):
            if framing == .standard { throw .timeout }
            return .nak(code)
        case .silence: throw .timeout
        }
    }

    func reselect() async throws(TagTransportError) {
        guard inField else { throw .tagLost }
        if let remaining = remainingBeforeCut {
            if remaining == 0 {
                inField = false
                tag.fieldReset()
                throw .tagLost
            }
            remainingBeforeCut = remaining - 1
        }
        tag.leaveActiveState()
        active = true
    }

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        throw .reader(reason: "authenticateClassic is not modelled by this transport")
    }
}

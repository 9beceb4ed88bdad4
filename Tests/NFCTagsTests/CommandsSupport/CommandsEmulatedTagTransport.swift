import NFCEmulator
import NFCTags

/// An in-process ``TagTransport`` over an emulated tag model (no PN532, no libnfc), with a
/// cut injected at any exchange: the tag leaves the field before or after the cut frame
/// reaches it, and every later call fails with ``TagTransportError/tagLost``.
actor CommandsEmulatedTagTransport<Tag: EmulatedTag>: TagTransport {
    /// Where the tag leaves the field.
    struct Cut: Sendable, CustomStringConvertible {
        /// The exchange (0-based; frames and re-selections both count) that never completes.
        var exchange: Int
        /// Whether the tag still received and carried out the cut frame (its answer is lost).
        var tagReceivesFrame: Bool
        var description: String { "cut at exchange \(exchange)\(tagReceivesFrame ? " after the tag received it" : "")" }
    }

    nonisolated let target: TagTarget
    nonisolated let maximumFrameLength: Int
    /// The tag model, as it is now.
    private(set) var tag: Tag
    /// Frames sent so far.
    private(set) var frames: [[UInt8]] = []
    /// Exchanges so far (frames and re-selections).
    private(set) var exchanges = 0
    private var isActive = true
    private var isInField = true
    private let cut: Cut?

    init(tag: Tag, maximumFrameLength: Int = 60, cut: Cut? = nil) {
        let identity = tag.identity
        self.target = TagTarget(uid: identity.uid, atqa: identity.atqa, sak: identity.sak, ats: identity.ats)
        self.maximumFrameLength = maximumFrameLength
        self.tag = tag
        self.cut = cut
    }

    /// Whether the injected cut happened.
    var wasCut: Bool { !isInField }

    /// Counts the exchange; returns `true` when this one is cut.
    private func reachesCut() -> Bool {
        defer { exchanges += 1 }
        return cut?.exchange == exchanges
    }

    private func leaveField() {
        isInField = false
        tag.fieldReset()
    }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError) -> TagResponse {
        guard isInField else { throw .tagLost }
        if reachesCut() {
            if cut?.tagReceivesFrame == true, isActive { _ = tag.receive(frame) }
            leaveField()
            throw .tagLost
        }
        frames.append(frame)
        guard isActive else { throw .timeout }
        let answer = tag.receive(frame)
        if answer.leavesActiveState { isActive = false }
        switch answer.reply {
        case .bytes(let bytes): return .bytes(bytes)
        case .acknowledge: return .ack
        case .negativeAcknowledge(let code):
            if framing == .raw { return .nak(code) }
            throw .timeout
        case .silence: throw .timeout
        }
    }

    func reselect() async throws(TagTransportError) {
        guard isInField else { throw .tagLost }
        if reachesCut() {
            leaveField()
            throw .tagLost
        }
        tag.leaveActiveState()
        isActive = true
    }

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        throw .reader(reason: "MIFARE Classic is not modelled by this transport")
    }
}

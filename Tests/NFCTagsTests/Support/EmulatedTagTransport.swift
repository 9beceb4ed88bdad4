import NFCChips
import NFCEmulator
@testable import NFCTags

/// A ``TagTransport`` that drives an emulated tag model in process (no PN532, no libnfc).
///
/// Tear injection: ``cut(after:mode:)`` (or the `cut:` of the initializer) lets `k` more
/// exchanges through — frames and re-selections both count — then the tag "leaves the
/// field": every later call throws ``TagTransportError/tagLost``. ``bringBack()`` puts it
/// back (field reset, same memory) and selects it.
///
/// ``tear(_:)`` cuts a page write off inside its EEPROM cycle instead (the emulator's
/// `tear-in-write` fault): the page keeps ``EEPROMWrite/tornContent(seed:)`` and the tag
/// leaves the field without answering.
///
/// Like a real reader it models the tag's activation state: after a NAK or silence the
/// tag is no longer ACTIVE and ignores frames (they time out) until ``reselect()``.
/// What happens to the exchange at which an emulated tag leaves the field.
enum TagCutMode: Sendable, CaseIterable {
    /// The cut frame never reaches the tag.
    case beforeDelivery
    /// The cut frame reaches the tag (and is carried out), but its answer is lost.
    case answerLost
}

/// Where an emulated tag leaves the field: at exchange `exchange` (0-based).
struct TagCut: Sendable, CustomStringConvertible {
    var exchange: Int
    /// Whether the tag still received and carried out the cut frame.
    var tagReceivesFrame: Bool
    var description: String { "cut at exchange \(exchange)\(tagReceivesFrame ? " after the tag received it" : "")" }
}

actor EmulatedTagTransport<Tag: EmulatedTag>: TagTransport {
    typealias CutMode = TagCutMode
    typealias Cut = TagCut

    nonisolated let target: TagTarget
    nonisolated let maximumFrameLength: Int
    /// The tag model, as it is now (its memory is what the tests inspect).
    private(set) var tag: Tag
    /// Every frame the tag received, in order.
    private(set) var frames: [[UInt8]] = []
    /// Exchanges so far (frames and re-selections).
    private(set) var exchanges = 0
    /// Page writes (EEPROM cycles) the tag started, the torn one included.
    private(set) var pageWrites = 0
    private var writeTear: WriteTear?
    private var remainingBeforeCut: Int?
    private var cutMode: CutMode = .beforeDelivery
    private var inField = true
    private var active = true

    init(tag: Tag, maximumFrameLength: Int = 252, cut: Cut? = nil) {
        self.tag = tag
        let identity = tag.identity
        self.target = TagTarget(uid: identity.uid, atqa: identity.atqa, sak: identity.sak, ats: identity.ats)
        self.maximumFrameLength = maximumFrameLength
        self.tag.fieldReset()
        if let cut {
            remainingBeforeCut = cut.exchange
            cutMode = cut.tagReceivesFrame ? .answerLost : .beforeDelivery
        }
    }

    /// Whether the injected cut happened.
    var wasCut: Bool { !inField }

    /// Lets `exchanges` more exchanges through, then the tag leaves the field.
    func cut(after exchanges: Int, mode: CutMode = .beforeDelivery) {
        remainingBeforeCut = exchanges
        cutMode = mode
    }

    /// The `tear.write`-th page write from now on is cut off mid-cycle, and the tag leaves.
    func tear(_ tear: WriteTear) {
        writeTear = tear
        pageWrites = 0
    }

    /// The tag comes back into the field: volatile state reset, memory kept, selected again.
    func bringBack() {
        remainingBeforeCut = nil
        writeTear = nil
        inField = true
        active = true
        tag.fieldReset()
    }

    /// The tag model, cast to `type`.
    func model<T: EmulatedTag>(as type: T.Type = T.self) -> T? { tag as? T }

    /// Frames whose first byte is `code`.
    func frames(withCode code: UInt8) -> [[UInt8]] { frames.filter { $0.first == code } }

    /// Counts the exchange; true when the tag leaves the field at this one.
    private func reachesCut() -> Bool {
        exchanges += 1
        guard let remaining = remainingBeforeCut else { return false }
        if remaining == 0 { return true }
        remainingBeforeCut = remaining - 1
        return false
    }

    private func leaveField() {
        inField = false
        tag.fieldReset()
    }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError)
        -> TagResponse
    {
        guard inField else { throw .tagLost }
        if reachesCut() {
            if cutMode == .answerLost, active {
                frames.append(frame)
                _ = tag.receive(frame)
            }
            leaveField()
            throw .tagLost
        }
        guard active else { throw .timeout }
        frames.append(frame)
        if let write = tag.eepromWrite(for: frame) {
            pageWrites += 1
            if let tear = writeTear, pageWrites == tear.write {
                tag.interruptWrite(write, leaving: write.tornContent(seed: tear.seed))
                leaveField()
                throw .tagLost
            }
        }
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
        if reachesCut() {
            leaveField()
            throw .tagLost
        }
        tag.leaveActiveState()
        active = true
    }

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        throw .reader(reason: "MIFARE Classic authentication is not modelled by this transport")
    }
}

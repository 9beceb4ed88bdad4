import NFCChips
import NFCEmulator
@testable import NFCTags

/// A ``TagTransport`` over an emulated ``ClassicTag`` as a PN532 drives it, in process:
/// ``authenticateClassic(block:keyType:key:)`` is the PN532's Crypto1 authentication
/// (InDataExchange `60/61 block key uid`), and a WRITE sent as one frame (`A0 bb` + 16
/// bytes) goes on air as its two frames. Like InDataExchange, a NAK or silence arrives as
/// a timeout, and the card leaves ACTIVE until ``reselect()``.
///
/// Every exchange — frame, authentication, re-selection — is logged (``log``) and counted
/// for tear injection: ``cut(after:mode:)`` lets `k` more exchanges through, then the
/// card leaves the field; ``bringBack()`` puts it back with the same memory. ``tear(_:)``
/// cuts a block write off inside its EEPROM cycle instead (the emulator's `tear-in-write`).
actor ClassicTagTransport: TagTransport {
    /// When the cut exchange is lost.
    enum CutMode: Sendable, CaseIterable {
        /// Exchange k+1 never reaches the card.
        case beforeDelivery
        /// Exchange k+1 is carried out by the card, but its answer is lost.
        case answerLost
    }

    nonisolated let target: TagTarget
    nonisolated let maximumFrameLength = 252
    /// The card (its memory is what the tests inspect).
    private(set) var tag: ClassicTag
    /// Every exchange, as text: `AUTH A 07 D3F7D3F7D3F7 ok`, `30 04`, `A0 04 03 00 FE …`, `RESELECT`.
    private(set) var log: [String] = []
    private var remainingBeforeCut: Int?
    private var cutMode: CutMode = .beforeDelivery
    private var inField = true
    private var active = true
    /// Block writes (EEPROM cycles) the card started, the torn one included.
    private(set) var pageWrites = 0
    private var writeTear: WriteTear?

    init(tag: ClassicTag) {
        self.tag = tag
        self.target = TagTarget(uid: tag.identity.uid, atqa: tag.identity.atqa, sak: tag.identity.sak)
        self.tag.fieldReset()
    }

    /// Exchanges so far.
    var exchanges: Int { log.count }

    /// Lets `exchanges` more exchanges through, then the card leaves the field.
    func cut(after exchanges: Int, mode: CutMode = .beforeDelivery) {
        remainingBeforeCut = exchanges
        cutMode = mode
    }

    /// The `tear.write`-th block write from now on is cut off mid-cycle, and the card leaves.
    func tear(_ tear: WriteTear) {
        writeTear = tear
        pageWrites = 0
    }

    /// The card comes back into the field: memory kept, authentication lost, selected again.
    func bringBack() {
        remainingBeforeCut = nil
        writeTear = nil
        inField = true
        active = true
        tag.fieldReset()
    }

    /// Forgets the log (after a set-up pass).
    func clearLog() { log = [] }

    /// Counts one exchange; `false` when the card has just left the field (the exchange is
    /// then carried out only in ``CutMode/answerLost`` mode, by `carryOut`).
    private func passes(_ carryOut: () -> Void) -> Bool {
        guard let remaining = remainingBeforeCut else { return true }
        if remaining > 0 {
            remainingBeforeCut = remaining - 1
            return true
        }
        inField = false
        if cutMode == .answerLost, active { carryOut() }
        tag.fieldReset()
        return false
    }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError)
        -> TagResponse
    {
        guard inField else { throw .tagLost }
        guard passes({ _ = onAir(frame) }) else { throw .tagLost }
        log.append(Self.hex(frame))
        guard active else { throw .timeout }
        guard let answer = onAir(frame) else {
            guard inField else { throw .tagLost }
            active = false
            tag.leaveActiveState()
            throw .timeout
        }
        return answer
    }

    /// The frame on air (split in two for WRITE); `nil` for a NAK or silence.
    private func onAir(_ frame: [UInt8]) -> TagResponse? {
        if let write = Self.write, frame.first == write.code, let second = write.secondFrameLength,
            frame.count == write.requestLength + second
        {
            let data = Array(frame.dropFirst(write.requestLength))
            guard case .acknowledge = tag.receive(Array(frame.prefix(write.requestLength))).reply, !tearsNow(data),
                case .acknowledge = tag.receive(data).reply
            else { return nil }
            return .ack
        }
        let answer = tag.receive(frame)
        switch answer.reply {
        case .bytes(let bytes): return .bytes(bytes)
        case .acknowledge: return .ack
        case .negativeAcknowledge, .silence: return nil
        }
    }

    /// Counts a block write; true when it is the planned tear: the block keeps the torn
    /// content and the card leaves the field.
    private func tearsNow(_ data: [UInt8]) -> Bool {
        guard let write = tag.eepromWrite(for: data) else { return false }
        pageWrites += 1
        guard let tear = writeTear, pageWrites == tear.write else { return false }
        tag.interruptWrite(write, leaving: write.tornContent(seed: tear.seed))
        inField = false
        tag.fieldReset()
        return true
    }

    func reselect() async throws(TagTransportError) {
        guard inField else { throw .tagLost }
        guard passes({}) else { throw .tagLost }
        log.append("RESELECT")
        tag.leaveActiveState()
        active = true
    }

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        guard inField else { throw .tagLost }
        let request = ClassicAuthentication(
            keyType: keyType == .a ? .a : .b, block: Int(block), key: key,
            uid: Array(tag.identity.uid.suffix(4)))
        guard passes({ _ = tag.authenticate(request) }) else { throw .tagLost }
        let accepted = active && tag.authenticate(request)
        log.append(
            "AUTH \(keyType == .a ? "A" : "B") \(Self.hex([block])) \(Self.hex(key, separator: "")) \(accepted ? "ok" : "refused")"
        )
        guard accepted else {
            active = false
            tag.leaveActiveState()
            throw .authenticationFailed
        }
    }

    /// WRITE from the table (the PN532 splits it in two frames).
    private static let write = ChipTables.spec(for: .classic1k).command(.write)

    static func hex(_ bytes: [UInt8], separator: String = " ") -> String {
        bytes.hexString(uppercase: true, separator: separator)
    }
}

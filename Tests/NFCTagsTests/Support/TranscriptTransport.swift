import NFCChips
import NFCTags

extension Array where Element == UInt8 {
    /// Bytes from hex text such as `"30 04"` or `"3004"` (test literals only).
    init(commandHex text: String) {
        let digits = text.filter { !$0.isWhitespace }
        precondition(digits.count.isMultiple(of: 2), "odd hex literal \(text)")
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else {
                preconditionFailure("bad hex literal \(text)")
            }
            bytes.append(byte)
            index = next
        }
        self = bytes
    }
}

/// One expected event of a transcript: a frame and its canned answer, or a re-selection.
struct TranscriptStep: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case exchange(frame: [UInt8], framing: TagFraming, answer: Result<TagResponse, TagTransportError>)
        case reselect
        case classicAuthentication(block: UInt8, keyType: ClassicKeyType, key: [UInt8], accepted: Bool)
    }
    var kind: Kind

    /// `frame` (hex) sent with `framing` is answered with data bytes (hex).
    static func send(_ frame: String, _ framing: TagFraming = .raw, answer: String) -> TranscriptStep {
        TranscriptStep(
            kind: .exchange(
                frame: [UInt8](commandHex: frame), framing: framing,
                answer: .success(.bytes([UInt8](commandHex: answer)))))
    }
    /// `frame` is answered with an ACK.
    static func send(_ frame: String, _ framing: TagFraming = .raw, ack: Void = ()) -> TranscriptStep {
        TranscriptStep(kind: .exchange(frame: [UInt8](commandHex: frame), framing: framing, answer: .success(.ack)))
    }
    /// `frame` is answered with a NAK.
    static func send(_ frame: String, _ framing: TagFraming = .raw, nak code: UInt8) -> TranscriptStep {
        TranscriptStep(
            kind: .exchange(frame: [UInt8](commandHex: frame), framing: framing, answer: .success(.nak(code))))
    }
    /// `frame` fails with a transport error.
    static func send(_ frame: String, _ framing: TagFraming = .raw, fails error: TagTransportError) -> TranscriptStep {
        TranscriptStep(kind: .exchange(frame: [UInt8](commandHex: frame), framing: framing, answer: .failure(error)))
    }
    /// `frame` (bytes) sent with `framing` is answered with `answer`.
    static func send(_ frame: [UInt8], _ framing: TagFraming = .raw, answer: TagResponse) -> TranscriptStep {
        TranscriptStep(kind: .exchange(frame: frame, framing: framing, answer: .success(answer)))
    }
    /// `frame` (bytes) sent with `framing` fails with a transport error.
    static func send(_ frame: [UInt8], _ framing: TagFraming = .raw, error: TagTransportError) -> TranscriptStep {
        TranscriptStep(kind: .exchange(frame: frame, framing: framing, answer: .failure(error)))
    }
    /// The tag is selected again.
    static let reselect = TranscriptStep(kind: .reselect)
    /// A Classic authentication, accepted or refused.
    static func classicAuthentication(block: UInt8, _ keyType: ClassicKeyType, key: String, accepted: Bool = true)
        -> TranscriptStep
    {
        TranscriptStep(
            kind: .classicAuthentication(
                block: block, keyType: keyType, key: [UInt8](commandHex: key), accepted: accepted))
    }

    var description: String {
        switch kind {
        case .exchange(let frame, let framing, _): "\(framing) \(frame.map { String($0, radix: 16) })"
        case .reselect: "reselect"
        case .classicAuthentication(let block, let keyType, _, _): "Classic auth block \(block) key \(keyType)"
        }
    }
}

/// A transport that plays a transcript: each call must be the next expected step (same
/// frame, same framing), which answers with its canned response; anything else is recorded
/// as a mismatch and fails the exchange.
actor TranscriptTransport: TagTransport {
    nonisolated let target: TagTarget
    nonisolated let maximumFrameLength: Int
    nonisolated let maximumAnswerLength: Int
    private let steps: [TranscriptStep]
    private var position = 0
    /// Every deviation from the transcript.
    private(set) var mismatches: [String] = []

    init(
        target: TagTarget = TagTarget(uid: [UInt8](commandHex: "04 47 5E D2 9C 39 80"), atqa: 0x0044, sak: 0x00),
        maximumFrameLength: Int = 252, maximumAnswerLength: Int = .max, steps: [TranscriptStep]
    ) {
        self.target = target
        self.maximumFrameLength = maximumFrameLength
        self.maximumAnswerLength = maximumAnswerLength
        self.steps = steps
    }

    /// A transcript of `steps` for a 7-byte-UID Type 2 target.
    init(_ steps: [TranscriptStep], maximumFrameLength: Int = 252) {
        self.init(
            target: TagTarget(uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66], atqa: 0x0044, sak: 0x00),
            maximumFrameLength: maximumFrameLength, steps: steps)
    }

    /// Steps not played yet.
    var remaining: Int { steps.count - position }

    /// The mismatches, plus any step that was never played.
    var problems: [String] {
        mismatches + steps[position...].map { "never played: \($0)" }
    }

    private func nextStep(_ seen: String) -> TranscriptStep? {
        guard position < steps.count else {
            mismatches.append("unexpected after the end: \(seen)")
            return nil
        }
        defer { position += 1 }
        return steps[position]
    }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError)
        -> TagResponse
    {
        let seen = "\(framing) \(frame.map { String($0, radix: 16) })"
        guard let step = nextStep(seen) else { throw .reader(reason: "transcript ended") }
        guard case .exchange(let expected, let expectedFraming, let answer) = step.kind, expected == frame,
            expectedFraming == framing
        else {
            mismatches.append("expected \(step), got \(seen)")
            throw .reader(reason: "transcript mismatch")
        }
        return try answer.get()
    }

    func reselect() async throws(TagTransportError) {
        guard let step = nextStep("reselect") else { throw .reader(reason: "transcript ended") }
        guard case .reselect = step.kind else {
            mismatches.append("expected \(step), got reselect")
            throw .reader(reason: "transcript mismatch")
        }
    }

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        let seen = "Classic auth block \(block) key \(keyType)"
        guard let step = nextStep(seen) else { throw .reader(reason: "transcript ended") }
        guard
            case .classicAuthentication(let expectedBlock, let expectedType, let expectedKey, let accepted) = step.kind,
            expectedBlock == block, expectedType == keyType, expectedKey == key
        else {
            mismatches.append("expected \(step), got \(seen)")
            throw .reader(reason: "transcript mismatch")
        }
        if !accepted { throw .authenticationFailed }
    }
}

/// `"30 04"`: bytes as upper-case hex for test messages.
func hex(_ bytes: [UInt8]) -> String { bytes.hexString(uppercase: true, separator: " ") }

@testable import NFCTags

/// A ``TagTransport`` that plays a transcript: each step is the frame the driver must send
/// and the answer to give. A frame that differs from the script is recorded and fails the
/// exchange, so a test can `#expect(await transport.mismatches.isEmpty)` and that every
/// step was used.
actor TranscriptTransport: TagTransport {
    /// One expected exchange.
    struct Step: Sendable {
        var frame: [UInt8]
        var answer: Result<TagResponse, TagTransportError>

        static func send(_ frame: [UInt8], answer: TagResponse) -> Step { Step(frame: frame, answer: .success(answer)) }
        static func send(_ frame: [UInt8], error: TagTransportError) -> Step { Step(frame: frame, answer: .failure(error)) }
    }

    nonisolated let target = TagTarget(uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66], atqa: 0x0044, sak: 0x00)
    nonisolated let maximumFrameLength: Int
    private var steps: [Step]
    private(set) var used = 0
    private(set) var mismatches: [String] = []
    private(set) var reselections = 0

    init(_ steps: [Step], maximumFrameLength: Int = 252) {
        self.steps = steps
        self.maximumFrameLength = maximumFrameLength
    }

    /// Steps not used yet.
    var remaining: Int { steps.count - used }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError) -> TagResponse {
        guard used < steps.count else {
            mismatches.append("unexpected extra frame \(hex(frame))")
            throw .reader(reason: "transcript ended")
        }
        let step = steps[used]
        used += 1
        guard step.frame == frame else {
            mismatches.append("step \(used): expected \(hex(step.frame)), got \(hex(frame))")
            throw .reader(reason: "transcript mismatch")
        }
        return try step.answer.get()
    }

    func reselect() async throws(TagTransportError) { reselections += 1 }

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        mismatches.append("unexpected Classic authentication of block \(block)")
        throw .reader(reason: "transcript mismatch")
    }
}

/// `"30 04"`.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16, uppercase: true).count == 1 ? "0" + String($0, radix: 16, uppercase: true) : String($0, radix: 16, uppercase: true) }
        .joined(separator: " ")
}

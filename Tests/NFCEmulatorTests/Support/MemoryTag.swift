@testable import NFCEmulator

/// A test double: a tag that records every frame and answers from a script keyed by the
/// frame's first byte; unknown frames get silence.
struct ScriptedTag: EmulatedTag {
    var identity: TagIdentity
    var script: [UInt8: TagAnswer]
    var received: [[UInt8]] = []
    var fieldResets = 0
    var deactivations = 0

    init(uid: [UInt8], atqa: UInt16 = 0x0044, sak: UInt8 = 0x00, ats: [UInt8]? = nil, script: [UInt8: TagAnswer] = [:])
    {
        identity = TagIdentity(uid: uid, atqa: atqa, sak: sak, ats: ats)
        self.script = script
    }

    mutating func receive(_ frame: [UInt8]) -> TagAnswer {
        received.append(frame)
        guard let first = frame.first, let answer = script[first] else { return .silence }
        return answer
    }

    mutating func fieldReset() { fieldResets += 1 }
    mutating func leaveActiveState() { deactivations += 1 }
}

import NFCChips
@testable import NFCEmulator

/// A Type 1 tag behind the PN532's firmware, for transports that hand frames straight to a
/// tag model: the short form the library sends becomes the frame on air, and the answer
/// loses its address byte, as ``PN532Controller`` does it.
struct PN532Type1Tag: EmulatedTag {
    var tag: Type1Tag

    var identity: TagIdentity { tag.identity }

    mutating func receive(_ frame: [UInt8]) -> TagAnswer {
        guard let (name, onAir) = PN532Controller.type1Frame(frame, jewelID: tag.identity.uid) else { return .silence }
        let answer = tag.receive(onAir)
        guard case .bytes(let bytes) = answer.reply else { return answer }
        return .bytes(PN532Controller.type1Reply(name, bytes))
    }

    mutating func fieldReset() { tag.fieldReset() }
    mutating func leaveActiveState() { tag.leaveActiveState() }
}

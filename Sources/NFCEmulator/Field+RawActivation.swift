import NFCChips

/// ISO/IEC 14443-3 activation frames a reader sends raw (PN532 InCommunicateThru, as
/// libnfc's `nfc-anticol` does): REQA / WUPA, ANTICOLLISION and SELECT per cascade level.
/// The tag states follow ISO/IEC 14443-3 (as the NTAG21x data sheet §8.4 quotes them): IDLE
/// or HALT → READY on REQA / WUPA, READY through the cascade levels, ACTIVE on the last
/// SELECT; a tag that is ACTIVE takes any of these frames as an unexpected command and drops
/// out without answering. Values (cascade tag, BCC, SAK cascade bit) come from the ISO/IEC
/// 14443-3 table (`datasheets/iso14443a.json`).
extension Field {
    /// REQA (WUPA when `wakeUp`): the tags that answer, in the order they entered, now READY
    /// at cascade level 1. An ACTIVE or READY tag drops out without answering.
    mutating func request(wakeUp: Bool) -> [TagIdentity] {
        setPower(true)
        var answering: [TagIdentity] = []
        for index in slots.indices where slots[index].tag.identity.answersTypeA {
            switch slots[index].state {
            case .active, .ready:
                dropOut(index)
            case .idle, .halt:
                guard slots[index].state == .idle || wakeUp else { continue }
                slots[index].wokenFromHalt = slots[index].state == .halt
                slots[index].state = .ready
                slots[index].cascadeLevel = 0
                answering.append(slots[index].tag.identity)
            }
        }
        return answering
    }

    /// ANTICOLLISION at cascade `level` (0-based) with the first `knownBits` bits of the
    /// level's 5 UID bytes already given: the answers (the level's 5 bytes, CT or UID and
    /// BCC) of the READY tags at that level whose bits match. Tags in ACTIVE drop out.
    mutating func anticollision(level: Int, known: [UInt8], knownBits: Int) -> [[UInt8]] {
        var answers: [[UInt8]] = []
        for index in slots.indices {
            if slots[index].state == .active {
                dropOut(index)
                continue
            }
            guard slots[index].state == .ready, slots[index].cascadeLevel == level,
                let bytes = Self.cascadeBytes(of: slots[index].tag.identity, level: level),
                Self.bits(bytes, match: known, count: knownBits)
            else { continue }
            answers.append(bytes)
        }
        return answers
    }

    /// SELECT at cascade `level` naming the 5 bytes `named`: the SAK of the tag selected (the
    /// cascade bit set while levels remain), which goes ACTIVE after its last level; `nil`
    /// when no READY tag at that level has those bytes. Every READY tag whose bytes at that
    /// level match is selected and answers: tags that share a cascade level all move on to the
    /// next one (their SAKs, cascade bit only, agree on air), where ANTICOLLISION separates them.
    mutating func select(level: Int, named: [UInt8]) -> UInt8? {
        let iso = ChipTables.iso14443a
        var sak: UInt8?
        for index in slots.indices {
            if slots[index].state == .active {
                dropOut(index)
                continue
            }
            guard slots[index].state == .ready, slots[index].cascadeLevel == level,
                let levels = iso.cascadeAnswers(uid: slots[index].tag.identity.uid),
                level < levels.count, levels[level] == named
            else { continue }
            if level == levels.count - 1 {
                slots[index].state = .active
                sak = sak ?? slots[index].tag.identity.sak
            } else {
                slots[index].cascadeLevel = level + 1
                sak = iso.sakCascadeBit
            }
        }
        return sak
    }

    /// The first tag that is ACTIVE, for raw frames after an activation the reader ran itself.
    var firstActive: TagHandle? { slots.first { $0.state == .active }?.handle }

    /// An unexpected frame: the tag leaves ACTIVE or READY for IDLE, or HALT when it was woken from HALT.
    private mutating func dropOut(_ index: Int) {
        if slots[index].state == .active { slots[index].tag.leaveActiveState() }
        slots[index].state = slots[index].wokenFromHalt ? .halt : .idle
    }

    private static func cascadeBytes(of identity: TagIdentity, level: Int) -> [UInt8]? {
        guard let levels = ChipTables.iso14443a.cascadeAnswers(uid: identity.uid), level < levels.count else {
            return nil
        }
        return levels[level]
    }

    /// Whether the first `count` bits of `bytes` (least significant bit of each byte first,
    /// as they go on air) equal those of `known`.
    private static func bits(_ bytes: [UInt8], match known: [UInt8], count: Int) -> Bool {
        for bit in 0..<count {
            let byte = bit / 8
            let mask = UInt8(1) << UInt8(bit % 8)
            guard byte < known.count, byte < bytes.count else { return false }
            if bytes[byte] & mask != known[byte] & mask { return false }
        }
        return true
    }
}

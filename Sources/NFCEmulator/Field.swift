import NFCChips

/// The RF field of the emulated reader and the tags inside it.
///
/// Tags enter and leave at any time; each keeps its ISO/IEC 14443-3A state (IDLE, READY,
/// ACTIVE, HALT). Switching the field off resets every tag's volatile state.
///
/// ```swift
/// var field = Field()
/// let handle = field.insert(try Type2Tag(chip: .ntag215, uid: uid))
/// field.setPower(true)
/// let selected = field.activate(uidFilter: nil, excluding: [])   // == handle
/// ```
public struct Field: Sendable {
    /// Names one tag while it is in the field.
    public struct TagHandle: Hashable, Sendable, CustomStringConvertible {
        /// A number unique for the life of the field.
        public let rawValue: Int
        /// `tag#N`.
        public var description: String { "tag#\(rawValue)" }
    }

    /// The ISO/IEC 14443-3A states a tag passes through.
    public enum ActivationState: Sendable, Equatable {
        /// Powered, waiting for REQA or WUPA.
        case idle
        /// Answered REQA/WUPA; anticollision in progress.
        case ready
        /// Selected: the tag model receives frames.
        case active
        /// Halted by HLTA: only WUPA wakes it.
        case halt
    }

    struct Slot: Sendable {
        var handle: TagHandle
        var tag: any EmulatedTag
        var state: ActivationState
        /// Whether the tag was woken from HALT: an error sends it back to HALT, not IDLE.
        var wokenFromHalt = false
        /// In READY: the cascade level (0-based) the tag's anticollision has reached.
        var cascadeLevel = 0
    }

    var slots: [Slot] = []
    private var nextHandle = 1
    /// Tags that left the field, with their memory as they left it (a tag torn away by a
    /// fault too), one per UID; a tag put back into the field leaves this list.
    public private(set) var departedTags: [any EmulatedTag] = []
    /// Whether the reader's RF field is on.
    public private(set) var isPowered = false

    /// An empty field, switched off.
    public init() {}

    /// A field holding `tags`, in order, switched off.
    public init(tags: [any EmulatedTag]) {
        for tag in tags { insert(tag) }
    }

    /// The tags now in the field, in the order they entered.
    public var handles: [TagHandle] { slots.map(\.handle) }

    /// Puts a tag into the field; it starts in IDLE (if the field is on).
    @discardableResult
    public mutating func insert(_ tag: any EmulatedTag) -> TagHandle {
        let handle = TagHandle(rawValue: nextHandle)
        nextHandle += 1
        var tag = tag
        tag.fieldReset()
        departedTags.removeAll { $0.identity.uid == tag.identity.uid }
        slots.append(Slot(handle: handle, tag: tag, state: .idle))
        return handle
    }

    /// Takes a tag out of the field and returns it (with its memory), or `nil` if it is gone.
    @discardableResult
    public mutating func remove(_ handle: TagHandle) -> (any EmulatedTag)? {
        guard let index = index(of: handle) else { return nil }
        var tag = slots.remove(at: index).tag
        tag.fieldReset()
        departedTags.removeAll { $0.identity.uid == tag.identity.uid }
        departedTags.append(tag)
        return tag
    }

    /// Drops the record of the tags that left the field (``departedTags``). A long run that
    /// takes one tag after another out of the field (a soak over thousands of tags) calls
    /// it once it has judged each tag: the record keeps every departed tag's whole memory
    /// otherwise, about 1 KiB per NTAG216, for the life of the emulator.
    public mutating func forgetDepartedTags() {
        departedTags.removeAll()
    }

    /// The tag behind `handle`, or `nil` when it left the field.
    public func tag(_ handle: TagHandle) -> (any EmulatedTag)? {
        index(of: handle).map { slots[$0].tag }
    }

    /// The ISO/IEC 14443-3A state of a tag, or `nil` when it left the field.
    public func state(of handle: TagHandle) -> ActivationState? {
        index(of: handle).map { slots[$0].state }
    }

    /// Lets `body` inspect or change a tag in place; `nil` when it left the field.
    public mutating func withTag<Result>(_ handle: TagHandle, _ body: (inout any EmulatedTag) -> Result) -> Result? {
        guard let index = index(of: handle) else { return nil }
        return body(&slots[index].tag)
    }

    /// Switches the RF field. Off, and on again, resets every tag to power-up state.
    public mutating func setPower(_ on: Bool) {
        guard on != isPowered else { return }
        isPowered = on
        for index in slots.indices {
            slots[index].tag.fieldReset()
            slots[index].state = .idle
            slots[index].wokenFromHalt = false
        }
    }

    /// Runs REQA (or WUPA when `wakeHalted`), anticollision and SELECT, and returns the first
    /// tag that answers and matches `uidFilter` (a UID, with or without cascade tags),
    /// skipping `excluding`. The tag is left ACTIVE. Switches the field on if needed.
    ///
    /// A tag still ACTIVE from an earlier selection takes the request as an unexpected frame:
    /// it drops to IDLE (HALT when it was woken from HALT) without answering (ISO/IEC 14443-3
    /// state machine; NTAG21x data sheet §8.4.4), so a tag that was in IDLE is selected first,
    /// and the dropped tag answers the chip's retry only when no other tag did. This is how
    /// libnfc's list loop (`nfc_initiator_list_passive_targets`: select, InDeselect, select)
    /// finds a second tag although InDeselect leaves a MIFARE target ACTIVE.
    public mutating func activate(uidFilter: [UInt8]?, excluding: Set<TagHandle>, wakeHalted: Bool = false)
        -> TagHandle?
    {
        setPower(true)
        var dropped = Set<TagHandle>()
        for index in slots.indices where !excluding.contains(slots[index].handle) && slots[index].state == .active {
            slots[index].tag.leaveActiveState()
            slots[index].state = slots[index].wokenFromHalt ? .halt : .idle
            dropped.insert(slots[index].handle)
        }
        // The first request, then the retry (MxRtyPassiveActivation) that the dropped tags answer.
        for retry in [false, true] {
            for index in slots.indices
            where !excluding.contains(slots[index].handle)
                && dropped.contains(slots[index].handle) == retry
            {
                let slot = slots[index]
                guard slot.tag.identity.answersTypeA, slot.state != .halt || wakeHalted else { continue }
                if let uidFilter, !Self.filter(uidFilter, matches: slot.tag.identity.uid) { continue }
                slots[index].wokenFromHalt = slot.state == .halt
                slots[index].state = .active
                return slot.handle
            }
        }
        return nil
    }

    /// FeliCa Polling at `bitRate` for `systemCode`: the first FeliCa card that answers it,
    /// with the system code it answers with. The card then takes commands (it is ACTIVE);
    /// type A tags do not hear the request. Switches the field on if needed.
    public mutating func pollFeliCa(systemCode: UInt16, bitRate: Int) -> (handle: TagHandle, systemCode: UInt16)? {
        setPower(true)
        for index in slots.indices {
            guard let felica = slots[index].tag.identity.felica, felica.bitRates.contains(bitRate),
                let answered = felica.systemCode(answering: systemCode)
            else { continue }
            slots[index].state = .active
            return (slots[index].handle, answered)
        }
        return nil
    }

    /// REQB for every card (AFI 00): the first type B card in IDLE answers with its ATQB and
    /// is taken as the one the reader goes on with (its ATTRIB follows). A card in ACTIVE
    /// ignores REQB, and a halted one waits for WUPB (ISO/IEC 14443-3 §7.4, assumption TB-3).
    public mutating func pollTypeB() -> TagHandle? {
        setPower(true)
        for index in slots.indices where slots[index].tag.identity.typeB != nil && slots[index].state == .idle {
            slots[index].state = .active
            return slots[index].handle
        }
        return nil
    }

    /// REQA for a Type 1 tag (the PN532's Jewel poll): the first one in the field answers
    /// SENS_RES `0C 00` and, with no anticollision to follow, is taken for RID and the rest.
    public mutating func pollType1() -> TagHandle? {
        setPower(true)
        for index in slots.indices where slots[index].tag.identity.type1 != nil {
            slots[index].state = .active
            return slots[index].handle
        }
        return nil
    }

    /// The ST25TB cards in the powered field, each made ready to hear a type B frame: they
    /// take no REQB and keep their own states (Inventory, Selected …) behind ST's commands.
    public mutating func st25tbCards() -> [TagHandle] {
        guard isPowered else { return [] }
        var handles: [TagHandle] = []
        for index in slots.indices where slots[index].tag.identity.st25tb != nil {
            slots[index].state = .active
            handles.append(slots[index].handle)
        }
        return handles
    }

    /// Sends HLTA to a tag: it leaves ACTIVE for HALT.
    public mutating func halt(_ handle: TagHandle) {
        guard let index = index(of: handle), slots[index].state == .active else { return }
        slots[index].tag.leaveActiveState()
        slots[index].state = .halt
        slots[index].wokenFromHalt = false
    }

    /// Delivers a frame (without CRC_A) to a tag. A tag that is gone or not ACTIVE stays
    /// silent, as on air; a NAK or an unexpected frame drops the tag out of ACTIVE.
    public mutating func exchange(_ frame: [UInt8], with handle: TagHandle) -> TagAnswer {
        guard isPowered, let index = index(of: handle), slots[index].state == .active else { return .silence }
        // HLTA is ISO/IEC 14443-3's, the same for every tag: no answer, and the tag rests in HALT.
        if frame == ChipTables.iso14443a.frames[.hlta].bytes {
            halt(handle)
            return .halt
        }
        let answer = slots[index].tag.receive(frame)
        if answer.leavesActiveState {
            slots[index].tag.leaveActiveState()
            slots[index].state = answer.entersHalt || slots[index].wokenFromHalt ? .halt : .idle
        }
        return answer
    }

    /// Applies an answer that a fault produced instead of the tag: a NAK or error drops the
    /// tag out of ACTIVE exactly as if the tag had sent it.
    mutating func impose(_ answer: TagAnswer, on handle: TagHandle) -> TagAnswer {
        guard let index = index(of: handle), slots[index].state == .active else { return .silence }
        if answer.leavesActiveState {
            slots[index].tag.leaveActiveState()
            slots[index].state = answer.entersHalt || slots[index].wokenFromHalt ? .halt : .idle
        }
        return answer
    }

    /// Runs a MIFARE Classic authentication with a tag (the PN532's Crypto1 exchange).
    /// A tag that refuses it leaves ACTIVE, as after any failed exchange, and must be
    /// selected again; a tag that is gone or not ACTIVE fails.
    public mutating func authenticate(_ request: ClassicAuthentication, with handle: TagHandle) -> Bool {
        guard isPowered, let index = index(of: handle), slots[index].state == .active else { return false }
        guard slots[index].tag.authenticate(request) else {
            slots[index].tag.leaveActiveState()
            slots[index].state = slots[index].wokenFromHalt ? .halt : .idle
            return false
        }
        return true
    }

    /// Whether `filter` names `uid`: equal, or equal once the cascade tags that precede
    /// each incomplete cascade level (byte 0 of an 8-byte filter, bytes 0 and 4 of a
    /// 12-byte one) are removed.
    static func filter(_ filter: [UInt8], matches uid: [UInt8]) -> Bool {
        if filter == uid { return true }
        switch (filter.count, uid.count) {
        case (8, 7): return Array(filter.dropFirst()) == uid
        case (12, 10): return Array(filter[1..<4] + filter[5...]) == uid
        default: return false
        }
    }

    private func index(of handle: TagHandle) -> Int? {
        slots.firstIndex { $0.handle == handle }
    }
}

import NFCEmulator
import NFCTagKit

/// Where a tag ended after the soak run, judged from its memory alone by the NFC Forum
/// Type 2 rules (CC, TLVs, NDEF) — never by what the station believed.
enum SoakTagState: String, CaseIterable, Sendable {
    /// The message the station wrote.
    case newMessage = "new message"
    /// The message the tag held before.
    case oldMessage = "old message"
    /// An empty NDEF message (a fresh tag, or a write torn before its commit).
    case empty = "empty"
    /// AUTHLIM reached by the wrong password: the old message, write-protected for good.
    case lockedOut = "locked out"
    /// Anything else: a TLV or NDEF that does not decode, or a message nobody wrote.
    case corrupt = "corrupt"

    /// Classifies `tag` given the message it held before and the one the station wrote.
    static func classify(_ tag: Type2Tag, old: NDEFMessage?, new: NDEFMessage) -> SoakTagState {
        guard let message = ndefMessage(in: tag) else { return .corrupt }
        if lockedOut(tag) {
            return message == (old ?? NDEFMessage(records: [])) || (old == nil && message.records.isEmpty)
                ? .lockedOut : .corrupt
        }
        if message == new { return .newMessage }
        if let old, message == old { return .oldMessage }
        if message.records.isEmpty { return .empty }
        return .corrupt
    }

    /// Whether AUTHLIM failures have been reached (every PWD_AUTH now fails).
    static func lockedOut(_ tag: Type2Tag) -> Bool {
        guard let configuration = tag.spec.memory?.configuration, let field = configuration.field(.authLimit),
            let limit = field.value(in: tag.page(field.page))
        else { return false }
        return limit > 0 && tag.failedAuthentications >= Int(limit)
    }

    /// The NDEF message the tag's memory holds, decoded by the T2T rules: CC magic and
    /// size, then TLVs from the first user page (NULL skipped, Lock / Memory Control
    /// stepped over), the first NDEF TLV decoded. `nil` when any of it is malformed.
    static func ndefMessage(in tag: Type2Tag) -> NDEFMessage? {
        guard let memoryMap = tag.spec.memory else { return nil }
        let type2 = ChipTables.type2
        let cc = tag.page(memoryMap.capabilityContainer.page)
        guard cc[type2.capabilityContainer.magicByte] == type2.capabilityContainer.magic else { return nil }
        let start = memoryMap.firstUserPage * memoryMap.pageSize
        let end = min(
            start + Int(cc[type2.capabilityContainer.sizeByte]) * type2.capabilityContainer.dataAreaUnitBytes,
            tag.memory.count)
        let null = type2.tlvs[.null].type
        let terminator = type2.tlvs[.terminator].type
        let ndef = type2.tlvs[.ndef].type
        let longMarker = type2.tlvLength.threeByteMarker
        var index = start
        while index < end {
            let type = tag.memory[index]
            if type == null {
                index += 1
                continue
            }
            if type == terminator { return nil }  // no NDEF TLV before the Terminator
            guard index + 1 < end else { return nil }
            var length = Int(tag.memory[index + 1])
            var valueStart = index + 2
            if tag.memory[index + 1] == longMarker {
                guard index + 3 < end else { return nil }
                length = Int(tag.memory[index + 2]) << 8 | Int(tag.memory[index + 3])
                valueStart = index + 4
            }
            guard valueStart + length <= end else { return nil }
            if type == ndef {
                if length == 0 { return NDEFMessage(records: []) }
                return try? NDEFMessage(bytes: Array(tag.memory[valueStart..<(valueStart + length)]))
            }
            index = valueStart + length
        }
        return nil
    }
}

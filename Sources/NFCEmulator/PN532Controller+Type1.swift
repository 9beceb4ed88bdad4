import NFCChips

/// Type 1 tags (Innovision Jewel, Topaz) through the PN532 (UM0701-02 §7.3.5, BrTy 04):
/// InListPassiveTarget sends REQA and reports `Tg SENS_RES[2] JEWELID[4]`; InDataExchange
/// takes a command in the short form (`CMD [ADD [DATA]]`: the firmware adds the UID) or
/// the long one (`CMD ADD DATA UID0-3`), adds CRC_B, and gives back RID's and RALL's answers
/// whole but only the data byte of READ, WRITE-E and WRITE-NE (what libnfc's `nfc-jewel`
/// expects, ACS's AET62 manual §8.4 shows). The firmware does not carry READ8, WRITE-E8 or
/// WRITE-NE8 (a time-out) and RSEG past segment 0 (assumption T1-3).
extension PN532Controller {
    /// InListPassiveTarget for a Jewel: one tag; any initiator data is a syntax error.
    mutating func listType1(_ initiatorData: [UInt8]) -> [UInt8]? {
        guard initiatorData.isEmpty else { return nil }
        targets.removeAll()
        currentTarget = nil
        guard let handle = field.pollType1(), let identity = field.tag(handle)?.identity, identity.type1 != nil else {
            statistics.modelledTime += unansweredRequestAirTime()
            return [0]
        }
        let target = ListedTarget(number: 1, handle: handle, identity: identity, hasATS: false)
        targets = [target]
        currentTarget = target.number
        statistics.modelledTime += airTime(request: 1, answer: TagAnswer.bytes([0, 0]))
        return [1] + type1TargetData(target)
    }

    /// `Tg SENS_RES JEWELID`.
    func type1TargetData(_ target: ListedTarget) -> [UInt8] {
        [target.number] + ChipTables.type1.sensRes + target.identity.uid
    }

    /// InDataExchange with a Type 1 tag.
    mutating func type1Exchange(_ data: [UInt8], target: ListedTarget) -> [UInt8] {
        guard let (name, frame) = Self.type1Frame(data, jewelID: target.identity.uid) else { return fail(.timeout) }
        let answer = exchangeWithTag(frame, target.handle)
        statistics.modelledTime += airTime(request: frame.count + 2, answer: answer)
        guard case .bytes(let bytes) = answer.reply else { return fail(.timeout) }
        return [status(.success)] + Self.type1Reply(name, bytes)
    }

    /// The frame the firmware puts on air for InDataExchange data `data` to the tag with
    /// `jewelID`: the long form as it is, the short form with ADD and DATA 00 where missing
    /// and the UID last (zeros for RID). Nil for a command the firmware does not carry.
    package static func type1Frame(_ data: [UInt8], jewelID: [UInt8]) -> (Type1CommandName, [UInt8])? {
        let type1 = ChipTables.type1
        guard let code = data.first, let name = type1.command(code: code) else { return nil }
        let command = type1.commands[name]
        if type1.pn532.unsupportedCommands.contains(name) { return nil }
        if name == .readSegment, data.count > 1, !type1.pn532.segmentsReached.contains(Int(data[1] >> 4)) {
            return nil
        }
        let uid = name == .rid ? [UInt8](repeating: 0, count: type1.jewelIDLength) : jewelID
        let body = command.requestLength - type1.jewelIDLength
        var frame = data
        if data.count <= body { frame = data + [UInt8](repeating: 0, count: body - data.count) + uid }
        return frame.count == command.requestLength ? (name, frame) : nil
    }

    /// What the firmware gives back of the tag's answer: RID's and RALL's whole, the rest
    /// without its address byte.
    package static func type1Reply(_ name: Type1CommandName, _ bytes: [UInt8]) -> [UInt8] {
        switch name {
        case .rid, .rall: bytes
        default: Array(bytes.dropFirst())
        }
    }
}

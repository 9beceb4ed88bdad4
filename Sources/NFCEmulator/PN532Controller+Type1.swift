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
        let type1 = ChipTables.type1
        guard let code = data.first, let name = type1.command(code: code) else { return fail(.timeout) }
        let command = type1.commands[name]
        if type1.pn532.unsupportedCommands.contains(name) { return fail(.timeout) }
        if name == .readSegment, data.count > 1, !type1.pn532.segmentsReached.contains(Int(data[1] >> 4)) {
            return fail(.timeout)
        }
        let uid = name == .rid ? [UInt8](repeating: 0, count: type1.jewelIDLength) : target.identity.uid
        var frame = data
        if data.count < command.requestLength - type1.jewelIDLength + 1 {
            // The short form: ADD and DATA default to 00, the firmware puts the UID last.
            let body = command.requestLength - type1.jewelIDLength
            frame = data + [UInt8](repeating: 0, count: max(0, body - data.count)) + uid
        }
        guard frame.count == command.requestLength else { return fail(.timeout) }
        let answer = exchangeWithTag(frame, target.handle)
        statistics.modelledTime += airTime(request: frame.count + 2, answer: answer)
        guard case .bytes(let bytes) = answer.reply else { return fail(.timeout) }
        switch name {
        case .rid, .rall: return [status(.success)] + bytes
        default: return [status(.success)] + bytes.dropFirst()
        }
    }
}

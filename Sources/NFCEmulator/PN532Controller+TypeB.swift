import NFCChips

/// ISO/IEC 14443 Type B through the PN532 (UM0701-02 §7.3.5, BrTy 03): InListPassiveTarget
/// sends REQB with the host's AFI, then ATTRIB itself (CID 1, 64-byte frames), and reports
/// `Tg ATQB[12] ATTRIB_RES_len ATTRIB_RES`; from then on InDataExchange carries APDUs in
/// ISO-DEP blocks, each with the CID (libnfc's presence check of a B card sends `BA 01`).
extension PN532Controller {
    /// InListPassiveTarget for type B: one card at most (libnfc lists one a poll). Initiator
    /// data is the AFI and, optionally, the polling method (time slots or probabilistic);
    /// anything else is a syntax error. A card that does not answer ATTRIB is not listed.
    mutating func listTypeB(_ initiatorData: [UInt8]) -> [UInt8]? {
        guard (1...2).contains(initiatorData.count) else { return nil }
        targets.removeAll()
        currentTarget = nil
        let typeB = ChipTables.iso14443b
        guard let handle = field.pollTypeB(), let identity = field.tag(handle)?.identity,
            let card = identity.typeB
        else {
            statistics.modelledTime += typeBAirTime(request: 3, answer: nil)
            return [0]
        }
        // Param 1 00 (default TR0, TR1, SOF and EOF), Param 2: FSDI (64 bytes) and 106 kbit/s
        // both ways, Param 3: ISO/IEC 14443-4, Param 4: the CID (assumption TB-2).
        let attrib =
            [typeB.commands[.attrib].code] + typeB.pupi(atqb: card.atqb)
            + [0x00, typeB.pn532.attribFSDI, typeB.protocolInfo.iso14443_4Bit, typeB.pn532.attribCID]
        let answer = exchangeWithTag(attrib, handle)
        statistics.modelledTime += typeBAirTime(request: 3, answer: card.atqb.count)
        guard case .bytes(let attribResponse) = answer.reply else {
            statistics.modelledTime += typeBAirTime(request: attrib.count, answer: nil)
            return [0]
        }
        statistics.modelledTime += typeBAirTime(request: attrib.count, answer: attribResponse.count)
        var target = ListedTarget(number: 1, handle: handle, identity: identity, hasATS: false)
        target.attribResponse = attribResponse
        targets = [target]
        currentTarget = target.number
        return [1] + typeBTargetData(target)
    }

    /// `Tg ATQB ATTRIB_RES_len ATTRIB_RES`.
    func typeBTargetData(_ target: ListedTarget) -> [UInt8] {
        let response = target.attribResponse ?? []
        return [target.number] + (target.identity.typeB?.atqb ?? []) + [UInt8(response.count)] + response
    }

    /// Air time of a type B exchange at 106 kbit/s: each byte a character of 10 etu (start,
    /// 8 bits, stop), with SOF, EOF and CRC_B, and the frame delay before the answer.
    func typeBAirTime(request: Int, answer: Int?) -> Duration {
        let timing = spec.timing
        // SOF (10-11 etu low, 2-3 high) and EOF (10-11 etu low): about 24 etu.
        let framing = 24
        var seconds = Double((request + 2) * 10 + framing) * timing.airBitSeconds + timing.frameDelayTimeSeconds
        if let answer { seconds += Double((answer + 2) * 10 + framing) * timing.airBitSeconds }
        return .seconds(seconds)
    }
}

import NFCChips

/// ST25TB and SRx cards through the PN532: the chip has no listing for them, so libnfc
/// sets the CIU to type B framing at 106 kbit/s with CRC (NP_FORCE_ISO14443_B) and sends
/// ST's commands with InCommunicateThru (libnfc 1.8.0 `pn53x.c`: `06 00`, `0E Chip_ID`,
/// `0B` to select; `0B` again to check presence).
extension PN532Controller {
    /// TxMode's framing for ISO/IEC 14443 type B (UM0701-02 CIU_TxMode; libnfc's
    /// NP_FORCE_ISO14443_B writes it).
    static let typeBFraming: UInt8 = 0b11

    /// Whether the CIU sends type B frames: then InCommunicateThru reaches ST25TB cards.
    var framesTypeB: Bool { registers.field(.txFraming) == Self.typeBFraming }

    /// One InCommunicateThru on type B framing: every ST25TB card in the field hears the
    /// frame; the first that answers is what the chip receives (one card at a time is
    /// modelled: two would collide). The chip adds and checks CRC_B, as libnfc's select
    /// asks; with the CRC left to the host the card is not reached (assumption ST-3).
    mutating func st25tbExchange(_ frame: [UInt8]) -> [UInt8]? {
        guard registers.flag(.txCRCEn), registers.flag(.rxCRCEn) else { return fail(.timeout) }
        var answered: [UInt8]?
        for handle in field.st25tbCards() {
            let answer = exchangeWithTag(frame, handle)
            if answered == nil, case .bytes(let bytes) = answer.reply { answered = bytes }
        }
        statistics.modelledTime += typeBAirTime(request: frame.count, answer: answered?.count)
        guard let answered else { return fail(.timeout) }
        return [status(.success)] + answered
    }
}

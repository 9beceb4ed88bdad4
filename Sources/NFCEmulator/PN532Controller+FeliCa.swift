import NFCChips

/// FeliCa through the PN532 (UM0701 §7.3.5 and §7.3.8): InListPassiveTarget at 212 or 424
/// kbit/s sends Polling with the host's five bytes (`00 SC SC RC TSN`, no LEN) and reports
/// the answer as `Tg POL_RES_len 01 IDm PMm [SC]`; InDataExchange carries a FeliCa frame LEN
/// first, the chip adding preamble, sync and CRC on air and taking them off the answer.
extension PN532Controller {
    /// InListPassiveTarget for FeliCa: one card at most (libnfc lists one; time slots are
    /// not modelled). Initiator data that is not a Polling payload is a syntax error, as on a
    /// real PN532 (libnfc issue 671).
    mutating func listFeliCa(_ initiatorData: [UInt8], bitRate: Int) -> [UInt8]? {
        let felica = ChipTables.felica
        guard initiatorData.count == 5, initiatorData[0] == felica.commands[.polling].code else { return nil }
        targets.removeAll()
        currentTarget = nil
        let systemCode = UInt16(initiatorData[1]) << 8 | UInt16(initiatorData[2])
        let requestCode = initiatorData[3]
        let request = [UInt8(initiatorData.count + 1)] + initiatorData
        guard let (handle, answered) = field.pollFeliCa(systemCode: systemCode, bitRate: bitRate),
            let identity = field.tag(handle)?.identity
        else {
            statistics.modelledTime += feliCaAirTime(request: request.count, answer: nil, bitRate: bitRate)
            return [0]
        }
        let listing = FeliCaListing(
            systemCode: requestCode == felica.polling.requestCodeSystemCode ? answered : nil, system: answered,
            bitRate: bitRate)
        let target = ListedTarget(number: 1, handle: handle, identity: identity, hasATS: false, feliCa: listing)
        targets = [target]
        let data = feliCaTargetData(target, listing)
        statistics.modelledTime += feliCaAirTime(request: request.count, answer: data.count - 1, bitRate: bitRate)
        return [1] + data
    }

    /// `Tg POL_RES_len 01 IDm PMm [SC]`.
    func feliCaTargetData(_ target: ListedTarget, _ listing: FeliCaListing) -> [UInt8] {
        guard let felica = target.identity.felica else { return [target.number] }
        var answer =
            [ChipTables.felica.commands[.polling].responseCode] + felica.idm(forSystem: listing.system) + felica.pmm
        if let code = listing.systemCode { answer += [UInt8(code >> 8), UInt8(code & 0xFF)] }
        return [target.number, UInt8(answer.count + 1)] + answer
    }

    /// InDataExchange with a FeliCa card: the frame LEN first, the answer likewise.
    mutating func feliCaExchange(_ frame: [UInt8], target: ListedTarget, bitRate: Int) -> [UInt8]? {
        let answer = exchangeWithTag(frame, target.handle)
        let wait = feliCaResponseTime(frame, pmm: target.identity.felica?.pmm ?? [])
        statistics.framesToTags += 1
        switch answer.reply {
        case .bytes(let bytes):
            statistics.framesFromTags += 1
            statistics.modelledTime +=
                feliCaAirTime(request: frame.count, answer: bytes.count, bitRate: bitRate, wait: wait)
            return [status(.success)] + bytes
        default:
            statistics.modelledTime += feliCaAirTime(request: frame.count, answer: nil, bitRate: bitRate, wait: wait)
            return fail(.timeout)
        }
    }

    /// How long the card takes before it answers `frame`: for Read and Write Without
    /// Encryption the maximum response time its PMm gives for the blocks of the frame (the
    /// model answers at that bound: assumption FL-6); for Polling the first time slot.
    func feliCaResponseTime(_ frame: [UInt8], pmm: [UInt8]) -> Duration {
        let felica = ChipTables.felica
        let slot = Duration.microseconds(felica.polling.firstSlotMicroseconds)
        // LEN, code, IDm (8), service count, services (2 each), block count.
        guard frame.count > 11, let command = felica.command(code: frame[1]),
            command == .readWithoutEncryption || command == .writeWithoutEncryption
        else { return slot }
        let blocksIndex = 11 + 2 * Int(frame[10])
        guard blocksIndex < frame.count,
            let microseconds = felica.maximumResponseMicroseconds(
                pmm: pmm, blocks: Int(frame[blocksIndex]), write: command == .writeWithoutEncryption)
        else { return slot }
        return .microseconds(Int64(microseconds.rounded()))
    }

    /// Air time of a FeliCa exchange: each frame with its preamble, sync and CRC at `bitRate`
    /// (Manchester, 8 bits a byte, no parity), and the card's `wait` before it answers (the
    /// first time slot when not given); a missing answer costs the whole wait for it.
    func feliCaAirTime(request: Int, answer: Int?, bitRate: Int, wait: Duration? = nil) -> Duration {
        let felica = ChipTables.felica
        let framing = felica.frame.preamble.count + felica.frame.sync.count + 2
        let bitSeconds = 1.0 / (Double(bitRate) * 1000)
        var time = Duration.seconds(Double((request + framing) * 8) * bitSeconds)
        time += wait ?? .microseconds(felica.polling.firstSlotMicroseconds)
        if let answer { time += .seconds(Double((answer + framing) * 8) * bitSeconds) }
        return time
    }
}

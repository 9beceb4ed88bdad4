import NFCChips

/// A target the chip holds after InListPassiveTarget or InAutoPoll.
struct ListedTarget: Sendable, Equatable {
    /// Tg: 1 or 2.
    var number: UInt8
    /// The tag in the field.
    var handle: Field.TagHandle
    /// Its identity at activation time.
    var identity: TagIdentity
    /// Whether RATS was sent and an ATS is part of its target data.
    var hasATS: Bool
    /// Whether InDeselect put it aside (S(DESELECT) sent to an ISO-DEP target; nothing on air otherwise).
    var isDeselected = false
    /// The PCD block number of the next ISO-DEP I-block (ISO-DEP targets only).
    var isoDEPBlockNumber: UInt8 = 0
    /// For a FeliCa card listed by Polling: the system code it answered with when the poll
    /// asked for it (RC 01), and the poll's bit rate.
    var feliCa: FeliCaListing?
    /// For a type B card: its answer to the chip's ATTRIB.
    var attribResponse: [UInt8]?

    /// Whether blocks to it go through the chip's ISO-DEP layer: a type A tag that answered
    /// RATS, a type B card that answered ATTRIB.
    var speaksISODEP: Bool { hasATS || identity.typeB != nil }
}

/// How a FeliCa card was listed.
struct FeliCaListing: Sendable, Equatable {
    /// The system code in the target data, when the poll asked for it.
    var systemCode: UInt16?
    /// The system that answered (its IDm is the one listed).
    var system: UInt16
    /// 212 or 424 kbit/s.
    var bitRate: Int
}

extension PN532Controller {
    /// The most targets the PN532 handles at once (UM0701 §7.3.5, MaxTg).
    static let maximumTargetCount = 2

    func target(numbered number: UInt8) -> ListedTarget? {
        targets.first { $0.number == number }
    }

    /// Activates up to `maximumCount` type A tags matching `uidFilter`; they become the listed targets.
    ///
    /// Without a UID the chip polls with REQA, so halted tags stay silent. With a UID in the
    /// initiator data it sends WUPA and SELECT with that UID, waking a tag from HALT: an
    /// ACR122 (PN532) selecting a known UID puts `52` then `93 70 UID BCC` on air
    /// (emsec/ChameleonMini #302), and libfreefare selects each DESFire by UID after libnfc's
    /// list loop left it in HALT with S(DESELECT).
    mutating func activateTargets(maximumCount: Int, uidFilter: [UInt8]?) -> [ListedTarget] {
        // A tag still ACTIVE from an earlier listing drops to IDLE on the new REQA and
        // answers the chip's retry, so it is found again (Field.activate models both).
        targets.removeAll()
        currentTarget = nil
        registers.setField(.mfCrypto1On, to: 0)
        // The firmware sets the CIU up for 106 kbit/s type A itself: TxMode and RxMode read 80
        // after an InListPassiveTarget on a real PN532 (Tests/Transcripts/nfcpy-issue-131.json).
        registers.configureForTypeAActivation()
        let rats = parameterFlags & spec.parameterFlags[.automaticRATS].code != 0
        var found = Set<Field.TagHandle>()
        while targets.count < maximumCount {
            guard let handle = field.activate(uidFilter: uidFilter, excluding: found, wakeHalted: uidFilter != nil)
            else {
                // A REQA nobody answered. Searching past a tag sent that tag (ACTIVE) back
                // to IDLE, so the chip selects it again before it can be used.
                statistics.modelledTime += unansweredRequestAirTime()
                if let first = targets.first { statistics.modelledTime += activationAirTime(first) }
                break
            }
            found.insert(handle)
            guard let identity = field.tag(handle)?.identity else { continue }
            let target = ListedTarget(
                number: UInt8(targets.count + 1), handle: handle, identity: identity,
                hasATS: rats && identity.ats != nil)
            targets.append(target)
            statistics.modelledTime += activationAirTime(target)
        }
        currentTarget = targets.first?.number
        return targets
    }

    /// Tg, SENS_RES (most significant byte first, as the PN532 reports it), SEL_RES,
    /// NFCID1 length, NFCID1 and, for ISO-DEP targets, the ATS with its length byte.
    func targetData(_ target: ListedTarget) -> [UInt8] {
        if let listing = target.feliCa { return feliCaTargetData(target, listing) }
        if target.identity.typeB != nil { return typeBTargetData(target) }
        if target.identity.type1 != nil { return type1TargetData(target) }
        let identity = target.identity
        var data =
            [
                target.number, UInt8(identity.atqa >> 8), UInt8(identity.atqa & 0xFF), identity.sak,
                UInt8(identity.uid.count),
            ] + identity.uid
        if target.hasATS, let ats = identity.ats { data += ats }
        return data
    }

    mutating func listPassiveTargets(_ data: [UInt8]) -> [UInt8]? {
        guard data.count >= 2, (1...Self.maximumTargetCount).contains(Int(data[0])) else { return nil }
        guard let modulation = spec.listPassiveTargetModulations.option(code: data[1]) else { return nil }
        switch modulation.name {
        case .iso14443A106: break
        case .felica212: return listFeliCa(Array(data.dropFirst(2)), bitRate: 212)
        case .felica424: return listFeliCa(Array(data.dropFirst(2)), bitRate: 424)
        case .iso14443B106: return listTypeB(Array(data.dropFirst(2)))
        case .jewel106: return listType1(Array(data.dropFirst(2)))
        }
        let filter = data.count > 2 ? Array(data.dropFirst(2)) : nil
        let listed = activateTargets(maximumCount: Int(data[0]), uidFilter: filter)
        return [UInt8(listed.count)] + listed.flatMap(targetData)
    }

    mutating func dataExchange(_ data: [UInt8]) -> [UInt8]? {
        guard let tg = data.first else { return nil }
        guard let target = target(numbered: tg & 0x3F), !target.isDeselected else {
            return fail(.commandNotAcceptable)
        }
        currentTarget = target.number
        noteTransmission()
        let frame = Array(data.dropFirst())
        if let listing = target.feliCa { return feliCaExchange(frame, target: target, bitRate: listing.bitRate) }
        if target.speaksISODEP { return isoDEPExchange(frame, target: target) }
        if target.identity.type1 != nil { return type1Exchange(frame, target: target) }
        if let request = mifareAuthentication(frame, target: target) {
            return authenticate(request, target: target)
        }
        if let (first, second, silentSuccess) = mifareTwoPhaseSplit(frame) {
            return twoPhaseExchange(first, second, silentSuccess: silentSuccess, target: target)
        }
        let answer = exchangeWithTag(mifareFirstFrame(frame), target.handle)
        statistics.modelledTime += airTime(request: frame.count + 2, answer: answer)
        switch answer.reply {
        case let .bytes(bytes): return [status(.success)] + bytes
        case .acknowledge: return [status(.success)]
        case .negativeAcknowledge, .silence: return fail(.timeout)
        }
    }

    mutating func communicateThru(_ data: [UInt8]) -> [UInt8]? {
        registers.setField(.rxLastBits, to: 0)
        // No DataOut: the chip transmits nothing and only listens for a tag that talks first
        // (libnfc's NFC Barcode discovery, pn53x.c, sends this in every nfc-list and retries on
        // an RF error). No such tag is modelled, so the wait ends in a time-out (status 01),
        // not in the syntax-error frame that libnfc logs as an application-level error.
        guard !data.isEmpty else { return fail(.timeout) }
        noteTransmission()
        // A listed FeliCa card: the frame goes to it LEN first (libnfc sends FeliCa frames
        // this way with easy framing off, as nfc-read-forum-tag3 does).
        if let target = targets.first(where: { $0.feliCa != nil && !$0.isDeselected }), let listing = target.feliCa {
            return feliCaExchange(data, target: target, bitRate: listing.bitRate)
        }
        if framesTypeB { return st25tbExchange(data) }
        if let answer = rawActivation(data) { return answer }
        var frame = data
        if !registers.flag(.txCRCEn) {
            // The host sent CRC_A itself: a tag ignores a frame whose CRC is wrong.
            guard frame.count >= 3, Array(frame.suffix(2)) == ChipTables.crcA(Array(frame.dropLast(2))) else {
                return fail(.timeout)
            }
            frame.removeLast(2)
        }
        guard let handle = rawFrameTag() else { return fail(.timeout) }
        let answer = exchangeWithTag(frame, handle)
        statistics.modelledTime += airTime(request: frame.count + 2, answer: answer)
        let checksCRC = registers.flag(.rxCRCEn)
        switch answer.reply {
        case let .bytes(bytes): return [status(.success)] + bytes + (checksCRC ? [] : ChipTables.crcA(bytes))
        case let .acknowledge(code), let .negativeAcknowledge(code):
            guard !checksCRC else { return fail(.crcError) }  // 4 bits cannot carry a CRC
            registers.setField(.rxLastBits, to: 4)
            return [status(.success), code]
        case .silence: return fail(.timeout)
        }
    }

    /// InDeselect and InRelease (UM0701-02 §7.3.10, §7.3.11). On air the chip sends
    /// S(DESELECT) to an ISO-DEP target, which then rests in HALT (ISO/IEC 14443-4); to a
    /// MIFARE / Type 2 target it sends nothing: the tag stays ACTIVE, and the PN532 keeps the
    /// target (InDeselect) or forgets it (InRelease). A real PN532 lists the same MIFARE
    /// Classic again right after InDeselect (libnfc issue 476, an ACR122U log), and
    /// libfreefare selects each listed tag by UID after libnfc's list ended with InDeselect.
    /// The tag a raw frame reaches: the current target while it is ACTIVE, else a tag the
    /// host activated itself with raw REQA / ANTICOLLISION / SELECT.
    func rawFrameTag() -> Field.TagHandle? {
        let listed = currentTarget.flatMap(target(numbered:))?.handle
        if let listed, field.state(of: listed) == .active { return listed }
        return field.firstActive ?? listed
    }

    mutating func deselect(_ data: [UInt8], release: Bool) -> [UInt8]? {
        guard let tg = data.first else { return nil }
        let chosen = targets.filter { tg == 0 || $0.number == tg }
        guard !chosen.isEmpty || tg == 0 else { return fail(.commandNotAcceptable) }
        for target in chosen where target.speaksISODEP { field.halt(target.handle) }
        if release {
            targets.removeAll { tg == 0 || $0.number == tg }
            if let current = currentTarget, target(numbered: current) == nil { currentTarget = nil }
        } else {
            for index in targets.indices where tg == 0 || targets[index].number == tg {
                targets[index].isDeselected = true
            }
        }
        return [status(.success)]
    }

    mutating func select(_ data: [UInt8]) -> [UInt8]? {
        guard let tg = data.first else { return nil }
        guard let index = targets.firstIndex(where: { $0.number == tg }) else { return fail(.commandNotAcceptable) }
        let target = targets[index]
        guard field.tag(target.handle) != nil,
            field.activate(uidFilter: target.identity.uid, excluding: [], wakeHalted: true) == target.handle
        else {
            return fail(.timeout)
        }
        registers.configureForTypeAActivation()
        targets[index].isDeselected = false
        currentTarget = tg
        return [status(.success)]
    }

    mutating func autoPoll(_ data: [UInt8]) -> Outcome {
        guard data.count >= 3 else { return .syntaxError }
        let (pollCount, period) = (Int(data[0]), Int(data[1]))
        let types = Array(data.dropFirst(2))
        if let answer = autoPollAnswer(types: types) { return .answer(answer) }
        // PollNr FF polls until a tag comes (UM0701 §7.3.13); otherwise report none found,
        // after every asked type's slot has lasted Period × 150 ms, PollNr times (§7.3.13;
        // libnfc's nfc-poll announces the same total: PollNr × Period × 150 ms × types).
        guard pollCount == 0xFF else {
            statistics.modelledTime += .milliseconds(
                spec.timing.autoPollPeriodUnitMs * period * types.count * pollCount)
            return .answer([0])
        }
        pendingAutoPoll = types
        return .deferred
    }

    /// NbTg and, per target, Type, length and target data; `nil` when no tag answers. The
    /// type A types are polled first (they may report two tags), then FeliCa and type B in
    /// the order asked, the first that finds a card ending the poll (Jewel too); DEP types
    /// find nothing. What Polling payload the firmware sends for a FeliCa type is not documented:
    /// the model sends libnfc's (`00 FF FF 01 00`), so the system code is reported.
    mutating func autoPollAnswer(types: [UInt8]) -> [UInt8]? {
        let typeA = spec.listPassiveTargetModulations[.iso14443A106].code
        let asked = types.compactMap { code in spec.autoPollTargetTypes.first { $0.code == code } }
            .filter { !$0.dep }
        if let answer = typeAAutoPollAnswer(asked.filter { $0.modulation == typeA }) { return answer }
        let felica = ChipTables.felica
        let polling = [
            felica.commands[.polling].code, 0xFF, 0xFF, felica.polling.requestCodeSystemCode, 0,
        ]
        for type in asked where type.modulation != typeA {
            guard let modulation = type.modulation else { continue }
            let listing: [UInt8]?
            switch spec.listPassiveTargetModulations.option(code: modulation)?.name {
            case .felica212: listing = listFeliCa(polling, bitRate: 212)
            case .felica424: listing = listFeliCa(polling, bitRate: 424)
            case .iso14443B106: listing = listTypeB(ChipTables.iso14443b.pn532.initiatorData)
            case .jewel106: listing = listType1([])
            default: listing = nil
            }
            guard let listing, listing.first == 1 else { continue }
            let data = Array(listing.dropFirst())
            return [1, type.code, UInt8(data.count)] + data
        }
        return nil
    }

    /// The type A part of an InAutoPoll: up to two tags, each with the first asked type it
    /// answers to.
    private mutating func typeAAutoPollAnswer(_ asked: [PN532AutoPollType]) -> [UInt8]? {
        guard !asked.isEmpty else { return nil }
        let listed = activateTargets(maximumCount: Self.maximumTargetCount, uidFilter: nil)
        // Each target is reported with the first asked type it answers to. An earlier type
        // slot the target does not qualify for (ISO 14443-4A for an NTAG) activated it and
        // passed on: one more activation each. ASSUMPTION (no source seen): the slot ends
        // with that activation rather than lasting its Period × 150 ms; HardwareTests'
        // "InAutoPoll with a tag" scenario times it on a real PN532.
        let answered = listed.compactMap { target -> [UInt8]? in
            let isoDEP = target.identity.sak & ChipTables.iso14443a.sakISO14443_4Bit != 0
            guard let slot = asked.firstIndex(where: { !$0.isoDEPOnly || isoDEP }) else { return nil }
            let type = asked[slot]
            statistics.modelledTime += activationAirTime(target) * slot
            let data = targetData(target)
            return [type.code, UInt8(data.count)] + data
        }
        guard !answered.isEmpty else { return nil }
        return [UInt8(answered.count)] + answered.flatMap { $0 }
    }

    /// The firmware clears TxAuto's CAOn when it transmits to a target: written 4b, TxAuto
    /// reads 43 after an InCommunicateThru on a real PN532 (nfcpy-issue-131.json). Which
    /// transmissions clear it is assumed: every InDataExchange and InCommunicateThru.
    mutating func noteTransmission() {
        registers.setField(.caOn, to: 0)
    }

    /// Records `name` as the last error and returns it as the answer's status byte.
    mutating func fail(_ name: PN532StatusName) -> [UInt8] {
        lastError = status(name)
        return [lastError]
    }
}

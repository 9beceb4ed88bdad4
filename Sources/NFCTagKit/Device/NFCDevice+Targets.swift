import NFCChips

extension NFCDevice {
    /// Room for the largest PN53x answer.
    static let answerCapacity = 264
    /// The bits of an ACK / NAK short frame (4, from the ISO/IEC 14443-A table).
    static let shortFrameBits = ChipTables.iso14443a.ackNakBits

    /// Lists the ISO/IEC 14443-A tags in the field (at most `maximum`, 1…16; two is what
    /// a PN53x reports at once): UID, ATQA, SAK and ATS. libnfc selects each tag then
    /// halts it to reach the next; the field is then reset so every tag can be selected
    /// again. None is left selected.
    package func listTargets(maximum: Int = 2) throws(NFCDeviceError) -> [ISO14443ATarget] {
        guard (1...16).contains(maximum) else { throw .invalidArgument("maximum must be 1…16, not \(maximum)") }
        try restoreSelectionSettings()
        field.selectedTarget = nil
        let targets = try withDevice { (device) throws(LibNFCError) in
            try LibNFC.listPassiveISO14443A(device, maximum: maximum)
        }
        try resetField()
        return targets
    }

    /// Selects the tag with `uid` if it is the only tag in the field — the check before
    /// every write, lock and format of an NDEF session.
    ///
    /// On a PN532 that libnfc drives directly (`pn532_uart`) this is one reader command
    /// (InAutoPoll activates up to two tags). Other readers list the field tag by tag
    /// (``listTargets(maximum:)``), reset it and select the tag again: the PN533 has no
    /// InAutoPoll, and behind the ACR122U's firmware it is not known to work (the reader
    /// table's `countsTagsInOnePoll`, `datasheets/readers.json`).
    ///
    /// ```swift
    /// guard case .alone = try await device.selectIfAlone(uid: tag.uid) else { return }
    /// ```
    ///
    /// `isoDEP` says whether the tag answers ISO 14443-4 (its SAK, ``ISO14443ATarget/sak``):
    /// a tag that does not is polled for the MIFARE / Type 2 type alone. libnfc puts an ISO
    /// 14443-4A slot in front of it while NP_AUTO_ISO14443_4 is on — a second activation of
    /// the tag, or a second empty slot in an empty field — so the setting is turned off for
    /// such a tag (one SetParameters, kept while this tag is in hand) and back on before a
    /// select that may meet an ISO-DEP tag, which keeps its RATS.
    ///
    /// **With `reusingPoll`, a poll is an alone check until the selection changes.** When a
    /// poll that counts tags (this check, or ``pollField()``, on a reader whose one poll
    /// counts them) found the tag alone and selected it, and since then nothing selected or
    /// deselected a tag, listed or reset the field, checked presence, or saw the tag fail to
    /// answer or answer NAK, that poll stands for the alone check: this returns
    /// ``FieldOccupancy/alone(_:)`` at once, without a reader command. Without it (the
    /// default) the field is polled again, so a tag that arrived since is counted. A tag that enters the field after that poll stays IDLE (it
    /// only leaves IDLE on a REQA or WUPA, which only a poll or a select sends, and those end
    /// the proof), so it answers none of the commands sent to the selected tag and cannot be
    /// written by mistake; if the selected tag itself left, its next command fails (nothing
    /// is written) and the proof ends with that failure.
    package func selectIfAlone(uid: [UInt8], isoDEP: Bool = true, reusingPoll: Bool = false) throws(NFCDeviceError)
        -> FieldOccupancy
    {
        guard [4, 7, 10].contains(uid.count) else {
            throw .invalidArgument("a UID has 4, 7 or 10 bytes, not \(uid.count)")
        }
        if reusingPoll, let selected = targetAloneSincePoll, selected.uid == uid,
            !(isoDEP && selected.isISODEP && selected.ats.isEmpty)
        {
            return .alone(selected)
        }
        guard pollCountsTags else {
            let targets = try listTargets(maximum: 2)
            if targets.count > 1 { return .several(count: targets.count) }
            guard let only = targets.first, only.uid == uid || (only.hasRandomUID && ISO14443ATarget.isRandomUID(uid))
            else {
                return .absent
            }
            return try selectListedAlone(only).map { .alone($0) } ?? .absent
        }
        // InAutoPoll's activation is the firmware's own: it sets the CIU's CRC bits itself
        // (TxMode and RxMode read 80 after it). So the host's CRC setting is not switched on
        // before the poll; when libnfc has it off, it is written off again after the poll —
        // one register write-back instead of one before the poll and one after.
        let crcOff = !field.framing.handleCRC
        try restoreSelectionSettings(for: isoDEP ? nil : uid, keepingCRC: true)
        try pollOnlyNeededTypes(isoDEP: isoDEP, uid: uid)
        field.selectedTarget = nil
        let polled = Result { () throws(NFCDeviceError) -> (count: Int, selected: ISO14443ATarget?) in
            try withDevice { (device) throws(LibNFCError) in try LibNFC.pollPassiveISO14443A(device) }
        }
        if crcOff { try crcBackOffAfterActivation() }
        let (count, selected) = try polled.get()
        switch count {
        case 0:
            return .absent
        case 1:
            field.selectedTarget = selected
            guard let selected, selected.uid == uid else { return .absent }
            field.aloneSincePoll = uid
            return .alone(selected)
        default:
            field.selectedTarget = selected
            return .several(count: count)
        }
    }

    /// The alone check of a tag of any technology. A type A tag is checked as
    /// ``selectIfAlone(uid:isoDEP:reusingPoll:)`` checks it (a card of another technology
    /// beside it is not looked for: that would cost every write of a station its polls). For
    /// a FeliCa card, a type B card, a Type 1 tag or an ST25TB, a type A tag that answers a
    /// select, or a card of one of the other kinds that answers its poll, is a second tag;
    /// otherwise the tag is polled for again, which selects it. Two tags of the same kind are not told
    /// apart: libnfc lists one a poll.
    package func selectIfAlone(_ target: NFCTarget, reusingPoll: Bool = false) throws(NFCDeviceError)
        -> FieldOccupancy
    {
        switch target {
        case .iso14443A(let tag):
            return try selectIfAlone(uid: tag.uid, isoDEP: tag.isISODEP, reusingPoll: reusingPoll)
        case .feliCa, .iso14443B, .type1, .st25tb:
            if try selectOrNothing() != nil { return .several(count: 2) }
            if target.feliCa == nil, try orNothing({ () throws(NFCDeviceError) in try selectFeliCa() }) != nil {
                return .several(count: 2)
            }
            if target.typeB == nil, try orNothing({ () throws(NFCDeviceError) in try selectTypeB() }) != nil {
                return .several(count: 2)
            }
            if target.type1 == nil, try orNothing({ () throws(NFCDeviceError) in try selectType1() }) != nil {
                return .several(count: 2)
            }
            if target.st25tb == nil,
                try orNothing({ () throws(NFCDeviceError) in try selectST25TB(afterTypeBPoll: target.typeB == nil) })
                    != nil
            {
                return .several(count: 2)
            }
            return try reselect(target) ? .aloneCard : .absent
        }
    }

    /// Looks at the field once, counting the tags in it: the lone tag comes back selected,
    /// for polling loops that wait for a tag to arrive (an ``NDEFSession``, a provisioning
    /// station).
    ///
    /// On a PN532 that libnfc drives directly (`pn532_uart`) this is one InAutoPoll for the
    /// MIFARE / Type 2 type (NP_AUTO_ISO14443_4 off: no ISO 14443-4A slot, which would
    /// activate a Type 2 tag twice). A lone tag that is not ISO-DEP stays selected by that
    /// poll, which counted the field: until the selection changes it is the tag's alone
    /// check (``selectIfAlone(uid:isoDEP:reusingPoll:)``), and the tag can be identified without another
    /// select. A lone ISO-DEP tag is selected again with its RATS, so it keeps its ATS (and
    /// a later alone check polls again). An empty field costs the poll's period (150 ms on a
    /// PN532). Other readers list the field (``listTargets(maximum:)``) and select a lone tag.
    ///
    /// ```swift
    /// if case .alone(let tag) = try await device.pollField() { print(tag.uid) }
    /// ```
    package func pollField() throws(NFCDeviceError) -> FieldOccupancy {
        guard pollCountsTags else {
            let targets = try listTargets(maximum: 2)
            if targets.count > 1 { return .several(count: targets.count) }
            guard let only = targets.first, let selected = try selectListedAlone(only) else { return .absent }
            return .alone(selected)
        }
        // As in the alone check: the poll's activation sets the CRC bits itself.
        let crcOff = !field.framing.handleCRC
        try applyFraming(easy: true, crcByReader: field.framing.handleCRC)
        if field.framing.autoISO14443_4 { try setAutoISO14443_4(false, for: nil) }
        field.selectedTarget = nil
        let polled = Result { () throws(NFCDeviceError) -> (count: Int, selected: ISO14443ATarget?) in
            try withDevice { (device) throws(LibNFCError) in try LibNFC.pollPassiveISO14443A(device) }
        }
        if crcOff { try crcBackOffAfterActivation() }
        let (count, found) = try polled.get()
        guard count > 0, let found else { return .absent }
        guard count == 1 else {
            field.selectedTarget = found
            return .several(count: count)
        }
        guard !found.isISODEP else {
            // Polled without the ISO 14443-4A slot: no RATS yet.
            guard let withATS = try selectTarget(uid: found.uid) else { return .absent }
            return .alone(withATS)
        }
        field.selectedTarget = found
        field.framing.autoISO14443_4OffFor = found.uid
        field.aloneSincePoll = found.uid
        return .alone(found)
    }

    /// The selected tag while the poll that found it alone is still its alone check.
    var targetAloneSincePoll: ISO14443ATarget? {
        guard let selected = selectedTarget, selected.uid == field.aloneSincePoll else { return nil }
        return selected
    }

    /// Makes the next alone check poll, whatever an earlier poll proved.
    func endAloneProof() {
        field.aloneSincePoll = nil
    }

    /// Selects the one tag a listing found, after the field reset that ends the listing. A
    /// random ID (``ISO14443ATarget/hasRandomUID``) was drawn anew by that reset: the tag is
    /// selected as it answers now, and only a random ID again counts as the same tag.
    private func selectListedAlone(_ listed: ISO14443ATarget) throws(NFCDeviceError) -> ISO14443ATarget? {
        guard listed.hasRandomUID else { return try selectTarget(uid: listed.uid) }
        return try selectRandomIDTarget()
    }

    /// Selects the tag in the field when it shows a random ID: the same tag as before a field
    /// reset, which gave it a new one. Nil when no tag, or one with a fixed UID, answers.
    package func selectRandomIDTarget() throws(NFCDeviceError) -> ISO14443ATarget? {
        guard let selected = try selectTarget(), selected.hasRandomUID else { return nil }
        return selected
    }

    /// Selects a FeliCa card by Polling for `systemCode` (FFFF: any) at `bitRate` (212 or
    /// 424 kbit/s), asking for the system code it answers for. Nil when no card answered.
    ///
    /// ```swift
    /// let card = try await device.selectFeliCa(systemCode: 0x12FC)   // an NDEF card
    /// ```
    package func selectFeliCa(
        systemCode: UInt16 = ChipTables.felica.systemCodes.wildcard, bitRate: Int = 212
    ) throws(NFCDeviceError) -> FeliCaTarget? {
        guard ChipTables.felica.frame.bitRates.contains(bitRate) else {
            throw .invalidArgument("FeliCa runs at 212 or 424 kbit/s, not \(bitRate)")
        }
        try restoreSelectionSettings()
        field.selectedTarget = nil
        let polling = [
            ChipTables.felica.commands[.polling].code, UInt8(systemCode >> 8), UInt8(systemCode & 0xFF),
            ChipTables.felica.polling.requestCodeSystemCode, 0,
        ]
        let card = try withDevice { (device) throws(LibNFCError) in
            try LibNFC.selectPassiveFeliCa(device, bitRate: bitRate, polling: polling)
        }
        field.selectedCard = card.map(NFCTarget.feliCa)
        return card
    }

    /// Polls for `card` again as it was found (its system code, its bit rate): whether the same
    /// IDm answered, which leaves it selected.
    package func reselectFeliCa(_ card: FeliCaTarget) throws(NFCDeviceError) -> Bool {
        let again = try selectFeliCa(
            systemCode: card.systemCode ?? ChipTables.felica.systemCodes.wildcard, bitRate: card.bitRate)
        return again?.idm == card.idm
    }

    /// Selects a type B card (REQB for every AFI, then ATTRIB: the card enters ISO-DEP). Nil
    /// when no card answered.
    ///
    /// The field is switched off and on first: a card that is still ACTIVE from an earlier
    /// selection ignores REQB (ISO/IEC 14443-3), and one that InDeselect sent to HALT answers
    /// only WUPB, which libnfc does not send. Powered up again, it answers REQB (assumption
    /// TB-3).
    ///
    /// ```swift
    /// if let card = try await device.selectTypeB() { print(card.protocolInfo) }
    /// ```
    package func selectTypeB() throws(NFCDeviceError) -> ISO14443BTarget? {
        try restoreSelectionSettings()
        try resetField()
        let card = try withDevice { (device) throws(LibNFCError) in try LibNFC.selectPassiveISO14443B(device) }
        field.selectedCard = card.map(NFCTarget.iso14443B)
        return card
    }

    /// Selects `target` again as it was found: whether the same tag answered, which leaves
    /// it selected. A type B card with a random PUPI (a passport's) answers with another
    /// one after the field reset and counts as gone.
    package func reselect(_ target: NFCTarget) throws(NFCDeviceError) -> Bool {
        switch target {
        case .iso14443A(let tag): return try selectTarget(uid: tag.uid) != nil
        case .feliCa(let card): return try reselectFeliCa(card)
        case .iso14443B(let card): return try selectTypeB()?.pupi == card.pupi
        case .type1(let tag): return try selectType1()?.jewelID == tag.jewelID
        case .st25tb(let card): return try selectST25TB()?.uid == card.uid
        }
    }

    /// The FeliCa card, type B card or Type 1 tag the last poll for one selected, while it is.
    package var selectedCard: NFCTarget? { field.selectedCard }

    /// Switches the RF field off and on: every tag in the field powers down and comes
    /// back IDLE (selection, authentication and HALT state are lost), so a tag that was
    /// deselected can be found again without leaving the field.
    package func resetField() throws(NFCDeviceError) {
        field.selectedTarget = nil
        try withDevice { (device) throws(LibNFCError) in
            try LibNFC.setProperty(device, .activateField, false)
            try LibNFC.setProperty(device, .activateField, true)
        }
    }

    /// Selects one tag: the one with `uid`, or any tag when nil. Returns nil when no tag
    /// answered (the select gives up at once; poll with ``waitForTarget(timeout:pollInterval:)``).
    @discardableResult
    package func selectTarget(uid: [UInt8]? = nil) throws(NFCDeviceError) -> ISO14443ATarget? {
        if let uid, ![4, 7, 10].contains(uid.count) {
            throw .invalidArgument("a UID has 4, 7 or 10 bytes, not \(uid.count)")
        }
        try restoreSelectionSettings(for: uid)
        let target = try withDevice { (device) throws(LibNFCError) in
            try LibNFC.selectPassiveISO14443A(device, uid: uid)
        }
        field.selectedTarget = target
        return target
    }

    /// Deselects the selected tag and halts it: a poll does not find it again until it leaves
    /// and re-enters the field or ``resetField()`` — on a packing line, the tag just processed
    /// is not picked up twice. Selecting it by its UID wakes it (the PN532 then sends WUPA).
    /// Does nothing when none is selected.
    ///
    /// PN53x InDeselect sends S(DESELECT) to an ISO-DEP tag, which halts it, but nothing to a
    /// MIFARE or Type 2 tag (UM0701-02 §7.3.10; a real PN532 lists the same card again after
    /// it, libnfc issue 476): such a tag gets an ISO/IEC 14443-3 HLTA first, which it never
    /// answers.
    package func deselectTarget() throws(NFCDeviceError) {
        guard let target = selectedTarget else { return }
        if target.ats.isEmpty {
            do {
                _ = try transceive(
                    ChipTables.iso14443a.frames[.hlta].bytes, framing: .raw(crc: .byReader), timeout: .milliseconds(100)
                )
            } catch .libnfc(let cause) where cause.code == .rfTransmission || cause.code == .timeout {
                // No answer is HLTA's success.
            }
        }
        field.selectedTarget = nil
        try withDevice { (device) throws(LibNFCError) in try LibNFC.deselectTarget(device) }
    }

    /// True while the selected tag still answers (libnfc's presence check: a READ for
    /// Type 2 tags, a re-select for MIFARE Classic, an R(NAK) for ISO-DEP). A tag that
    /// left the field is forgotten.
    package func isTargetPresent() throws(NFCDeviceError) -> Bool {
        guard selectedTarget != nil else { throw .noTargetSelected }
        // libnfc re-selects a MIFARE Classic tag to find it: not a counting poll.
        field.aloneSincePoll = nil
        try restoreSelectionSettings()
        let failure = try withDevice { (device) throws(LibNFCError) -> LibNFCError? in
            guard let failure = LibNFC.targetIsPresent(device) else { return nil }
            if failure.code.meansReaderLost { throw failure }
            return failure
        }
        if failure != nil { field.selectedTarget = nil }
        return failure == nil
    }

    /// Sends `command` to the selected tag and returns its answer.
    ///
    /// - ``TransceiveFraming/easy``: PN53x InDataExchange; the chip handles CRC_A.
    /// - ``TransceiveFraming/raw(crc:)``: PN53x InCommunicateThru; with
    ///   ``CRCHandling/byHost`` the command must end with its CRC_A, the answer keeps
    ///   its CRC_A, and a 4-bit ACK / NAK comes back with ``TransceiveResponse/bitCount`` 4
    ///   (any one-byte answer is that short frame: a byte frame with CRC_A has three or more).
    ///
    /// `timeout` bounds the wait for the reader's answer. A tag that does not answer
    /// fails with ``NFCDeviceError/libnfc(_:)`` (``LibNFCError/Code/rfTransmission``, or
    /// ``LibNFCError/Code/timeout`` when the reader itself waited in vain); a reader that
    /// went away with ``NFCDeviceError/connectionLost(_:)``. A command longer than the
    /// reader carries in one frame (the ACR122U's is shorter than a PN532's on a UART)
    /// fails with ``NFCDeviceError/commandTooLong(length:maximum:)`` before anything is sent.
    package func transceive(
        _ command: [UInt8], framing: TransceiveFraming = .easy,
        timeout: Duration = .seconds(1)
    ) throws(NFCDeviceError) -> TransceiveResponse {
        // A tag that did not answer, or answered NAK (which sends a Type 2 tag back to IDLE),
        // may no longer be the selected tag of the poll that found it alone.
        do {
            let response = try exchange(command, framing: framing, timeout: timeout)
            if let value = response.shortFrameValue, NAKCode(rawValue: value)?.isACK != true {
                field.aloneSincePoll = nil
            }
            return response
        } catch {
            field.aloneSincePoll = nil
            throw error
        }
    }

    private func exchange(
        _ command: [UInt8], framing: TransceiveFraming,
        timeout: Duration
    ) throws(NFCDeviceError) -> TransceiveResponse {
        guard !command.isEmpty else { throw .invalidArgument("a command has at least one byte") }
        let maximum = maximumTagCommand(easyFraming: framing == .easy)
        guard command.count <= maximum else { throw .commandTooLong(length: command.count, maximum: maximum) }
        let milliseconds = libnfcWait(Self.milliseconds(timeout))
        switch framing {
        case .easy:
            try applyFraming(easy: true, crcByReader: true)
            let bytes = try withDevice { (device) throws(LibNFCError) in
                try LibNFC.transceiveBytes(
                    device, command, capacity: Self.answerCapacity, timeoutMilliseconds: milliseconds)
            }
            return TransceiveResponse(bytes: bytes, bitCount: bytes.count * 8)
        case .raw(.byHost):
            // libnfc's bit transceive reads the chip's RxLastBits register after every
            // exchange: a second PN532 command each time. With the CRC on the host a byte
            // frame has at least 3 bytes, so a single byte can only be a short frame (the
            // 4-bit ACK / NAK): the byte transceive tells them apart without that read.
            try applyFraming(easy: false, crcByReader: false)
            let bytes = try withDevice { (device) throws(LibNFCError) in
                try LibNFC.transceiveBytes(
                    device, command, capacity: Self.answerCapacity, timeoutMilliseconds: milliseconds)
            }
            return TransceiveResponse(bytes: bytes, bitCount: bytes.count == 1 ? Self.shortFrameBits : bytes.count * 8)
        case .rawBytes:
            try applyFraming(easy: false, crcByReader: true)
            let bytes = try withDevice { (device) throws(LibNFCError) in
                try LibNFC.transceiveBytes(
                    device, command, capacity: Self.answerCapacity, timeoutMilliseconds: milliseconds)
            }
            return TransceiveResponse(bytes: bytes, bitCount: bytes.count * 8)
        case .raw(.byReader):
            // libnfc's bit transceive waits NP_TIMEOUT_COMMAND: set for this exchange only,
            // and set back before anything else runs — the probe that tells a silent tag from
            // a lost reader waits the same property, and on a USB driver a short value
            // fails at once.
            try applyFraming(easy: false, crcByReader: true)
            let answer = try withDevice { (device) throws(LibNFCError) in
                try LibNFC.setProperty(device, .commandTimeout, milliseconds: milliseconds)
                defer {
                    try? LibNFC.setProperty(device, .commandTimeout, milliseconds: FramingState.defaultCommandTimeout)
                }
                return try LibNFC.transceiveBits(device, command, capacity: Self.answerCapacity)
            }
            return TransceiveResponse(bytes: answer.bytes, bitCount: answer.bitCount)
        }
    }

    /// Polls until a tag enters the field, then returns it selected. Polling is a loop of
    /// short select attempts (each gives up at once when the field is empty), `pollInterval`
    /// apart. Cancelling the calling task aborts a select in flight (`nfc_abort_command`)
    /// and ends the poll with ``NFCDeviceError/cancelled`` within about a second; other
    /// calls on the device may run between attempts.
    ///
    /// - Parameters:
    ///   - timeout: give up with ``NFCDeviceError/timeout`` after this long; nil waits forever.
    ///   - pollInterval: the pause between two select attempts.
    package func waitForTarget(
        timeout: Duration? = nil,
        pollInterval: Duration = .milliseconds(100)
    ) async throws(NFCDeviceError) -> ISO14443ATarget {
        try await poll(timeout: timeout, pollInterval: pollInterval) { () throws(NFCDeviceError) -> ISO14443ATarget? in
            try selectOrNothing()
        }
    }

    /// Polls until a FeliCa card answers Polling for `systemCode`, then returns it selected
    /// (``selectFeliCa(systemCode:bitRate:)``), as ``waitForTarget(timeout:pollInterval:)``
    /// waits for a type A tag.
    package func waitForFeliCa(
        systemCode: UInt16 = ChipTables.felica.systemCodes.wildcard, bitRate: Int = 212, timeout: Duration? = nil,
        pollInterval: Duration = .milliseconds(100)
    ) async throws(NFCDeviceError) -> FeliCaTarget {
        try await poll(timeout: timeout, pollInterval: pollInterval) { () throws(NFCDeviceError) -> FeliCaTarget? in
            try orNothing { () throws(NFCDeviceError) in try selectFeliCa(systemCode: systemCode, bitRate: bitRate) }
        }
    }

    /// Polls until a tag of any technology is in the field: a type A tag (selected, as
    /// ``waitForTarget(timeout:pollInterval:)`` selects it); when none answers, a FeliCa
    /// card answering Polling for any system at 212 kbit/s, then a type B card (REQB and
    /// ATTRIB), then a Type 1 tag (the Jewel poll and RID), each selected by its poll. A
    /// field with a type A tag never costs the other polls.
    package func waitForAnyTarget(
        timeout: Duration? = nil, pollInterval: Duration = .milliseconds(100)
    ) async throws(NFCDeviceError) -> NFCTarget {
        try await poll(timeout: timeout, pollInterval: pollInterval) { () throws(NFCDeviceError) -> NFCTarget? in
            try selectAnyOrNothing()
        }
    }

    /// One attempt of ``waitForAnyTarget(timeout:pollInterval:)``: type A, FeliCa, type B,
    /// Type 1.
    package func selectAnyOrNothing() throws(NFCDeviceError) -> NFCTarget? {
        if let tag = try selectOrNothing() { return .iso14443A(tag) }
        return try selectCardOrNothing()
    }

    /// A FeliCa card answering Polling for any system at 212 kbit/s, or else a type B card,
    /// or else a Type 1 tag: the polls after a type A select that found nothing.
    package func selectCardOrNothing() throws(NFCDeviceError) -> NFCTarget? {
        if let card = try orNothing({ () throws(NFCDeviceError) in try selectFeliCa() }) { return .feliCa(card) }
        if let card = try orNothing({ () throws(NFCDeviceError) in try selectTypeB() }) { return .iso14443B(card) }
        if let card = try orNothing({ () throws(NFCDeviceError) in try selectST25TB(afterTypeBPoll: true) }) {
            return .st25tb(card)
        }
        return try orNothing { () throws(NFCDeviceError) in try selectType1() }.map(NFCTarget.type1)
    }

    /// Selects an ST25TB or SRx card: the field is reset (a card selected before takes no
    /// Initiate) and a type B poll (``selectTypeB()``) sets the chip's analog settings for
    /// type B, which libnfc 1.8.0's ST select leaves as they are (assumption ST-1) — unless
    /// `afterTypeBPoll` says both just happened. Then libnfc's select on type B framing (Initiate, Select,
    /// Get_UID), which leaves easy framing off and the chip's CRC on for the card's
    /// commands. Nil when no card answered.
    ///
    /// ```swift
    /// if let card = try await device.selectST25TB() { print(card.uid.hexString()) }
    /// ```
    package func selectST25TB(afterTypeBPoll: Bool = false) throws(NFCDeviceError) -> ST25TBTarget? {
        try restoreSelectionSettings()
        if !afterTypeBPoll {
            // The field reset and REQB, which an ST25TB does not answer: it stays Ready.
            _ = try orNothing { () throws(NFCDeviceError) in try selectTypeB() }
        }
        // libnfc's select turns easy framing off and the CRC on first, whatever it finds.
        field.framing.easyFraming = false
        field.framing.handleCRC = true
        let uid = try withDevice { (device) throws(LibNFCError) in try LibNFC.selectPassiveST25TB(device) }
        guard let uid, uid.count == ChipTables.st25tb.uidLength else { return nil }
        let card = ST25TBTarget(uid: uid)
        field.selectedCard = .st25tb(card)
        return card
    }

    /// Selects a Type 1 tag (the reader's Jewel poll: REQA, no anticollision), then reads its
    /// header ROM with RID and the rest of its UID (bytes 4-6) with READ. Nil when no tag
    /// answered.
    ///
    /// ```swift
    /// if let topaz = try await device.selectType1() { print(topaz.headerROM) }   // [0x11, 0x48]
    /// ```
    package func selectType1() throws(NFCDeviceError) -> Type1Target? {
        try restoreSelectionSettings()
        field.selectedTarget = nil
        guard let listed = try withDevice({ (device) throws(LibNFCError) in try LibNFC.selectPassiveJewel(device) })
        else { return nil }
        let type1 = ChipTables.type1
        let timeout = Duration.milliseconds(type1.responseTimeoutMs) + .milliseconds(150)
        let rid = type1.commands[.rid]
        let answer = try transceive([rid.code], framing: .easy, timeout: timeout)
        let header = type1.headerROMLength
        guard answer.bytes.count == rid.responseLength, Array(answer.bytes.dropFirst(header)) == listed.jewelID else {
            return nil
        }
        var uid = listed.jewelID
        for address in listed.jewelID.count..<type1.uidLength {
            let byte = try transceive([type1.commands[.read].code, UInt8(address)], framing: .easy, timeout: timeout)
            guard byte.bytes.count == 1 else { return nil }
            uid += byte.bytes
        }
        let tag = Type1Target(jewelID: listed.jewelID, headerROM: Array(answer.bytes.prefix(header)), uid: uid)
        field.selectedCard = .type1(tag)
        return tag
    }

    /// `select`, where a reader that timed out or was aborted found no tag.
    private func orNothing<Found>(_ select: () throws(NFCDeviceError) -> Found?) throws(NFCDeviceError) -> Found? {
        do {
            return try select()
        } catch .libnfc(let cause) where cause.code == .timeout || cause.code == .operationAborted {
            return nil
        }
    }

    /// Runs `attempt` every `pollInterval` until it finds something, the timeout passes
    /// (``NFCDeviceError/timeout``) or the task is cancelled (``NFCDeviceError/cancelled``,
    /// aborting an attempt in flight with `nfc_abort_command`).
    private func poll<Found: Sendable>(
        timeout: Duration?, pollInterval: Duration, _ attempt: () throws(NFCDeviceError) -> Found?
    ) async throws(NFCDeviceError) -> Found {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        abortSwitch.reset()
        do {
            return try await withTaskCancellationHandler {
                while true {
                    if Task.isCancelled || abortSwitch.isAbortRequested { throw NFCDeviceError.cancelled }
                    if let found = try attempt() { return found }
                    if Task.isCancelled || abortSwitch.isAbortRequested { throw NFCDeviceError.cancelled }
                    if let deadline, ContinuousClock.now >= deadline { throw NFCDeviceError.timeout }
                    do {
                        try await Task.sleep(for: pollInterval)
                    } catch {
                        throw NFCDeviceError.cancelled
                    }
                }
            } onCancel: {
                abortSwitch.requestAbort()
            }
        } catch let error as NFCDeviceError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// One select attempt of a poll: a select that timed out or was aborted found no tag
    /// (the poll loop decides whether that means "cancelled").
    private func selectOrNothing() throws(NFCDeviceError) -> ISO14443ATarget? {
        do {
            return try selectTarget()
        } catch .libnfc(let cause) where cause.code == .timeout || cause.code == .operationAborted {
            return nil
        }
    }

    // MARK: - Settings

    /// Easy framing and chip CRC back on before any select (libnfc's anticollision relies on
    /// them), and NP_AUTO_ISO14443_4 back on unless the select is for `uid`, the tag known
    /// not to be ISO-DEP it was turned off for.
    private func restoreSelectionSettings(for uid: [UInt8]? = nil, keepingCRC: Bool = false) throws(NFCDeviceError) {
        try applyFraming(easy: true, crcByReader: keepingCRC ? field.framing.handleCRC : true)
        if !field.framing.autoISO14443_4, uid == nil || uid != field.framing.autoISO14443_4OffFor {
            try setAutoISO14443_4(true, for: nil)
        }
    }

    /// After an activation by the chip's firmware, whose CRC bits are now on while libnfc
    /// (and ``framing``) hold them off: libnfc's NP_HANDLE_CRC on and off again, which its
    /// register write-back cache merges into one write of the bits, off, before the next
    /// command.
    private func crcBackOffAfterActivation() throws(NFCDeviceError) {
        try withDevice { (device) throws(LibNFCError) in
            try LibNFC.setProperty(device, .handleCRC, true)
            try LibNFC.setProperty(device, .handleCRC, false)
        }
    }

    /// The alone check's poll types: ISO 14443-4A only for an ISO-DEP tag.
    private func pollOnlyNeededTypes(isoDEP: Bool, uid: [UInt8]) throws(NFCDeviceError) {
        if !isoDEP, field.framing.autoISO14443_4 { try setAutoISO14443_4(false, for: uid) }
    }

    private func setAutoISO14443_4(_ on: Bool, for uid: [UInt8]?) throws(NFCDeviceError) {
        try withDevice { (device) throws(LibNFCError) in try LibNFC.setProperty(device, .autoISO14443_4, on) }
        field.framing.autoISO14443_4 = on
        field.framing.autoISO14443_4OffFor = on ? nil : uid
    }

    private func applyFraming(easy: Bool, crcByReader: Bool) throws(NFCDeviceError) {
        var wanted = field.framing
        wanted.easyFraming = easy
        wanted.handleCRC = crcByReader
        let current = field.framing
        guard wanted != current else { return }
        try withDevice { (device) throws(LibNFCError) in
            if wanted.easyFraming != current.easyFraming {
                try LibNFC.setProperty(device, .easyFraming, wanted.easyFraming)
            }
            if wanted.handleCRC != current.handleCRC { try LibNFC.setProperty(device, .handleCRC, wanted.handleCRC) }
        }
        field.framing = wanted
    }

    /// A duration as whole milliseconds for libnfc, at least 1 (0 would mean "forever").
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(1, total))
    }
}

import NFCChips
import Testing
@testable import NFCEmulator

/// The chip's answer frame, built by hand.
func chipFrame(_ code: UInt8, _ data: [UInt8] = []) -> [UInt8] {
    let body: [UInt8] = [0xD5, code &+ 1] + data
    let length = UInt8(body.count)
    return [0x00, 0x00, 0xFF, length, 0 &- length] + body + [0 &- body.reduce(0, &+), 0x00]
}

let ackFrame: [UInt8] = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
let errorFrame: [UInt8] = [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]
let ntagUID: [UInt8] = [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]

/// Sends one command and returns the chip's answer data after checking the ACK.
func exchange(_ chip: inout PN532Controller, _ code: UInt8, _ data: [UInt8] = []) -> [UInt8]? {
    let out = chip.receive(hostFrame(code, data))
    guard out.starts(with: ackFrame) else { return nil }
    let answer = Array(out.dropFirst(ackFrame.count))
    guard answer.count >= 9, answer[5] == 0xD5, answer[6] == code &+ 1 else { return nil }
    return Array(answer[7..<(answer.count - 2)])
}

@Suite("PN532 commands answer byte for byte as libnfc expects")
struct PN532ControllerTests {
    @Test("libnfc's open sequence: wake-up, SAMConfiguration, Diagnose echo, firmware, SetParameters")
    func openSequence() {
        var chip = PN532Controller()
        let wake: [UInt8] = [0x55, 0x55] + [UInt8](repeating: 0, count: 14)
        #expect(chip.receive(wake + hostFrame(0x14, [0x01, 0x17, 0x00])) == ackFrame + chipFrame(0x14))
        let echo: [UInt8] = [0x00] + Array("libnfc".utf8)
        #expect(chip.receive(hostFrame(0x00, echo)) == ackFrame + chipFrame(0x00, echo))
        #expect(
            chip.receive(hostFrame(0x02)) == ackFrame + [
                0x00, 0x00, 0xFF, 0x06, 0xFA, 0xD5, 0x03, 0x32, 0x01, 0x06, 0x07, 0xE8, 0x00,
            ])
        #expect(chip.receive(hostFrame(0x12, [0x14])) == ackFrame + chipFrame(0x12))
    }

    /// nfcpy's open (clf/pn53x.py `diagnose("line")`): Diagnose 00 with 262 counting bytes, an
    /// extended frame of LEN 265 (TFI, command code, 263 data bytes), must come back byte for
    /// byte: the PN532 takes 265 bytes per frame (AN10449 §1).
    @Test("the longest Diagnose echo, LEN 265 in an extended frame, comes back whole")
    func maximalDiagnoseEcho() {
        var chip = PN532Controller()
        let data: [UInt8] = [0x00] + (0..<262).map { UInt8(truncatingIfNeeded: $0) }
        func extended(_ tfi: UInt8, _ code: UInt8) -> [UInt8] {
            let body = [tfi, code] + data
            let high = UInt8(body.count >> 8)
            let low = UInt8(truncatingIfNeeded: body.count)
            return [0x00, 0x00, 0xFF, 0xFF, 0xFF, high, low, 0 &- (high &+ low)] + body + [
                0 &- body.reduce(0, &+), 0x00,
            ]
        }
        let request = extended(0xD4, 0x00)
        #expect(Array(request[5...7]) == [0x01, 0x09, 0xF6], "LEN 265")
        #expect(chip.receive(request) == ackFrame + extended(0xD5, 0x01))
    }

    @Test("registers: any address is stored and read back, two at a time, with no status byte")
    func registers() {
        var chip = PN532Controller()
        #expect(exchange(&chip, 0x08, [0x63, 0x02, 0x80, 0xFF, 0xFF, 0x5A]) == [])
        #expect(
            exchange(&chip, 0x06, [0x63, 0x02, 0xFF, 0xFF, 0x63, 0x03]) == [0x80, 0x5A, 0x80], "RxMode as at power-up")
        #expect(chip.registers.flag(.txCRCEn))
    }

    /// nfcpy issue 131 (a real PN532 v1.6): after InListPassiveTarget of a 106 kbit/s type A
    /// target TxMode and RxMode read 80, whatever the host wrote; TxAuto written 4b reads 43
    /// once the chip has transmitted.
    @Test(
        "the firmware sets TxMode and RxMode to 80 at power-up and on activation, and clears TxAuto CAOn when it transmits"
    )
    func firmwareRegisterValues() {
        var chip = PN532Controller(field: Field(tags: [ScriptedTag(uid: ntagUID)]))
        #expect(exchange(&chip, 0x06, [0x63, 0x02, 0x63, 0x03]) == [0x80, 0x80], "power-up")
        #expect(exchange(&chip, 0x08, [0x63, 0x02, 0x00, 0x63, 0x03, 0x00, 0x63, 0x05, 0x4B]) == [])
        #expect(
            exchange(&chip, 0x06, [0x63, 0x02, 0x63, 0x03, 0x63, 0x05]) == [0x00, 0x00, 0x4B], "host writes stick")
        #expect(exchange(&chip, 0x4A, [0x01, 0x00])?.first == 0x01)
        #expect(exchange(&chip, 0x06, [0x63, 0x02, 0x63, 0x03, 0x63, 0x05]) == [0x80, 0x80, 0x4B], "after activation")
        _ = exchange(&chip, 0x42, [0x30, 0x00])
        #expect(exchange(&chip, 0x06, [0x63, 0x05]) == [0x43], "CAOn cleared by the transmission")
    }

    @Test("an unknown command or bad parameters get ACK then the error frame; a bad checksum only the error frame")
    func errorFrames() {
        var chip = PN532Controller()
        #expect(chip.receive(hostFrame(0x7E)) == ackFrame + errorFrame)
        #expect(chip.receive(hostFrame(0x06, [0x63])) == ackFrame + errorFrame)
        #expect(chip.receive(hostFrame(0x4A, [0x03, 0x00])) == ackFrame + errorFrame)
        var corrupted = hostFrame(0x02)
        corrupted[corrupted.count - 2] ^= 1
        #expect(chip.receive(corrupted) == errorFrame)
    }

    @Test("InListPassiveTarget returns Tg, ATQA MSB first, SAK, UID; NbTg 0 without a tag")
    func listPassiveTarget() {
        var chip = PN532Controller(field: Field(tags: [ScriptedTag(uid: ntagUID)]))
        #expect(exchange(&chip, 0x4A, [0x01, 0x00]) == [0x01, 0x01, 0x00, 0x44, 0x00, 0x07] + ntagUID)
        #expect(chip.field.isPowered)
        var empty = PN532Controller()
        #expect(exchange(&empty, 0x4A, [0x01, 0x00]) == [0x00])
        #expect(exchange(&empty, 0x4A, [0x01, 0x03, 0x00]) == [0x00], "type B finds nothing")
    }

    @Test("MaxTg 2 lists two tags; a UID (with cascade tag) selects only that one")
    func twoTargetsAndFilter() {
        let other: [UInt8] = [0x11, 0x22, 0x33, 0x44]
        var chip = PN532Controller(
            field: Field(tags: [ScriptedTag(uid: ntagUID), ScriptedTag(uid: other, atqa: 0x0004, sak: 0x08)]))
        #expect(
            exchange(&chip, 0x4A, [0x02, 0x00]) == [0x02, 0x01, 0x00, 0x44, 0x00, 0x07] + ntagUID + [
                0x02, 0x00, 0x04, 0x08, 0x04,
            ] + other)
        #expect(exchange(&chip, 0x4A, [0x01, 0x00] + other) == [0x01, 0x01, 0x00, 0x04, 0x08, 0x04] + other)
        #expect(exchange(&chip, 0x4A, [0x01, 0x00, 0x88] + ntagUID) == [0x01, 0x01, 0x00, 0x44, 0x00, 0x07] + ntagUID)
    }

    @Test("an ISO-DEP tag's ATS follows its UID when automatic RATS is on")
    func isoDepTarget() {
        let ats: [UInt8] = [0x06, 0x75, 0x77, 0x81, 0x02, 0x80]
        var chip = PN532Controller(field: Field(tags: [ScriptedTag(uid: ntagUID, atqa: 0x0344, sak: 0x20, ats: ats)]))
        #expect(exchange(&chip, 0x4A, [0x01, 0x00]) == [0x01, 0x01, 0x03, 0x44, 0x20, 0x07] + ntagUID + ats)
        #expect(exchange(&chip, 0x12, [0x00]) == [])
        #expect(exchange(&chip, 0x4A, [0x01, 0x00]) == [0x01, 0x01, 0x03, 0x44, 0x20, 0x07] + ntagUID)
    }

    @Test("InDataExchange: data with status 00, ACK as empty success, NAK and silence as timeout 01")
    func dataExchange() {
        let tag = ScriptedTag(uid: ntagUID, script: [0x30: .bytes([1, 2, 3, 4]), 0xA2: .ack(0x0A), 0x1B: .nak(0x00)])
        var chip = PN532Controller(field: Field(tags: [tag]))
        #expect(exchange(&chip, 0x40, [0x01, 0x30, 0x00]) == [0x27], "no target listed yet")
        _ = exchange(&chip, 0x4A, [0x01, 0x00])
        #expect(exchange(&chip, 0x40, [0x01, 0x30, 0x00]) == [0x00, 1, 2, 3, 4])
        #expect(exchange(&chip, 0x40, [0x01, 0xA2, 0x04, 0, 0, 0, 0]) == [0x00])
        #expect(exchange(&chip, 0x40, [0x01, 0x1B, 1, 2, 3, 4]) == [0x01])
        #expect(
            exchange(&chip, 0x40, [0x01, 0x30, 0x00]) == [0x01], "after a NAK the tag is IDLE until selected again")
        #expect(exchange(&chip, 0x40, [0x02, 0x30, 0x00]) == [0x27], "no target 2")
    }

    @Test("InCommunicateThru: CRC per TxMode/RxMode bit 7, 4-bit answers with RxLastBits 4 or status 02")
    func communicateThru() {
        let tag = ScriptedTag(uid: ntagUID, script: [0x30: .bytes([0x11, 0x22]), 0xA2: .ack(0x0A)])
        var chip = PN532Controller(field: Field(tags: [tag]))
        _ = exchange(&chip, 0x4A, [0x01, 0x00])
        // CRC on both ways (TxMode/RxMode bit 7 set).
        _ = exchange(&chip, 0x08, [0x63, 0x02, 0x80, 0x63, 0x03, 0x80])
        #expect(exchange(&chip, 0x42, [0x30, 0x00]) == [0x00, 0x11, 0x22])
        #expect(exchange(&chip, 0x42, [0xA2, 0x04, 0, 0, 0, 0]) == [0x02])
        // CRC off: the host sends CRC_A, the answer comes with CRC_A, a 4-bit ACK as one byte.
        _ = exchange(&chip, 0x08, [0x63, 0x02, 0x00, 0x63, 0x03, 0x00])
        #expect(
            exchange(&chip, 0x42, [0x30, 0x00, 0x02, 0xA8]) == [0x00, 0x11, 0x22] + ChipTables.crcA([0x11, 0x22]))
        #expect(exchange(&chip, 0x42, [0x30, 0x00, 0x02, 0xA9]) == [0x01], "a bad CRC_A gets no answer")
        #expect(
            exchange(&chip, 0x42, [0xA2, 0x04, 0, 0, 0, 0] + ChipTables.crcA([0xA2, 0x04, 0, 0, 0, 0])) == [0x00, 0x0A])
        #expect(chip.registers.field(.rxLastBits) == 4)
    }

    @Test("RFConfiguration field off resets every tag; InDeselect leaves a MIFARE target ACTIVE, HLTA halts it")
    func fieldAndRelease() {
        var chip = PN532Controller(field: Field(tags: [ScriptedTag(uid: ntagUID)]))
        _ = exchange(&chip, 0x4A, [0x01, 0x00])
        let handle = chip.field.handles[0]
        #expect(exchange(&chip, 0x44, [0x00]) == [0x00])
        #expect(chip.field.state(of: handle) == .active, "InDeselect sends nothing to a MIFARE / Type 2 target")
        #expect(exchange(&chip, 0x4A, [0x01, 0x00])?.first == 0x01, "listed again, as libnfc issue 476 shows")
        #expect(exchange(&chip, 0x42, [0x50, 0x00]) == [0x01], "HLTA: no answer")
        #expect(chip.field.state(of: handle) == .halt)
        #expect(exchange(&chip, 0x4A, [0x01, 0x00]) == [0x00], "a halted tag ignores REQA")
        #expect(exchange(&chip, 0x32, [0x01, 0x00]) == [])
        #expect(!chip.field.isPowered)
        #expect(exchange(&chip, 0x32, [0x01, 0x01]) == [])
        #expect(exchange(&chip, 0x4A, [0x01, 0x00])?.first == 0x01, "field reset wakes it")
        #expect(exchange(&chip, 0x52, [0x00]) == [0x00])
        #expect(exchange(&chip, 0x16, [0xF0]) == [0x00])
    }

    /// libfreefare 0.4.0 (`freefare_get_tags`, then `mifare_*_connect`): libnfc's list loop
    /// selects, deselects and selects again; libfreefare then selects each tag by UID.
    @Test("after libnfc's list loop (select, InDeselect, select) the tag is found by UID and answers")
    func libfreefareSelection() {
        var chip = PN532Controller(
            field: Field(tags: [ScriptedTag(uid: ntagUID, script: [0x30: .bytes([0x04, 0x47])])]))
        #expect(exchange(&chip, 0x4A, [0x01, 0x00])?.first == 0x01)
        #expect(exchange(&chip, 0x44, [0x00]) == [0x00])
        #expect(
            exchange(&chip, 0x4A, [0x01, 0x00])?.first == 0x01, "the same tag again: the loop sees it twice and stops")
        #expect(exchange(&chip, 0x4A, [0x01, 0x00] + ntagUID)?.first == 0x01, "selected by UID")
        #expect(exchange(&chip, 0x40, [0x01, 0x30, 0x00])?.first == 0x00, "and it answers, no status 27")
    }

    @Test("libnfc's list loop finds two tags: a tag left ACTIVE by InDeselect drops out on REQA and the other answers")
    func listLoopWithTwoTags() {
        let other: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
        var chip = PN532Controller(field: Field(tags: [ScriptedTag(uid: ntagUID), ScriptedTag(uid: other)]))
        var seen: [[UInt8]] = []
        while let answer = exchange(&chip, 0x4A, [0x01, 0x00]), answer.first == 0x01 {
            let uid = Array(answer.suffix(7))
            if seen.contains(uid) { break }
            seen.append(uid)
            _ = exchange(&chip, 0x44, [0x00])
        }
        #expect(seen == [ntagUID, other])
    }

    @Test("InDeselect sends S(DESELECT) to an ISO-DEP target, which rests in HALT")
    func deselectISODEP() throws {
        var chip = PN532Controller(field: Field(tags: [try Type4Tag(uid: T4.uid)]))
        #expect(exchange(&chip, 0x4A, [0x01, 0x00])?.first == 0x01)
        #expect(exchange(&chip, 0x44, [0x00]) == [0x00])
        #expect(chip.field.state(of: chip.field.handles[0]) == .halt)
    }

    /// libfreefare's DESFire tools: libnfc's list loop leaves the card in HALT (S(DESELECT)),
    /// then `mifare_desfire_connect` selects it by UID. An ACR122 (PN532) selecting a known UID
    /// puts WUPA `52` and SELECT `93 70 UID BCC` on air (emsec/ChameleonMini #302).
    @Test("InListPassiveTarget with a UID wakes a halted ISO-DEP tag (WUPA); without one it passes it by (REQA)")
    func selectByUIDWakesHaltedTag() throws {
        var chip = PN532Controller(field: Field(tags: [try Type4Tag(uid: T4.uid)]))
        #expect(exchange(&chip, 0x4A, [0x01, 0x00])?.first == 0x01)
        #expect(exchange(&chip, 0x44, [0x00]) == [0x00])
        #expect(exchange(&chip, 0x4A, [0x01, 0x00]) == [0x00], "a halted tag ignores REQA")
        #expect(exchange(&chip, 0x4A, [0x01, 0x00] + T4.uid)?.first == 0x01, "selected by UID")
        #expect(chip.field.state(of: chip.field.handles[0]) == .active)
    }

    @Test("a tag that answers HLTA goes to HALT and only a wake-up (InSelect) brings it back")
    func haltFromTag() {
        var chip = PN532Controller(field: Field(tags: [ScriptedTag(uid: ntagUID, script: [0x50: .halt])]))
        _ = exchange(&chip, 0x4A, [0x01, 0x00])
        #expect(exchange(&chip, 0x40, [0x01, 0x50, 0x00]) == [0x01])
        #expect(chip.field.state(of: chip.field.handles[0]) == .halt)
        #expect(exchange(&chip, 0x54, [0x01]) == [0x00])
        #expect(chip.field.state(of: chip.field.handles[0]) == .active)
    }

    @Test("Diagnose presence, GetGeneralStatus, GPIO, InSelect, InAutoPoll")
    func miscellaneous() {
        var chip = PN532Controller(field: Field(tags: [ScriptedTag(uid: ntagUID)]))
        #expect(exchange(&chip, 0x00, [0x06]) == [0x01])
        #expect(
            exchange(&chip, 0x60, [0x01, 0x01, 0x10]) == [0x01, 0x10, 0x0C, 0x01, 0x00, 0x44, 0x00, 0x07] + ntagUID)
        #expect(exchange(&chip, 0x00, [0x06]) == [0x00])
        #expect(exchange(&chip, 0x04) == [0x00, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00])
        #expect(exchange(&chip, 0x44, [0x01]) == [0x00])
        #expect(exchange(&chip, 0x54, [0x01]) == [0x00])
        #expect(chip.field.state(of: chip.field.handles[0]) == .active)
        #expect(exchange(&chip, 0x0E, [0x85, 0x02]) == [])
        #expect(exchange(&chip, 0x0C) == [0x05, 0x00, 0x00])
    }

    @Test("an endless InAutoPoll waits, answers when a tag enters, and an ACK from the host aborts it")
    func pendingAutoPoll() {
        var chip = PN532Controller()
        #expect(chip.receive(hostFrame(0x60, [0xFF, 0x01, 0x10])) == ackFrame)
        #expect(chip.fieldDidChange() == [])
        chip.field.insert(ScriptedTag(uid: ntagUID))
        #expect(chip.fieldDidChange() == chipFrame(0x60, [0x01, 0x10, 0x0C, 0x01, 0x00, 0x44, 0x00, 0x07] + ntagUID))
        chip.field.setPower(false)
        var aborted = PN532Controller()
        _ = aborted.receive(hostFrame(0x60, [0xFF, 0x01, 0x10]))
        #expect(aborted.receive(ackFrame) == [])
        aborted.field.insert(ScriptedTag(uid: ntagUID))
        #expect(aborted.fieldDidChange() == [])
    }

    @Test("a NACK from the host repeats the last answer; statistics count both directions")
    func nackAndStatistics() {
        var chip = PN532Controller()
        let answer = chip.receive(hostFrame(0x02))
        #expect(chip.receive([0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]) == answer)
        #expect(chip.statistics.framesFromHost == 2)
        #expect(chip.statistics.bytesFromHost == 9 + 6)
        #expect(chip.statistics.bytesToHost == answer.count * 2)
        #expect(chip.statistics.modelledTime > .zero)
    }
}

@Suite("PN532 commands take their codes from the tables")
struct PN532TableDrivenCommandTests {
    @Test("InAutoPoll reports the asked type a target answers to: 10 for MIFARE, 20 only for ISO-DEP")
    func autoPollTypes() {
        var chip = PN532Controller(field: Field(tags: [ScriptedTag(uid: [1, 2, 3, 4], atqa: 0x0004, sak: 0x08)]))
        #expect(exchange(&chip, 0x60, [0x01, 0x01, 0x20]) == [0x00], "a MIFARE card is no ISO 14443-4A target")
        #expect(exchange(&chip, 0x60, [0x01, 0x01, 0x20, 0x10])?.prefix(2) == [0x01, 0x10])
        #expect(exchange(&chip, 0x60, [0x01, 0x01, 0x40, 0x11]) == [0x00], "DEP and FeliCa find nothing")
        #expect(exchange(&chip, 0x60, [0x01, 0x01, 0x00])?.prefix(2) == [0x01, 0x00])
    }

    @Test(
        "InAutoPoll's modelled time: an empty field costs PollNr × Period × 150 ms per asked type; a slot the tag does not qualify for costs one activation"
    )
    func autoPollTiming() {
        func modelled(_ tags: [any EmulatedTag], _ poll: [UInt8]) -> (answer: [UInt8]?, time: Duration) {
            var chip = PN532Controller(field: Field(tags: tags))
            let before = chip.statistics.modelledTime
            let answer = exchange(&chip, 0x60, poll)
            return (answer, chip.statistics.modelledTime - before)
        }
        // libnfc's poll with NP_AUTO_ISO14443_4: PollNr 1, Period 1, ISO 14443-4A then MIFARE.
        let empty = modelled([], [0x01, 0x01, 0x20, 0x10])
        #expect(empty.answer == [0x00])
        #expect(empty.time >= .milliseconds(300) && empty.time < .milliseconds(320), "\(empty.time)")
        #expect(modelled([], [0x02, 0x03, 0x10]).time >= .milliseconds(900), "2 × 3 × 150 ms")
        // An NTAG found in the second slot costs one activation more than when asked alone.
        let ntag = ScriptedTag(uid: ntagUID, atqa: 0x0044, sak: 0x00)
        let both = modelled([ntag], [0x01, 0x01, 0x20, 0x10])
        let alone = modelled([ntag], [0x01, 0x01, 0x10])
        #expect(both.answer?.prefix(2) == [0x01, 0x10])
        let extra = both.time - alone.time
        #expect(extra > .milliseconds(1) && extra < .milliseconds(5), "one activation of a 7-byte UID: \(extra)")
    }

    @Test("SetSerialBaudRate: a known code is answered and the modelled UART speed changes on the host's ACK")
    func serialBaudRate() {
        var chip = PN532Controller()
        #expect(exchange(&chip, 0x10, [0x09]) == nil, "unknown speed code: error frame")
        #expect(exchange(&chip, 0x10, [0x07]) == [])
        #expect(chip.statistics.uartBaud == 115_200)
        _ = chip.receive(ackFrame)
        #expect(chip.statistics.uartBaud == 921_600)
    }

    @Test(
        "a frame sent at a speed other than the chip's is noise: no ACK, no answer, a half frame lost; the chip keeps its speed"
    )
    func wrongSpeedIsNoise() {
        var chip = PN532Controller()
        let getFirmwareVersion: [UInt8] = [0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00]
        #expect(chip.receive(getFirmwareVersion, hostSpeed: 460_800) == [])
        #expect(chip.statistics.bytesAtWrongSpeed == getFirmwareVersion.count)
        #expect(chip.statistics.commands == 0)
        // Half a frame at the chip's speed, the rest at another: the frame is lost.
        #expect(chip.receive(Array(getFirmwareVersion.prefix(5)), hostSpeed: 115_200) == [])
        #expect(chip.receive(Array(getFirmwareVersion.dropFirst(5)), hostSpeed: 460_800) == [])
        #expect(chip.receive(getFirmwareVersion, hostSpeed: 115_200).starts(with: ackFrame))
        // Switched to 460 800: the ACK commits at whatever speed the pty reports, then 115 200 is noise.
        #expect(exchange(&chip, 0x10, [0x06]) == [])
        _ = chip.receive(ackFrame, hostSpeed: 460_800)
        #expect(chip.statistics.uartBaud == 460_800)
        let commands = chip.statistics.commands
        #expect(chip.receive(getFirmwareVersion, hostSpeed: 115_200) == [])
        #expect(chip.statistics.commands == commands)
        #expect(chip.receive(getFirmwareVersion, hostSpeed: 460_800).starts(with: ackFrame))
        // A host whose speed is unknown (not a UART) is taken at its word.
        #expect(chip.receive(getFirmwareVersion, hostSpeed: nil).starts(with: ackFrame))
        // Power-on: 115 200 again.
        #expect(PN532Controller().statistics.uartBaud == 115_200)
    }

    @Test("RFConfiguration switches the field by its RFOn bit only; WriteGPIO writes only validated ports")
    func rfFieldAndGPIO() {
        var chip = PN532Controller()
        #expect(exchange(&chip, 0x32, [0x01, 0x03]) == [])
        #expect(chip.field.isPowered)
        #expect(exchange(&chip, 0x32, [0x01, 0x02]) == [])
        #expect(!chip.field.isPowered, "AutoRFCA alone does not switch the field on")
        #expect(exchange(&chip, 0x0E, [0x81, 0x7F]) == [])
        #expect(exchange(&chip, 0x0C) == [0x01, 0x00, 0x00], "P7 without its validate bit stays")
    }
}

@Suite("InCommunicateThru carries ISO/IEC 14443-3 activation frames as libnfc's nfc-anticol sends them")
struct PN532RawActivationTests {
    /// CRC off both ways, parity by the chip, as nfc-anticol sets them (NP_HANDLE_CRC false).
    func rawChip(_ tags: [any EmulatedTag]) -> PN532Controller {
        var chip = PN532Controller(field: Field(tags: tags))
        _ = exchange(&chip, 0x08, [0x63, 0x02, 0x00, 0x63, 0x03, 0x00])
        return chip
    }

    func bits(_ chip: inout PN532Controller, _ count: UInt8) {
        _ = exchange(&chip, 0x08, [0x63, 0x3D, count])
    }

    @Test("REQA (7 bits), ANTICOLLISION and SELECT of both cascade levels, then HLTA, for a 7-byte UID")
    func sevenByteUID() {
        var chip = rawChip([ScriptedTag(uid: ntagUID)])
        bits(&chip, 7)
        #expect(exchange(&chip, 0x42, [0x26]) == [0x00, 0x44, 0x00], "ATQA, least significant byte first")
        bits(&chip, 0)
        let level1: [UInt8] = [0x88, 0x04, 0x47, 0x5E, 0x88 ^ 0x04 ^ 0x47 ^ 0x5E]
        #expect(exchange(&chip, 0x42, [0x93, 0x20]) == [0x00] + level1, "cascade tag and BCC")
        let select1 = [0x93, 0x70] + level1
        #expect(
            exchange(&chip, 0x42, select1 + ChipTables.crcA(select1)) == [0x00, 0x04] + ChipTables.crcA([0x04]),
            "SAK with the cascade bit")
        let level2: [UInt8] = [0xD2, 0x9C, 0x39, 0x80, 0xD2 ^ 0x9C ^ 0x39 ^ 0x80]
        #expect(exchange(&chip, 0x42, [0x95, 0x20]) == [0x00] + level2)
        let select2 = [0x95, 0x70] + level2
        #expect(exchange(&chip, 0x42, select2 + ChipTables.crcA(select2)) == [0x00, 0x00] + ChipTables.crcA([0x00]))
        #expect(chip.field.state(of: chip.field.handles[0]) == .active)
        #expect(exchange(&chip, 0x42, [0x50, 0x00] + ChipTables.crcA([0x50, 0x00])) == [0x01], "HLTA gets no answer")
        #expect(chip.field.state(of: chip.field.handles[0]) == .halt)
        bits(&chip, 7)
        #expect(exchange(&chip, 0x42, [0x26]) == [0x01], "a halted tag ignores REQA")
        #expect(exchange(&chip, 0x42, [0x52]) == [0x00, 0x44, 0x00], "WUPA wakes it")
    }

    /// Two 7-byte UIDs that share their first three bytes share cascade level 1: both answer
    /// its SELECT and both reach level 2, where their bytes differ and collide.
    @Test("two tags sharing cascade level 1 both go on to level 2 and collide there")
    func sharedFirstCascadeLevel() {
        let other: [UInt8] = [0x04, 0x47, 0x5E, 0x11, 0x22, 0x33, 0x44]
        var chip = rawChip([ScriptedTag(uid: ntagUID), ScriptedTag(uid: other)])
        bits(&chip, 7)
        #expect(exchange(&chip, 0x42, [0x26]) == [0x00, 0x44, 0x00])
        bits(&chip, 0)
        let level1: [UInt8] = [0x88, 0x04, 0x47, 0x5E, 0x88 ^ 0x04 ^ 0x47 ^ 0x5E]
        #expect(
            exchange(&chip, 0x42, [0x93, 0x20]) == [0x00] + level1, "the same level-1 bytes from both: no collision")
        let select1 = [0x93, 0x70] + level1
        #expect(exchange(&chip, 0x42, select1 + ChipTables.crcA(select1)) == [0x00, 0x04] + ChipTables.crcA([0x04]))
        #expect(exchange(&chip, 0x42, [0x95, 0x20]) == [0x06], "both tags answer level 2 with different bytes")
        let otherLevel2: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x11 ^ 0x22 ^ 0x33 ^ 0x44]
        let select2 = [0x95, 0x70] + otherLevel2
        #expect(exchange(&chip, 0x42, select2 + ChipTables.crcA(select2)) == [0x00, 0x00] + ChipTables.crcA([0x00]))
        #expect(chip.field.state(of: chip.field.handles[1]) == .active)
    }

    @Test("REQA sent as 8 bits is no short frame: no answer; ANTICOLLISION with the RX CRC check on fails it")
    func framingMatters() {
        var chip = rawChip([ScriptedTag(uid: [0x3E, 0x39, 0xAB, 0x7F], atqa: 0x0004, sak: 0x08)])
        #expect(exchange(&chip, 0x42, [0x26]) == [0x01])
        bits(&chip, 7)
        #expect(exchange(&chip, 0x42, [0x26]) == [0x00, 0x04, 0x00])
        bits(&chip, 0)
        _ = exchange(&chip, 0x08, [0x63, 0x03, 0x80])
        #expect(exchange(&chip, 0x42, [0x93, 0x20]) == [0x02], "five bytes without CRC_A fail the chip's check")
    }

    /// libnfc's NFC Barcode discovery (pn53x.c) in every nfc-list: InCommunicateThru with no
    /// data; with no tag talking first the chip reports a time-out, not a syntax error.
    @Test("an empty InCommunicateThru times out (status 01)")
    func emptyCommunicateThru() {
        var chip = PN532Controller(field: Field(tags: [ScriptedTag(uid: ntagUID)]))
        #expect(chip.receive(hostFrame(0x42)) == ackFrame + chipFrame(0x42, [0x01]))
    }
}

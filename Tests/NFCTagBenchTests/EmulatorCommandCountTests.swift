import NFCChips
import NFCEmulator
import Testing

/// The emulator's per-command counters that the benchmark's breakdown reads.
@Suite("Emulator statistics by command code")
struct EmulatorCommandCountTests {
    /// A host frame for PN532 command `code` with `data`.
    static func frame(_ code: UInt8, _ data: [UInt8] = []) -> [UInt8] {
        let body: [UInt8] = [0xD4, code] + data
        let length = UInt8(body.count)
        let checksum = 0 &- body.reduce(0, &+)
        return [0x00, 0x00, 0xFF, length, 0 &- length] + body + [checksum, 0x00]
    }

    @Test("PN532 commands are counted by code and tag frames by their first byte")
    func counts() throws {
        let tag = try Type2Tag(chip: .ntag216, uid: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
        var chip = PN532Controller(field: Field(tags: [tag]))
        _ = chip.receive(Self.frame(0x02))  // GetFirmwareVersion
        _ = chip.receive(Self.frame(0x4A, [0x01, 0x00]))  // InListPassiveTarget
        _ = chip.receive(Self.frame(0x40, [0x01, 0x30, 0x04]))  // InDataExchange READ 4
        _ = chip.receive(Self.frame(0x40, [0x01, 0x30, 0x08]))
        #expect(chip.statistics.commandsByCode == [0x02: 1, 0x4A: 1, 0x40: 2])
        #expect(chip.statistics.tagFramesByCode == [0x30: 2])
        #expect(chip.statistics.commands == 4)
    }

    @Test("modelled time is split by PN532 command and by the tag command it carried, and adds up")
    func timeByCode() throws {
        let tag = try Type2Tag(chip: .ntag216, uid: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
        var chip = PN532Controller(field: Field(tags: [tag]))
        _ = chip.receive(Self.frame(0x4A, [0x01, 0x00]))
        _ = chip.receive(Self.frame(0x40, [0x01, 0x30, 0x04]))
        _ = chip.receive(Self.frame(0x40, [0x01, 0x3A, 0x04, 0x07]))
        let statistics = chip.statistics
        #expect(Set(statistics.modelledTimeByCode.keys) == [0x4A, 0x40])
        #expect(statistics.modelledTimeByCode.values.reduce(.zero, +) == statistics.modelledTime)
        #expect(Set(statistics.modelledTimeByTagCode.keys) == [0x30, 0x3A])
        #expect(statistics.modelledTimeByTagCode.values.reduce(.zero, +) == statistics.modelledTimeByCode[0x40])
    }

    @Test("asking for two targets with one in the field costs an unanswered REQA and a second activation")
    func searchPastTheOnlyTag() throws {
        let tag = try Type2Tag(chip: .ntag216, uid: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
        var one = PN532Controller(field: Field(tags: [tag]))
        var two = PN532Controller(field: Field(tags: [tag]))
        let answerOne = one.receive(Self.frame(0x4A, [0x01, 0x00]))
        let answerTwo = two.receive(Self.frame(0x4A, [0x02, 0x00]))
        #expect(answerOne.count == answerTwo.count)  // same frames: one target found
        // The same host frames (MaxTg is one byte either way): only the air time differs.
        // Bits at 106 kbit/s (128 carrier cycles each): a frame of n bytes is 9n + 2 bits,
        // the frame delay time 1236 cycles. REQA unanswered: 7 + 2 bits, FDT, an ATQA's
        // worth of waiting; activation of a 7-byte UID: REQA, FDT, ATQA, then per cascade
        // level ANTICOLLISION, FDT, UID CLn, SELECT, FDT, SAK.
        func frame(_ bytes: Double) -> Double { 9 * bytes + 2 }
        let fdt = 1236.0 / 128
        let unanswered = 9 + fdt + frame(2)
        let activation = 9 + fdt + frame(2) + 2 * (frame(2) + fdt + frame(5) + frame(9) + fdt + frame(3))
        let expectedMicroseconds = (unanswered + activation) * 128 / 13.56
        let extra = two.statistics.modelledTime - one.statistics.modelledTime
        let (seconds, attoseconds) = extra.components
        let microseconds = Double(seconds) * 1e6 + Double(attoseconds) / 1e12
        #expect(abs(microseconds - expectedMicroseconds) < 1, "\(microseconds) µs, expected \(expectedMicroseconds)")
    }
}

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
        _ = chip.receive(Self.frame(0x02))                 // GetFirmwareVersion
        _ = chip.receive(Self.frame(0x4A, [0x01, 0x00]))   // InListPassiveTarget
        _ = chip.receive(Self.frame(0x40, [0x01, 0x30, 0x04]))   // InDataExchange READ 4
        _ = chip.receive(Self.frame(0x40, [0x01, 0x30, 0x08]))
        #expect(chip.statistics.commandsByCode == [0x02: 1, 0x4A: 1, 0x40: 2])
        #expect(chip.statistics.tagFramesByCode == [0x30: 2])
        #expect(chip.statistics.commands == 4)
    }
}

import NFCChips
import Testing
@testable import NFCEmulator

@Suite("Faults on demand: the tag leaves, NAKs, timeouts, EEPROM failure, garbled frames, unplug")
struct FaultInjectionTests {
    func chip(_ specs: [String], tags: [any EmulatedTag]? = nil) throws -> PN532Controller {
        var chip = PN532Controller(
            field: Field(tags: try tags ?? [freshNTAG215()]), faults: try FaultPlan(parsing: specs))
        _ = exchange(&chip, 0x4A, [0x01, 0x00])
        return chip
    }

    @Test("fault specs parse as the CLI contract writes them; anything else is refused with the accepted forms")
    func parsing() throws {
        let plan = try FaultPlan(parsing: [
            "tear-after=20", "nak-page=0x10", "timeout-command=3A", "slow=50", "unplug-after=7",
        ])
        #expect(plan.tagLeavesAfterFrames == 20)
        #expect(plan.nakPages == [16])
        #expect(plan.timeoutCommands == [0x3A])
        #expect(plan.answerDelay == .milliseconds(50))
        #expect(plan.unplugAfterFrames == 7)
        #expect(throws: FaultSpecError(spec: "tear-after")) { try FaultPlan(parsing: ["tear-after"]) }
        #expect(throws: FaultSpecError(spec: "melt=1")) { try FaultPlan(parsing: ["melt=1"]) }
        #expect(FaultSpecError(spec: "melt=1").description.contains("tear-after=N"))
    }

    @Test("tear-after=N: the first tag answers N frames, then it is gone from the field")
    func tagLeaves() throws {
        var chip = try chip(["tear-after=2"])
        #expect(exchange(&chip, 0x40, [0x01, 0x30, 0x04])?.first == 0x00)
        #expect(exchange(&chip, 0x40, [0x01, 0x30, 0x08])?.first == 0x00)
        #expect(exchange(&chip, 0x40, [0x01, 0x30, 0x0C]) == [0x01])
        #expect(chip.field.handles.isEmpty)
        #expect(exchange(&chip, 0x4A, [0x01, 0x00]) == [0x00])
    }

    @Test("nak-page=P: NAK 0 on that page (status 01, or the 4 bits in raw mode) and the tag leaves ACTIVE")
    func nakPage() throws {
        var chip = try chip(["nak-page=5"])
        #expect(exchange(&chip, 0x40, [0x01, 0x30, 0x04])?.first == 0x00)
        #expect(exchange(&chip, 0x40, [0x01, 0x30, 0x05]) == [0x01])
        #expect(chip.field.state(of: chip.field.handles[0]) == .idle)
        _ = exchange(&chip, 0x4A, [0x01, 0x00])
        _ = exchange(&chip, 0x08, [0x63, 0x02, 0x00, 0x63, 0x03, 0x00])
        #expect(
            exchange(&chip, 0x42, [0xA2, 0x05, 1, 2, 3, 4] + ChipTables.crcA([0xA2, 0x05, 1, 2, 3, 4])) == [0x00, 0x00])
    }

    @Test("timeout-page and timeout-command: no answer, but the tag stays ACTIVE")
    func timeouts() throws {
        var chip = try chip(["timeout-page=8", "timeout-command=3C"])
        #expect(exchange(&chip, 0x40, [0x01, 0x30, 0x08]) == [0x01])
        #expect(exchange(&chip, 0x40, [0x01, 0x3C, 0x00]) == [0x01])
        #expect(exchange(&chip, 0x40, [0x01, 0x30, 0x04])?.first == 0x00, "still selected")
    }

    @Test("eeprom-fail-page: NAK 5; a plain page is half-written, a tearing-protected page keeps its content")
    func eepromFailure() throws {
        var chip = try chip(["eeprom-fail-page=16", "eeprom-fail-page=3"])
        _ = exchange(&chip, 0x08, [0x63, 0x02, 0x00, 0x63, 0x03, 0x00])
        #expect(
            exchange(&chip, 0x42, [0xA2, 0x10, 1, 2, 3, 4] + ChipTables.crcA([0xA2, 0x10, 1, 2, 3, 4])) == [0x00, 0x05])
        let tag = try #require(chip.field.tag(chip.field.handles[0]) as? Type2Tag)
        #expect(tag.page(0x10) == [1, 2, 0, 0])
        _ = exchange(&chip, 0x4A, [0x01, 0x00])
        _ = exchange(&chip, 0x08, [0x63, 0x02, 0x00, 0x63, 0x03, 0x00])  // the activation set both CRC bits again
        #expect(
            exchange(&chip, 0x42, [0xA2, 0x03, 0, 0, 0, 0x0F] + ChipTables.crcA([0xA2, 0x03, 0, 0, 0, 0x0F])) == [
                0x00, 0x05,
            ])
        let after = try #require(chip.field.tag(chip.field.handles[0]) as? Type2Tag)
        #expect(after.page(0x03) == [0xE1, 0x10, 0x3E, 0x00], "the CC is tearing-protected")
    }

    @Test("eeprom-fail-page on a Classic block: the data frame fails and half the block is new")
    func classicEEPROMFailure() throws {
        var chip = try chip(["eeprom-fail-page=4"], tags: [Classic.card()])
        _ = exchange(&chip, 0x40, [0x01, 0x60, 0x04] + Classic.transportKey + Classic.uid)
        #expect(exchange(&chip, 0x40, [0x01, 0xA0, 0x04] + [UInt8](repeating: 0x77, count: 16)) == [0x01])
        let card = try #require(chip.field.tag(chip.field.handles[0]) as? ClassicTag)
        #expect(card.block(4) == [UInt8](repeating: 0x77, count: 8) + [UInt8](repeating: 0, count: 8))
    }

    @Test("garble-after=N: the Nth answer frame carries a wrong DCS; unplug-after=N asks for the unplug")
    func garbleAndUnplug() throws {
        var chip = PN532Controller(faults: try FaultPlan(parsing: ["garble-after=2", "unplug-after=3"]))
        #expect(chip.receive(hostFrame(0x02)) == ackFrame + chipFrame(0x02, [0x32, 0x01, 0x06, 0x07]))
        var garbled = chipFrame(0x02, [0x32, 0x01, 0x06, 0x07])
        garbled[garbled.count - 2] ^= 0xFF
        #expect(chip.receive(hostFrame(0x02)) == ackFrame + garbled)
        #expect(!chip.unplugRequested)
        _ = chip.receive(hostFrame(0x02))
        #expect(chip.unplugRequested)
    }
}

@Suite("Timing model: every exchange gets its modelled duration")
struct TimingModelTests {
    @Test("READ through InDataExchange: UART bytes both ways + air time of request, FDT and answer")
    func readDuration() throws {
        let timing = ChipTables.pn532.timing
        var chip = PN532Controller(field: Field(tags: [try freshNTAG215()]))
        _ = exchange(&chip, 0x4A, [0x01, 0x00])
        let request = hostFrame(0x40, [0x01, 0x30, 0x04])
        let answer = chip.receive(request)
        let uart = Double((request.count + answer.count) * timing.uartBitsPerByte) / Double(timing.uartBaud)
        let air =
            timing.airFrameSeconds(byteCount: 4) + timing.frameDelayTimeSeconds + timing.airFrameSeconds(byteCount: 18)
        let expected = Duration.seconds(uart + air)
        #expect(
            abs((chip.lastExchangeDuration - expected) / .nanoseconds(1)) < 10,
            "\(chip.lastExchangeDuration) vs \(expected)")
    }

    @Test("WRITE adds the chip's EEPROM time per page; statistics count frames and bytes per direction")
    func writeDuration() throws {
        var chip = PN532Controller(field: Field(tags: [try freshNTAG215()]))
        _ = exchange(&chip, 0x4A, [0x01, 0x00])
        _ = chip.receive(hostFrame(0x40, [0x01, 0x30, 0x04]))
        let read = chip.lastExchangeDuration
        _ = chip.receive(hostFrame(0x40, [0x01, 0xA2, 0x04, 1, 2, 3, 4]))
        let eeprom = Duration.microseconds(
            Int(try #require(ChipTables.spec(for: .ntag215).timing).eepromWriteMsPerPage * 1000))
        #expect(chip.lastExchangeDuration > eeprom)
        #expect(chip.lastExchangeDuration < eeprom + read)
        let stats = chip.statistics
        #expect(stats.commands == 3 && stats.framesFromHost == 3 && stats.framesToHost == 6)
        #expect(stats.framesToTags == 2 && stats.framesFromTags == 2)
        #expect(stats.bytesFromHost == 11 + 12 + 16)
    }
}

@Suite("The field's record of departed tags")
struct DepartedTagsTests {
    @Test(
        "a removed tag is kept, one per UID, until forgotten — a soak over thousands of tags forgets each one it judged"
    )
    func forgetting() throws {
        var field = Field()
        for serial in 0..<3 {
            let uid: [UInt8] = [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, UInt8(serial)]
            let handle = field.insert(try Type2Tag(chip: .ntag215, uid: uid))
            #expect(field.remove(handle) != nil)
        }
        #expect(field.departedTags.count == 3)
        let again = field.insert(try freshNTAG215())
        field.remove(again)
        field.remove(field.insert(try freshNTAG215()))
        #expect(field.departedTags.count == 4)
        field.forgetDepartedTags()
        #expect(field.departedTags.isEmpty)
        let kept = field.insert(try freshNTAG215())
        field.forgetDepartedTags()
        #expect(field.handles == [kept])
    }
}

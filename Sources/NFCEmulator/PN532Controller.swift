import NFCChips

/// The emulated PN532 as a pure state machine: host bytes in, host bytes out.
///
/// It parses frames, acknowledges each command, executes it against its registers and
/// its ``Field`` and frames the answer, exactly as the chip does on its HSU link. No I/O
/// happens here, so every command can be tested as a transcript.
///
/// ```swift
/// var chip = PN532Controller(field: Field(tags: [tag]))
/// let out = chip.receive([0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00])
/// // ACK, then 00 00 FF 06 FA D5 03 32 01 06 07 E8 00
/// ```
public struct PN532Controller: Sendable {
    /// The PN532 tables every code comes from.
    package let spec: PN532Spec
    /// The RF field and its tags.
    public var field: Field
    /// The CIU registers.
    public internal(set) var registers: CIURegisterFile
    /// Counters and the modelled time.
    public internal(set) var statistics = EmulatorStatistics()

    var parser: PN532FrameParser
    let encoder: PN532FrameEncoder
    /// Targets listed by the last InListPassiveTarget / InAutoPoll, by target number.
    var targets: [ListedTarget] = []
    /// The target raw frames (InCommunicateThru) go to.
    var currentTarget: UInt8?
    /// The status of the last failed exchange, for GetGeneralStatus.
    var lastError: UInt8 = 0
    /// SetParameters flags.
    var parameterFlags: UInt8
    /// P3, P7 and I0I1 as ReadGPIO reports them.
    var gpio: [UInt8] = [0, 0, 0]
    /// The last frame sent, for a NACK from the host.
    var lastSent: [UInt8] = []
    /// The command the current ``receive(_:)`` handled, and modelled time not yet counted
    /// against a command (the first bytes of a split frame).
    var lastCommandCode: UInt8?
    /// The tag command the current ``receive(_:)`` sent (its first byte).
    var lastTagCode: UInt8?
    var unattributedTime: Duration = .zero
    /// An InAutoPoll that waits for a tag; answered by ``fieldDidChange()`` or dropped by an abort.
    var pendingAutoPoll: [UInt8]?
    /// The speed SetSerialBaudRate asked for, applied when the host ACKs the answer.
    var pendingBaud: Int?
    /// The host's port threw away unread bytes while ``pendingBaud`` waited for its ACK,
    /// before the port ran at the new speed: its next bytes settle it.
    var awaitsCommitAfterDiscard = false
    /// Whether PowerDown put the chip to sleep.
    public internal(set) var isAsleep = false
    /// The faults to produce.
    public var faults: FaultPlan
    /// Counters of the fault plan.
    var faultState = FaultState()
    /// Set when the fault plan says the reader is unplugged now; the owner of the
    /// pseudo-terminal carries it out.
    public internal(set) var unplugRequested = false
    /// The modelled duration of the bytes handled by the last ``receive(_:)`` (host link,
    /// air and EEPROM time): what a real-time emulator waits before answering.
    public internal(set) var lastExchangeDuration: Duration = .zero
    /// Whether the chip's frames cross a UART priced at ``EmulatorStatistics/uartBaud``;
    /// false when a USB reader carries them and prices its bulk transfers itself
    /// (``chargeHostLink(_:)``).
    public internal(set) var hostLinkIsUART = true

    /// A chip at power-on with `field`, using the PN532 tables, producing `faults`.
    package init(field: Field = Field(), spec: PN532Spec = ChipTables.pn532, faults: FaultPlan = FaultPlan()) {
        self.spec = spec
        self.field = field
        self.faults = faults
        self.registers = CIURegisterFile(spec: spec)
        self.parser = PN532FrameParser(spec: spec.frame)
        self.encoder = PN532FrameEncoder(spec: spec.frame)
        self.parameterFlags = spec.parameterFlags[.automaticATRRes].code | spec.parameterFlags[.automaticRATS].code
        self.statistics.uartBaud = spec.timing.uartBaud
    }

    /// Feeds bytes from the host; returns what the chip writes back (possibly nothing).
    public mutating func receive(_ bytes: [UInt8]) -> [UInt8] {
        let before = statistics.modelledTime
        statistics.bytesFromHost += bytes.count
        lastCommandCode = nil
        lastTagCode = nil
        var output: [UInt8] = []
        for event in parser.feed(bytes) { output += handle(event) }
        statistics.bytesToHost += output.count
        if hostLinkIsUART { statistics.modelledTime += statistics.uartTime(byteCount: bytes.count + output.count) }
        lastExchangeDuration = statistics.modelledTime - before
        // Bytes of a frame split over several reads count with the command they complete.
        unattributedTime += lastExchangeDuration
        if let code = lastCommandCode {
            statistics.modelledTimeByCode[code, default: .zero] += unattributedTime
            if let tagCode = lastTagCode {
                statistics.modelledTimeByTagCode[tagCode, default: .zero] += unattributedTime
            }
            unattributedTime = .zero
        }
        if !output.isEmpty { lastSent = output }
        return output
    }

    /// Feeds bytes the host sent while its port ran at `hostSpeed` (nil: unknown). A UART
    /// receiver samples at its own speed, so bytes sent at another one are noise to the chip:
    /// nothing is understood, a frame in progress is lost, nothing is answered (UM0701-02
    /// §7.2.8: the chip keeps the speed SetSerialBaudRate gave it until a reset or power-off).
    /// While a switch waits for its committing ACK the bytes are taken at either speed: a pty
    /// cannot tell whether the host wrote them before or after it changed its own side.
    public mutating func receive(_ bytes: [UInt8], hostSpeed: Int?) -> [UInt8] {
        if hostLinkIsUART, pendingBaud == nil, let hostSpeed, hostSpeed != statistics.uartBaud {
            statistics.bytesFromHost += bytes.count
            statistics.bytesAtWrongSpeed += bytes.count
            parser.reset()
            return []
        }
        return receive(bytes)
    }

    /// Prices the host link as something other than the UART from now on: the owner of
    /// the link adds its time with ``chargeHostLink(_:)``.
    mutating func priceHostLinkExternally() {
        hostLinkIsUART = false
        statistics.uartBaud = 0
    }

    /// Adds `time` on the host link for the exchange just handled: to the modelled time,
    /// to ``lastExchangeDuration``, and to the command it carried (time of a transfer that
    /// carried no command counts with the next one, as a wake-up's does).
    mutating func chargeHostLink(_ time: Duration) {
        statistics.modelledTime += time
        lastExchangeDuration += time
        if let code = lastCommandCode {
            statistics.modelledTimeByCode[code, default: .zero] += time
            if let tagCode = lastTagCode { statistics.modelledTimeByTagCode[tagCode, default: .zero] += time }
        } else {
            unattributedTime += time
        }
    }

    /// The host's port flushed bytes the emulator had not read (a pty discards them; a real
    /// UART had sent them). While SetSerialBaudRate waits for its committing ACK, a port that
    /// now runs at the pending speed means the host sent that ACK: it is taken as received —
    /// counted and timed as the line carried it. A port still at the old speed is looked at
    /// again with the host's next bytes. Returns what the chip writes back (nothing).
    public mutating func hostDiscardedOutput(hostSpeed: Int?) -> [UInt8] {
        guard let baud = pendingBaud else {
            awaitsCommitAfterDiscard = false
            return []
        }
        guard hostSpeed == baud else {
            awaitsCommitAfterDiscard = true
            return []
        }
        awaitsCommitAfterDiscard = false
        return receive(spec.frame.ackFrame)
    }

    /// The host line has been quiet for a while: a frame still incomplete is dropped, as
    /// the chip times it out, and any frame hidden in its bytes is handled. Returns what the
    /// chip writes back (nothing for the dropped frame itself).
    public mutating func lineIdle() -> [UInt8] {
        var output: [UInt8] = []
        for event in parser.timeOutIncompleteFrame() {
            if case .malformed(let error) = event, error.check == .incompleteFrame {
                statistics.framesFromHost += 1
                continue
            }
            output += handle(event)
        }
        statistics.bytesToHost += output.count
        if !output.isEmpty { lastSent = output }
        return output
    }

    /// Called after a tag entered or left the field: answers a waiting InAutoPoll.
    public mutating func fieldDidChange() -> [UInt8] {
        guard let types = pendingAutoPoll, let answer = autoPollAnswer(types: types) else { return [] }
        pendingAutoPoll = nil
        let frame = encoder.answer(toCommand: spec.code(.inAutoPoll), data: answer)
        statistics.framesToHost += 1
        statistics.bytesToHost += frame.count
        lastSent = frame
        return frame
    }

    /// The chip's answer to one parsed event.
    mutating func handle(_ event: PN532HostEvent) -> [UInt8] {
        switch event {
        case .wakeUp:
            isAsleep = false
            pendingAutoPoll = nil
            return []
        case .ack:
            statistics.framesFromHost += 1
            pendingAutoPoll = nil  // abort: the pending answer is dropped
            if let baud = pendingBaud {  // the host confirms SetSerialBaudRate
                statistics.uartBaud = baud
                pendingBaud = nil
            }
            return []
        case .nack:
            statistics.framesFromHost += 1
            return lastSent
        case .malformed:
            statistics.framesFromHost += 1
            statistics.framesToHost += 1
            return encoder.error
        case let .command(code, data):
            statistics.framesFromHost += 1
            statistics.commands += 1
            statistics.commandsByCode[code, default: 0] += 1
            lastCommandCode = code
            pendingBaud = nil  // only the ACK right after the answer commits a speed
            awaitsCommitAfterDiscard = false
            countHostFrame()
            isAsleep = false
            pendingAutoPoll = nil
            // The frame arrived intact: ACK first, then the answer or an application-level error frame.
            statistics.framesToHost += 2
            let outcome =
                holdsMutedExchange(code, data)
                ? .deferred
                : spec.command(code: code).map { execute($0.name, data) } ?? .syntaxError
            switch outcome {
            case let .answer(data):
                return encoder.ack
                    + garbleIfPlanned(
                        encoder.answer(toCommand: code, data: Array(data.prefix(spec.frame.maximumDataLength))))
            case .syntaxError:
                return encoder.ack + encoder.error
            case .deferred:
                statistics.framesToHost -= 1
                return encoder.ack
            }
        }
    }

    /// What a command produced.
    enum Outcome {
        /// Answer data, framed after the ACK.
        case answer([UInt8])
        /// Unknown command or bad parameters: the error frame.
        case syntaxError
        /// Only the ACK now; the answer comes later (a waiting InAutoPoll).
        case deferred
    }

    /// Runs one command.
    mutating func execute(_ name: PN532CommandName, _ data: [UInt8]) -> Outcome {
        let answer: [UInt8]?
        switch name {
        case .diagnose: answer = diagnose(data)
        case .getFirmwareVersion: answer = spec.firmwareVersion
        case .getGeneralStatus: answer = generalStatus()
        case .readRegister: answer = readRegisters(data)
        case .writeRegister: answer = writeRegisters(data)
        case .readGPIO: answer = gpio
        case .writeGPIO: answer = writeGPIO(data)
        case .setSerialBaudRate, .setParameters, .samConfiguration: answer = configure(name, data)
        case .powerDown:
            isAsleep = true
            field.setPower(false)
            answer = [status(.success)]
        case .rfConfiguration: answer = rfConfiguration(data)
        case .inListPassiveTarget: answer = listPassiveTargets(data)
        case .inDataExchange: answer = dataExchange(data)
        case .inCommunicateThru: answer = communicateThru(data)
        case .inDeselect: answer = deselect(data, release: false)
        case .inRelease: answer = deselect(data, release: true)
        case .inSelect: answer = select(data)
        case .inPSL: answer = data.isEmpty ? nil : [status(.success)]
        case .inAutoPoll: return autoPoll(data)
        default: answer = nil
        }
        return answer.map(Outcome.answer) ?? .syntaxError
    }

    /// The code of status `name` from the tables.
    func status(_ name: PN532StatusName) -> UInt8 { spec.statuses[name].code }

    private mutating func diagnose(_ data: [UInt8]) -> [UInt8]? {
        guard let test = data.first, let option = spec.diagnoseTests.option(code: test) else { return nil }
        switch option.name {
        case .communicationLine: return data
        case .attentionRequest:
            let present =
                currentTarget.flatMap(target(numbered:)).map { field.state(of: $0.handle) == .active } ?? false
            return [status(present ? .success : .timeout)]
        case .rom, .ram, .selfAntenna: return [status(.success)]
        case .pollingTarget: return [0]  // number of failed polls
        case .echoBack: return nil
        }
    }

    private func generalStatus() -> [UInt8] {
        let modulation = spec.listPassiveTargetModulations[.iso14443A106].code
        var answer = [lastError, field.isPowered ? 1 : 0, UInt8(targets.count)]
        for target in targets { answer += [target.number, modulation, modulation, modulation] }
        return answer + [0]  // SAM status
    }

    private func readRegisters(_ data: [UInt8]) -> [UInt8]? {
        guard !data.isEmpty, data.count.isMultiple(of: 2) else { return nil }
        return stride(from: 0, to: data.count, by: 2).map {
            registers.read(UInt16(data[$0]) << 8 | UInt16(data[$0 + 1]))
        }
    }

    private mutating func writeRegisters(_ data: [UInt8]) -> [UInt8]? {
        guard !data.isEmpty, data.count.isMultiple(of: 3) else { return nil }
        for index in stride(from: 0, to: data.count, by: 3) {
            registers.write(data[index + 2], at: UInt16(data[index]) << 8 | UInt16(data[index + 1]))
        }
        return []
    }

    private mutating func writeGPIO(_ data: [UInt8]) -> [UInt8]? {
        guard data.count == 2 else { return nil }
        // The validate bit of each byte says whether the port is to be written (UM0701 §7.2.7).
        let validate = spec.gpioWriteValidateMask
        for (index, byte) in data.enumerated() where byte & validate != 0 { gpio[index] = byte & ~validate }
        return []
    }

    private mutating func configure(_ name: PN532CommandName, _ data: [UInt8]) -> [UInt8]? {
        switch name {
        case .setParameters:
            guard let flags = data.first else { return nil }
            parameterFlags = flags
        case .samConfiguration:
            guard let mode = data.first, spec.samModes.option(code: mode) != nil else { return nil }
            pendingAutoPoll = nil
        default:
            // SetSerialBaudRate: the new speed applies once the host has ACKed the answer.
            guard data.count == 1, let rate = spec.serialBaudRates.first(where: { $0.code == data[0] }),
                rate.baud <= faults.maximumSerialSpeed ?? rate.baud
            else { return nil }
            pendingBaud = rate.baud
        }
        return []
    }

    private mutating func rfConfiguration(_ data: [UInt8]) -> [UInt8]? {
        guard let item = data.first, let option = spec.rfConfigurationItems.option(code: item) else { return nil }
        if option.name == .rfField {
            guard data.count >= 2 else { return nil }
            let on = spec.rfFieldBits[.rfOn].value(in: data[1]) != 0
            if !on {
                targets.removeAll()
                currentTarget = nil
            }
            field.setPower(on)
        }
        return []
    }
}

import NFCChips

/// What the emulated reader has carried, and how long a real PN532 would have needed.
///
/// Frames and bytes are counted per direction on the host link. ``modelledTime`` adds the
/// host-link time (the UART at 8N1 and the current baud, or, on an emulated USB reader, its
/// full-speed bulk transfers), the ISO/IEC 14443-A air time of every frame at
/// 106 kbit/s with the frame delay time, and the EEPROM programming time the tags report.
/// It is a model for benchmarks: nothing ever sleeps.
///
/// ```swift
/// let stats = emulator.statistics
/// print(stats.framesFromHost, stats.bytesToHost, stats.modelledTime)
/// ```
public struct EmulatorStatistics: Sendable, Equatable {
    /// Frames received from the host (commands, ACK, NACK, rejected frames).
    public var framesFromHost = 0
    /// Bytes received from the host, wake-up and noise included.
    public var bytesFromHost = 0
    /// Frames sent to the host (ACK, answers, error frames).
    public var framesToHost = 0
    /// Bytes sent to the host.
    public var bytesToHost = 0
    /// Commands executed or rejected.
    public var commands = 0
    /// Frames sent to tags on air.
    public var framesToTags = 0
    /// Answers received from tags on air (silence not counted).
    public var framesFromTags = 0
    /// The modelled duration of all of the above.
    public var modelledTime: Duration = .zero
    /// The chip's serial speed, which also prices the host link; 0 when the host link is USB.
    public var uartBaud = 0
    /// Bytes the host sent while its port ran at a speed other than the chip's: noise to
    /// the chip, never understood (``PN532Controller/receive(_:hostSpeed:)``).
    public var bytesAtWrongSpeed = 0
    /// Bulk transfers on USB, both directions (0 on a UART): a USB reader's host link is
    /// priced per transfer at full speed (`datasheets/readers.json`, `usbFullSpeed`).
    public var usbBulkTransfers = 0
    /// PN532 commands executed or rejected, by command code (`0x42` InCommunicateThru,
    /// `0x06` ReadRegister …): where the frames of an operation went.
    public var commandsByCode: [UInt8: Int] = [:]
    /// Frames sent to tags on air, by their first byte (the tag command: `0x30` READ,
    /// `0x3A` FAST_READ, `0xA2` WRITE …; activation is not counted here).
    public var tagFramesByCode: [UInt8: Int] = [:]
    /// ``modelledTime`` by PN532 command code: each command's frames on the host link and
    /// what it did on air (time of a wake-up or a rejected frame counts with the next command).
    public var modelledTimeByCode: [UInt8: Duration] = [:]
    /// ``modelledTime`` of the PN532 commands that carried a tag command, by the tag
    /// command's first byte (`0xA2` WRITE: its frames, air time and EEPROM cycle).
    public var modelledTimeByTagCode: [UInt8: Duration] = [:]
    /// CPU time the emulator's own thread spent answering (parsing, tag models, writing
    /// to the pseudo-terminal): a benchmark in the same process subtracts it from the
    /// process CPU time to get the host side alone.
    public var emulatorCPUTime: Duration = .zero

    /// A zeroed record.
    public init() {}
}

extension EmulatorStatistics {
    /// UART time of `byteCount` bytes at the current baud.
    func uartTime(byteCount: Int) -> Duration {
        guard uartBaud > 0 else { return .zero }
        return .seconds(Double(byteCount * 10) / Double(uartBaud))
    }
}

extension PN532Controller {
    /// Air time of one exchange: the request frame (`request` bytes with CRC), the frame
    /// delay time, EEPROM programming, and the answer (bytes with CRC, or a 4-bit frame).
    mutating func airTime(request: Int, answer: TagAnswer) -> Duration {
        let timing = spec.timing
        statistics.framesToTags += 1
        var seconds = timing.airFrameSeconds(byteCount: request)
        switch answer.reply {
        case let .bytes(bytes):
            statistics.framesFromTags += 1
            seconds += timing.frameDelayTimeSeconds + timing.airFrameSeconds(byteCount: bytes.count + 2)
        case .acknowledge, .negativeAcknowledge:
            statistics.framesFromTags += 1
            seconds += timing.frameDelayTimeSeconds + Double(4 + timing.airFramingBits) * timing.airBitSeconds
        case .silence:
            break
        }
        return .seconds(seconds) + answer.programmingTime
    }

    /// A REQA that no tag answers: the short frame, the frame delay time and the time an
    /// ATQA would have taken (a missing answer is known once one would have ended).
    func unansweredRequestAirTime() -> Duration {
        let timing = spec.timing
        return .seconds(
            Double(7 + timing.airFramingBits) * timing.airBitSeconds + timing.frameDelayTimeSeconds
                + timing.airFrameSeconds(byteCount: 2))
    }

    /// Air time of activating one target: REQA/ATQA, anticollision and SELECT per cascade
    /// level, and RATS/ATS for ISO-DEP targets.
    func activationAirTime(_ target: ListedTarget) -> Duration {
        let timing = spec.timing
        let delay = timing.frameDelayTimeSeconds
        let levels = max(1, (target.identity.uid.count + 2) / 4)  // 4 → 1, 7 → 2, 10 → 3
        var seconds =
            Double(7 + timing.airFramingBits) * timing.airBitSeconds + delay + timing.airFrameSeconds(byteCount: 2)
        seconds +=
            Double(levels)
            * (timing.airFrameSeconds(byteCount: 2) + delay + timing.airFrameSeconds(byteCount: 5)
                + timing.airFrameSeconds(byteCount: 9) + delay + timing.airFrameSeconds(byteCount: 3))
        if target.hasATS, let ats = target.identity.ats {
            seconds += timing.airFrameSeconds(byteCount: 4) + delay + timing.airFrameSeconds(byteCount: ats.count + 2)
        }
        return .seconds(seconds)
    }
}

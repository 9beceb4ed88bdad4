import NFCEmulator
import NFCTagKit

/// What one operation cost on the emulated reader: the difference of the emulator's
/// counters before and after, and the host's CPU time (the process's less the emulator
/// thread's).
struct BenchSample: Sendable, Equatable {
    var commands = 0
    var frames = 0
    var bytesToReader = 0
    var bytesFromReader = 0
    var modelledTime: Duration = .zero
    var hostCPU: Duration = .zero
    /// How much resident memory the operation left behind (KiB; pages, so often 0).
    var residentKiBDelta = 0
    var commandsByCode: [UInt8: Int] = [:]
    var tagFramesByCode: [UInt8: Int] = [:]
    /// Modelled time by PN532 command code, and by the tag command a PN532 command carried.
    var modelledTimeByCode: [UInt8: Duration] = [:]
    var modelledTimeByTagCode: [UInt8: Duration] = [:]

    init() {}

    init(before: EmulatorStatistics, after: EmulatorStatistics, processCPU: Duration) {
        commands = after.commands - before.commands
        frames = (after.framesFromHost - before.framesFromHost) + (after.framesToHost - before.framesToHost)
        bytesToReader = after.bytesFromHost - before.bytesFromHost
        bytesFromReader = after.bytesToHost - before.bytesToHost
        modelledTime = after.modelledTime - before.modelledTime
        let emulatorCPU = after.emulatorCPUTime - before.emulatorCPUTime
        hostCPU = max(.zero, processCPU - emulatorCPU)
        commandsByCode = Self.difference(after.commandsByCode, before.commandsByCode)
        tagFramesByCode = Self.difference(after.tagFramesByCode, before.tagFramesByCode)
        modelledTimeByCode = Self.difference(after.modelledTimeByCode, before.modelledTimeByCode)
        modelledTimeByTagCode = Self.difference(after.modelledTimeByTagCode, before.modelledTimeByTagCode)
    }

    /// The PN53x commands that reach the tag: activation (InListPassiveTarget, InAutoPoll)
    /// and the tag exchanges (InDataExchange, InCommunicateThru) — what a floor prices.
    static let tagWorkCodes: Set<UInt8> = Set(
        [
            PN532CommandName.inListPassiveTarget, .inAutoPoll, .inDataExchange,
            .inCommunicateThru,
        ].map { ChipTables.pn532.code($0) })

    /// Modelled time of the ``tagWorkCodes`` commands: the operation without the reader's
    /// opening, configuration and closing around it.
    var tagWorkTime: Duration {
        modelledTimeByCode.filter { Self.tagWorkCodes.contains($0.key) }.values.reduce(.zero, +)
    }

    /// Modelled milliseconds.
    var modelledMilliseconds: Double {
        let (seconds, attoseconds) = modelledTime.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// Host CPU microseconds per PN532 command exchange (command, ACK, answer).
    var cpuMicrosecondsPerExchange: Double {
        let (seconds, attoseconds) = hostCPU.components
        let micros = Double(seconds) * 1e6 + Double(attoseconds) / 1e12
        return commands > 0 ? micros / Double(commands) : 0
    }

    static func + (lhs: BenchSample, rhs: BenchSample) -> BenchSample {
        var sum = lhs
        sum.commands += rhs.commands
        sum.frames += rhs.frames
        sum.bytesToReader += rhs.bytesToReader
        sum.bytesFromReader += rhs.bytesFromReader
        sum.modelledTime += rhs.modelledTime
        sum.hostCPU += rhs.hostCPU
        sum.residentKiBDelta += rhs.residentKiBDelta
        sum.commandsByCode.merge(rhs.commandsByCode, uniquingKeysWith: +)
        sum.tagFramesByCode.merge(rhs.tagFramesByCode, uniquingKeysWith: +)
        sum.modelledTimeByCode.merge(rhs.modelledTimeByCode, uniquingKeysWith: +)
        sum.modelledTimeByTagCode.merge(rhs.modelledTimeByTagCode, uniquingKeysWith: +)
        return sum
    }

    private static func difference<Value: AdditiveArithmetic & Comparable>(
        _ after: [UInt8: Value], _ before: [UInt8: Value]
    ) -> [UInt8: Value] {
        var result: [UInt8: Value] = [:]
        for (code, value) in after where value - (before[code] ?? .zero) > .zero {
            result[code] = value - (before[code] ?? .zero)
        }
        return result
    }
}

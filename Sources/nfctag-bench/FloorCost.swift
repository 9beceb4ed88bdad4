/// The cost of a sequence of PN532 commands on the physical floor: commands, frames and
/// bytes on the host link each way, and seconds (UART + air + EEPROM).
///
/// Costs add up with `+`, so an operation's floor is the sum of its commands.
///
/// ```swift
/// let floor = PhysicalFloor()
/// let read = floor.tagCommand(request: 2, answer: .bytes(16))   // one READ
/// print(read.seconds * 1000)                                    // ≈ 5.6 ms
/// ```
struct FloorCost: Sendable, Equatable {
    /// PN532 commands (each a host frame, the chip's ACK and its answer frame).
    var commands = 0
    /// Frames on the host link, both ways.
    var frames = 0
    /// Bytes the host sends to the reader.
    var bytesToReader = 0
    /// Bytes the reader sends to the host.
    var bytesFromReader = 0
    /// Host-link time of those bytes (UART, or USB bulk transfers).
    var linkSeconds = 0.0
    /// ISO/IEC 14443-A air time, frame delay times included.
    var airSeconds = 0.0
    /// EEPROM programming time.
    var eepromSeconds = 0.0

    /// The whole duration.
    var seconds: Double { linkSeconds + airSeconds + eepromSeconds }

    /// Milliseconds, for tables.
    var milliseconds: Double { seconds * 1000 }

    static let zero = FloorCost()

    static func + (lhs: FloorCost, rhs: FloorCost) -> FloorCost {
        FloorCost(
            commands: lhs.commands + rhs.commands, frames: lhs.frames + rhs.frames,
            bytesToReader: lhs.bytesToReader + rhs.bytesToReader,
            bytesFromReader: lhs.bytesFromReader + rhs.bytesFromReader,
            linkSeconds: lhs.linkSeconds + rhs.linkSeconds, airSeconds: lhs.airSeconds + rhs.airSeconds,
            eepromSeconds: lhs.eepromSeconds + rhs.eepromSeconds)
    }

    static func += (lhs: inout FloorCost, rhs: FloorCost) { lhs = lhs + rhs }

    /// `count` times this cost.
    func times(_ count: Int) -> FloorCost {
        (0..<max(0, count)).reduce(FloorCost.zero) { sum, _ in sum + self }
    }
}

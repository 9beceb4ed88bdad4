/// Faults the emulated reader and its tags produce on demand, for tests of error paths.
///
/// Each fault has a text form, the one `nfctag emulate --fault SPEC` takes:
///
/// | spec | fault |
/// |---|---|
/// | `tear-after=N` | the first tag leaves the field after N frames addressed to it |
/// | `nak-page=P` | every command addressed to page / block P gets NAK 0 |
/// | `timeout-page=P` | every command addressed to page / block P gets no answer |
/// | `timeout-command=HEX` | every tag command with that first byte gets no answer |
/// | `eeprom-fail-page=P` | WRITE to P fails with NAK 5 (see ``eepromFailurePages``) |
/// | `garble-after=N` | the Nth answer frame to the host carries a wrong checksum |
/// | `unplug-after=N` | the reader is unplugged after N command frames from the host |
/// | `slow=MS` | every answer to the host is held back MS milliseconds |
/// | `first-answer-delay=MS` | the first answer after each plug-in is held back MS milliseconds (a slow USB-serial adapter) |
/// | `max-baud=N` | SetSerialBaudRate to more than N baud gets the error frame (a chip that refuses the speed) |
///
/// Page numbers and counts are decimal, or hex with `0x`.
///
/// ```swift
/// let faults = try FaultPlan(parsing: ["tear-after=20", "nak-page=0x10"])
/// let emulator = try PN532Emulator(tags: [tag], faults: faults)
/// ```
public struct FaultPlan: Sendable, Equatable {
    /// Frames the first tag receives before it leaves the field.
    public var tagLeavesAfterFrames: Int?
    /// Pages or blocks whose commands are NAKed (NAK 0).
    public var nakPages: Set<Int> = []
    /// Pages or blocks whose commands get no answer (the reader times out).
    public var timeoutPages: Set<Int> = []
    /// Tag command codes that get no answer.
    public var timeoutCommands: Set<UInt8> = []
    /// Pages or blocks whose WRITE fails with NAK 5 (EEPROM write error). The model: a
    /// tearing-protected page (the chip table's ``NFCChips/MemoryMap/tearingProtectedPages``)
    /// keeps its old content; any other page is half-written (its first two bytes, or the
    /// first half of a Classic block, take the new value).
    public var eepromFailurePages: Set<Int> = []
    /// The answer frame to the host (counting from 1) whose checksum is garbled.
    public var garbleAnswerFrame: Int?
    /// Host command frames after which the reader is unplugged.
    public var unplugAfterFrames: Int?
    /// How long every answer to the host is held back.
    public var answerDelay: Duration = .zero
    /// How long the first answer after each plug-in is held back.
    public var firstAnswerDelay: Duration = .zero
    /// The fastest serial speed SetSerialBaudRate accepts; faster ones get the error frame.
    public var maximumSerialSpeed: Int?

    /// No faults.
    public init() {}

    /// Faults from their text forms (see the table above).
    public init(parsing specs: [String]) throws(FaultSpecError) {
        for spec in specs { try add(spec) }
    }

    /// Whether no fault is planned.
    public var isEmpty: Bool { self == FaultPlan() }

    private mutating func add(_ spec: String) throws(FaultSpecError) {
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let number = Self.number(parts[1], hex: parts[0] == "timeout-command") else {
            throw FaultSpecError(spec: spec)
        }
        switch parts[0] {
        case "tear-after": tagLeavesAfterFrames = number
        case "nak-page": nakPages.insert(number)
        case "timeout-page": timeoutPages.insert(number)
        case "timeout-command":
            guard let code = UInt8(exactly: number) else { throw FaultSpecError(spec: spec) }
            timeoutCommands.insert(code)
        case "eeprom-fail-page": eepromFailurePages.insert(number)
        case "garble-after": garbleAnswerFrame = number
        case "unplug-after": unplugAfterFrames = number
        case "slow": answerDelay = .milliseconds(number)
        case "first-answer-delay": firstAnswerDelay = .milliseconds(number)
        case "max-baud": maximumSerialSpeed = number
        default: throw FaultSpecError(spec: spec)
        }
    }

    private static func number(_ text: String, hex: Bool = false) -> Int? {
        let value: Int?
        if text.lowercased().hasPrefix("0x") { value = Int(text.dropFirst(2), radix: 16) } else { value = Int(text, radix: hex ? 16 : 10) }
        return value.flatMap { $0 >= 0 ? $0 : nil }
    }
}

/// A fault spec that is not one of ``FaultPlan``'s text forms.
public struct FaultSpecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text given.
    public var spec: String
    /// What was wrong and what is accepted.
    public var description: String {
        "unknown fault '\(spec)': expected tear-after=N, nak-page=P, timeout-page=P, timeout-command=HEX, "
            + "eeprom-fail-page=P, garble-after=N, unplug-after=N, slow=MS, "
            + "first-answer-delay=MS or max-baud=N"
    }
}
